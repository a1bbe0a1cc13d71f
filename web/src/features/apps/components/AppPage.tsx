import { Alert, Anchor, Skeleton, Tabs } from '@mantine/core';
import { IconMessages, IconSettings } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { ConfirmDeleteModal, confirmDelete, DeleteMenu } from '../../../components/ConfirmDeleteModal';
import { LoadError } from '../../../components/LoadError';
import { LoadingState } from '../../../components/LoadingState';
import { type Crumb, PageHeader } from '../../../components/PageHeader';
import { isApiError } from '../../../lib/api/error';
import { useCurrentVendor } from '../../../lib/appState';
import { useDeleteApp } from '../api/deleteApp';
import { useApp } from '../api/getApp';
import { appKeys } from '../api/keys';
import '../i18n';

type AppTab = 'conversations' | 'settings';

export interface AppPageProps {
  tab: AppTab;
  children: ReactNode;
}

/**
 * The app page shell (docs/reference/console.md App page): header with the app name (placeholder while loading), a menu
 * with Delete App, breadcrumb Apps → app name (not on the conversations tab), tabs Conversations and Settings.
 */
export function AppPage({ tab, children }: AppPageProps) {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  const vendor = useCurrentVendor();
  const navigate = useNavigate();
  const client = useQueryClient();
  const app = useApp(vendor?.id ?? 0, id);
  const remove = useDeleteApp();
  const [confirming, setConfirming] = useState(false);

  const missing = isApiError(app.error) && app.error.status === 404;
  const name = missing ? t('apps.page.notFound') : app.data?.name;
  const crumbs: Crumb[] = [{ label: t('pages.apps.title'), to: '/apps' }];
  if (tab !== 'conversations') crumbs.push({ label: name ?? '…' });

  const onDelete = () => {
    const target = app.data && vendor ? { vendorId: vendor.id, appId: app.data.id } : null;
    return confirmDelete({
      remove: target && (() => remove.mutateAsync(target)),
      close: () => setConfirming(false),
      onDeleted: () => {
        if (target) client.removeQueries({ queryKey: appKeys.detail(target.vendorId, id) });
        navigate('/apps');
      },
      texts: {
        unable: t('apps.page.deleteUnable'),
        deleted: t('apps.page.deleted'),
        failed: t('apps.page.deleteFailed'),
      },
    });
  };

  return (
    <>
      <PageHeader
        title={
          name ?? (
            <Skeleton
              height={28}
              width={220}
              radius="sm"
              data-testid="app-title-loading"
              aria-label={t('apps.page.loading')}
            />
          )
        }
        breadcrumbs={crumbs}
        actions={
          !missing && (
            <DeleteMenu
              menuLabel={t('apps.page.menu')}
              deleteLabel={t('apps.page.deleteApp')}
              onDelete={() => setConfirming(true)}
              testId="app-menu"
            />
          )
        }
      />

      <Tabs
        value={tab}
        onChange={(next) => {
          if (next === 'conversations') navigate(`/apps/${id}/chat`);
          else if (next === 'settings' && tab !== 'settings') navigate(`/apps/${id}/settings/details`);
        }}
        mb="lg"
        data-testid="app-tabs"
      >
        <Tabs.List>
          <Tabs.Tab
            value="conversations"
            leftSection={<IconMessages size={16} />}
            data-testid="app-tab-conversations"
          >
            {t('pages.app.conversations')}
          </Tabs.Tab>
          <Tabs.Tab value="settings" leftSection={<IconSettings size={16} />} data-testid="app-tab-settings">
            {t('pages.app.settings')}
          </Tabs.Tab>
        </Tabs.List>
      </Tabs>

      {missing ? (
        <Alert color="gray" variant="light" data-testid="app-not-found">
          {t('apps.page.notFoundText')}{' '}
          <Anchor component={Link} to="/apps">
            {t('apps.page.backToApps')}
          </Anchor>
        </Alert>
      ) : app.data ? (
        // Kept while a background refresh fails (a server restart): the open conversation, its socket and
        // unsaved edits stay; only a first load that fails shows the error.
        children
      ) : app.isError ? (
        <LoadError error={app.error} onRetry={app.refetch} testId="app-error" />
      ) : (
        <LoadingState text={t('apps.page.loading')} testId="app-loading" />
      )}

      <ConfirmDeleteModal
        opened={confirming}
        onClose={() => setConfirming(false)}
        title={t('apps.page.deleteTitle')}
        text={t('apps.page.deleteText')}
        cancelLabel={t('apps.page.cancel')}
        confirmLabel={t('apps.page.delete')}
        onConfirm={() => void onDelete()}
        loading={remove.isPending}
        testIds={{
          dialog: 'delete-app-dialog',
          text: 'delete-app-text',
          cancel: 'delete-app-cancel',
          confirm: 'delete-app-confirm',
        }}
      />
    </>
  );
}
