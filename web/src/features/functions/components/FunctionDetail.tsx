import type { FunctionDetail as FunctionDetailData } from '@llmor/contracts';
import {
  ActionIcon,
  Alert,
  Anchor,
  Button,
  Center,
  Code,
  Group,
  Loader,
  Menu,
  Modal,
  Skeleton,
  Tabs,
  Text,
} from '@mantine/core';
import { IconAlertTriangle, IconDots, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useNavigate } from 'react-router';
import { PageHeader } from '../../../components/PageHeader';
import { ApiError, describeError } from '../../../lib/api/error';
import { useDeleteFunction } from '../api/deleteFunction';
import { useFunction } from '../api/getFunction';
import { FunctionDetailsForm } from './FunctionDetailsForm';
import { FunctionEditor } from './FunctionEditor';
import { FunctionRuns } from './FunctionRuns';
import { toastError, toastSuccess } from './toast';
import '../i18n';

export const FUNCTION_SECTIONS = ['details', 'editor', 'runs'] as const;
export type FunctionSection = (typeof FUNCTION_SECTIONS)[number];

export interface FunctionDetailProps {
  vendorId: number;
  /** The function's id; null while creating (route id '+'). */
  id: number | null;
  section: FunctionSection;
  /** `?app_id=` on create: the new function is specific to that app. */
  appId?: number | null;
}

/** /functions/{id}/{details,editor,runs} (spec 02 Function detail shell). */
export function FunctionDetail({ vendorId, id, section, appId = null }: FunctionDetailProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const creating = id === null;
  const query = useFunction(vendorId, id);
  const fn = query.data?.data;
  const remove = useDeleteFunction(vendorId);
  const [confirming, setConfirming] = useState(false);

  // Editor and Runs need a saved function.
  if (creating && section !== 'details') {
    return <Navigate to={{ pathname: '/functions/+/details', search: window.location.search }} replace />;
  }

  const notFound = query.error instanceof ApiError && query.error.status === 404;
  const title = creating ? t('functions.detail.newTitle') : fn?.name;
  const crumbTitle = title ?? `${t('functions.function')} ${t('common.idLabel', { id: String(id) })}`;

  const onDelete = async () => {
    if (!fn) {
      setConfirming(false);
      toastError(t('functions.detail.deleteUnable'));
      return;
    }
    try {
      await remove.mutateAsync(fn.id);
      setConfirming(false);
      toastSuccess(t('functions.detail.deleted'));
      navigate('/functions');
    } catch (error) {
      setConfirming(false);
      toastError(describeError(error).message || t('functions.detail.deleteFailed'));
    }
  };

  return (
    <>
      <PageHeader
        title={
          title ?? (
            <Skeleton
              height={28}
              width={220}
              radius="sm"
              data-testid="function-title-loading"
              aria-label={t('functions.detail.loading')}
            />
          )
        }
        subtitle={
          fn ? (
            <Text component="span" inherit data-testid="function-subtitle">
              {t('functions.detail.keyLabel')}:{' '}
              <Code data-testid="function-subtitle-key">{fn.function_key}</Code>
            </Text>
          ) : undefined
        }
        breadcrumbs={[{ label: t('functions.title'), to: '/functions' }, { label: crumbTitle }]}
        actions={
          creating ? undefined : (
            <Menu position="bottom-end" withinPortal>
              <Menu.Target>
                <ActionIcon
                  variant="default"
                  size="lg"
                  aria-label={t('functions.detail.menu')}
                  data-testid="function-menu"
                >
                  <IconDots size={18} />
                </ActionIcon>
              </Menu.Target>
              <Menu.Dropdown>
                <Menu.Item
                  color="red"
                  leftSection={<IconTrash size={16} />}
                  onClick={() => setConfirming(true)}
                  data-testid="function-menu-delete"
                >
                  {t('functions.detail.delete')}
                </Menu.Item>
              </Menu.Dropdown>
            </Menu>
          )
        }
      />

      <Tabs
        value={section}
        onChange={(value) => value && navigate(`/functions/${creating ? '+' : id}/${value}`)}
        mb="lg"
        keepMounted={false}
      >
        <Tabs.List aria-label={t('functions.detail.tabs')}>
          {FUNCTION_SECTIONS.filter((s) => !creating || s === 'details').map((s) => (
            <Tabs.Tab key={s} value={s} data-testid={`function-tab-${s}`}>
              {t(`functions.detail.${s}`)}
            </Tabs.Tab>
          ))}
        </Tabs.List>
      </Tabs>

      {creating ? (
        <FunctionDetailsForm vendorId={vendorId} fn={null} specificAppId={appId} />
      ) : query.isPending ? (
        <Center py="xl" data-testid="function-loading">
          <Group gap="xs">
            <Loader size="sm" />
            <Text size="sm" c="dimmed">
              {t('functions.detail.loading')}
            </Text>
          </Group>
        </Center>
      ) : query.error || !fn ? (
        <LoadProblem notFound={notFound} error={query.error} />
      ) : (
        <SectionContent vendorId={vendorId} fn={fn} section={section} />
      )}

      <Modal
        opened={confirming}
        onClose={() => setConfirming(false)}
        title={t('functions.detail.deleteTitle')}
        data-testid="delete-function-dialog"
      >
        <Text size="sm" mb="lg" data-testid="delete-function-text">
          {t('functions.detail.deleteText')}
        </Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={() => setConfirming(false)} data-testid="delete-function-cancel">
            {t('functions.detail.cancel')}
          </Button>
          <Button
            color="red"
            onClick={() => void onDelete()}
            loading={remove.isPending}
            data-testid="delete-function-confirm"
          >
            {t('functions.detail.confirmDelete')}
          </Button>
        </Group>
      </Modal>
    </>
  );
}

function SectionContent({
  vendorId,
  fn,
  section,
}: {
  vendorId: number;
  fn: FunctionDetailData;
  section: FunctionSection;
}) {
  if (section === 'editor') return <FunctionEditor key={fn.id} vendorId={vendorId} fn={fn} />;
  if (section === 'runs') return <FunctionRuns key={fn.id} vendorId={vendorId} fn={fn} />;
  return <FunctionDetailsForm key={`${fn.id}:${fn.modified_at ?? ''}`} vendorId={vendorId} fn={fn} />;
}

function LoadProblem({ notFound, error }: { notFound: boolean; error: unknown }) {
  const { t } = useTranslation();
  // Spec 02 §8: a failed function fetch is logged; the page still says what happened.
  if (error && !notFound) console.error('Loading the function failed', error);
  return (
    <Alert
      color={notFound ? 'gray' : 'red'}
      variant="light"
      icon={notFound ? undefined : <IconAlertTriangle size={18} />}
      title={notFound ? t('functions.detail.notFoundTitle') : t('functions.detail.loadFailedTitle')}
      data-testid={notFound ? 'function-not-found' : 'function-load-error'}
    >
      <Text size="sm" mb="xs">
        {notFound
          ? t('functions.detail.notFoundMessage')
          : (describeError(error).message ?? t('errors.unknownMessage'))}
      </Text>
      <Anchor component={Link} to="/functions" size="sm">
        {t('functions.detail.backToList')}
      </Anchor>
    </Alert>
  );
}
