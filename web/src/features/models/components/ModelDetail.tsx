import type { InstalledModelDetail } from '@llmor/contracts';
import { Alert, Anchor, Center, Group, Loader, Tabs, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { EntityIcon } from '../../../components/EntityIcon';
import { PageHeader } from '../../../components/PageHeader';
import { ApiError, describeError } from '../../../lib/api/error';
import { useModel } from '../api/getModel';
import { ModelConfiguration } from './ModelConfiguration';
import { ModelDetails } from './ModelDetails';
import { ModelUsage } from './ModelUsage';
import '../i18n';

export const MODEL_SECTIONS = ['details', 'usage', 'configuration'] as const;
export type ModelSection = (typeof MODEL_SECTIONS)[number];

function SectionContent({ section, model }: { section: ModelSection; model: InstalledModelDetail }) {
  if (section === 'usage') return <ModelUsage />;
  if (section === 'configuration') return <ModelConfiguration model={model} />;
  return <ModelDetails model={model} />;
}

/** /models/{id}/{details,usage,configuration}: header, tabs and the section (spec 02 §2). */
export function ModelDetail({
  vendorId,
  id,
  section,
}: {
  vendorId: number;
  id: string;
  section: ModelSection;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const query = useModel(vendorId, id);
  const model = query.data?.data;
  const fallbackTitle = `${t('models.model')} ${t('common.idLabel', { id })}`;
  const title = model?.name ?? fallbackTitle;
  const notFound = query.error instanceof ApiError && query.error.status === 404;

  return (
    <>
      <PageHeader
        title={title}
        subtitle={t(`models.detail.${section}`)}
        breadcrumbs={[{ label: t('models.title'), to: '/models' }, { label: title }]}
        actions={model ? <EntityIcon icon={model.image} name={model.name} size="lg" /> : undefined}
      />
      <Tabs
        value={section}
        onChange={(value) => value && navigate(`/models/${encodeURIComponent(id)}/${value}`)}
        mb="lg"
        keepMounted={false}
      >
        <Tabs.List aria-label={t('models.detail.tabs')}>
          {MODEL_SECTIONS.map((s) => (
            <Tabs.Tab key={s} value={s} data-testid={`model-tab-${s}`}>
              {t(`models.detail.${s}`)}
            </Tabs.Tab>
          ))}
        </Tabs.List>
      </Tabs>

      {query.isPending ? (
        <Center py="xl" data-testid="model-loading">
          <Group gap="xs">
            <Loader size="sm" />
            <Text size="sm" c="dimmed">
              {t('models.detail.loading')}
            </Text>
          </Group>
        </Center>
      ) : query.error || !model ? (
        <Alert
          color={notFound ? 'gray' : 'red'}
          variant="light"
          icon={notFound ? undefined : <IconAlertTriangle size={18} />}
          title={notFound ? t('models.detail.notFoundTitle') : t('models.detail.loadFailedTitle')}
          data-testid={notFound ? 'model-not-found' : 'model-load-error'}
        >
          <Text size="sm" mb="xs">
            {notFound
              ? t('models.detail.notFoundMessage')
              : (describeError(query.error).message ?? t('errors.unknownMessage'))}
          </Text>
          <Anchor component={Link} to="/models" size="sm">
            {t('models.detail.backToList')}
          </Anchor>
        </Alert>
      ) : (
        <SectionContent section={section} model={model} />
      )}
    </>
  );
}
