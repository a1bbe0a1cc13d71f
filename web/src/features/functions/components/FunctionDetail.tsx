import type { FunctionDetail as FunctionDetailData } from '@llmor/contracts';
import { Code, Skeleton, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useNavigate } from 'react-router';
import { ConfirmDeleteModal, confirmDelete, DeleteMenu } from '../../../components/ConfirmDeleteModal';
import { LoadProblem, SectionTabs } from '../../../components/DetailPage';
import { LoadingState } from '../../../components/LoadingState';
import { PageHeader } from '../../../components/PageHeader';
import { ApiError } from '../../../lib/api/error';
import { useDeleteFunction } from '../api/deleteFunction';
import { useFunction } from '../api/getFunction';
import { FunctionDetailsForm } from './FunctionDetailsForm';
import { FunctionEditor } from './FunctionEditor';
import { FunctionRuns } from './FunctionRuns';
import { FUNCTIONS_TOAST } from './toast';
import '../i18n';

const FUNCTION_SECTIONS = ['details', 'editor', 'runs'] as const;
export type FunctionSection = (typeof FUNCTION_SECTIONS)[number];

export interface FunctionDetailProps {
  vendorId: number;
  /** The function's id; null while creating (route id '+'). */
  id: number | null;
  section: FunctionSection;
  /** `?app_id=` on create: the new function is specific to that app. */
  appId?: number | null;
}

/** /functions/{id}/{details,editor,runs} (docs/reference/console.md Function detail shell). */
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

  const onDelete = () =>
    confirmDelete({
      remove: fn ? () => remove.mutateAsync(fn.id) : null,
      close: () => setConfirming(false),
      onDeleted: () => navigate('/functions'),
      texts: {
        unable: t('functions.detail.deleteUnable'),
        deleted: t('functions.detail.deleted'),
        failed: t('functions.detail.deleteFailed'),
      },
      toast: FUNCTIONS_TOAST,
    });

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
            <DeleteMenu
              menuLabel={t('functions.detail.menu')}
              deleteLabel={t('functions.detail.delete')}
              onDelete={() => setConfirming(true)}
              testId="function-menu"
            />
          )
        }
      />

      <SectionTabs
        section={section}
        sections={FUNCTION_SECTIONS.filter((s) => !creating || s === 'details')}
        basePath={`/functions/${creating ? '+' : id}`}
        testIdPrefix="function"
        textKeyPrefix="functions.detail"
      />

      {creating ? (
        <FunctionDetailsForm vendorId={vendorId} fn={null} specificAppId={appId} />
      ) : query.isPending ? (
        <LoadingState py="xl" text={t('functions.detail.loading')} testId="function-loading" />
      ) : query.error || !fn ? (
        <FunctionLoadProblem notFound={notFound} error={query.error} onRetry={query.refetch} />
      ) : (
        <SectionContent vendorId={vendorId} fn={fn} section={section} />
      )}

      <ConfirmDeleteModal
        opened={confirming}
        onClose={() => setConfirming(false)}
        title={t('functions.detail.deleteTitle')}
        text={t('functions.detail.deleteText')}
        cancelLabel={t('functions.detail.cancel')}
        confirmLabel={t('functions.detail.confirmDelete')}
        onConfirm={() => void onDelete()}
        loading={remove.isPending}
        testIds={{
          dialog: 'delete-function-dialog',
          text: 'delete-function-text',
          cancel: 'delete-function-cancel',
          confirm: 'delete-function-confirm',
        }}
      />
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

function FunctionLoadProblem({
  notFound,
  error,
  onRetry,
}: {
  notFound: boolean;
  error: unknown;
  onRetry: () => unknown;
}) {
  // docs/reference/console.md: a failed function fetch is logged; the page still says what happened.
  if (error && !notFound) console.error('Loading the function failed', error);
  return (
    <LoadProblem
      notFound={notFound}
      error={error}
      onRetry={onRetry}
      listPath="/functions"
      testIdPrefix="function"
      textKeyPrefix="functions.detail"
    />
  );
}
