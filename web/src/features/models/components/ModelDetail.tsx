import type { InstalledModelDetail } from '@llmor/contracts';
import { useTranslation } from 'react-i18next';
import { LoadProblem, SectionTabs } from '../../../components/DetailPage';
import { EntityIcon } from '../../../components/EntityIcon';
import { LoadingState } from '../../../components/LoadingState';
import { PageHeader } from '../../../components/PageHeader';
import { ApiError } from '../../../lib/api/error';
import { useModel } from '../api/getModel';
import { ModelConfiguration } from './ModelConfiguration';
import { ModelDetails } from './ModelDetails';
import { ModelUsage } from './ModelUsage';
import '../i18n';

const MODEL_SECTIONS = ['details', 'usage', 'configuration'] as const;
export type ModelSection = (typeof MODEL_SECTIONS)[number];

function SectionContent({ section, model }: { section: ModelSection; model: InstalledModelDetail }) {
  if (section === 'usage') return <ModelUsage />;
  if (section === 'configuration') return <ModelConfiguration model={model} />;
  return <ModelDetails model={model} />;
}

/** /models/{id}/{details,usage,configuration}: header, tabs and the section (docs/reference/console.md). */
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
      <SectionTabs
        section={section}
        sections={MODEL_SECTIONS}
        basePath={`/models/${encodeURIComponent(id)}`}
        testIdPrefix="model"
        textKeyPrefix="models.detail"
      />

      {query.isPending ? (
        <LoadingState py="xl" text={t('models.detail.loading')} testId="model-loading" />
      ) : query.error || !model ? (
        <LoadProblem
          notFound={notFound}
          error={query.error}
          onRetry={query.refetch}
          listPath="/models"
          testIdPrefix="model"
          textKeyPrefix="models.detail"
        />
      ) : (
        <SectionContent section={section} model={model} />
      )}
    </>
  );
}
