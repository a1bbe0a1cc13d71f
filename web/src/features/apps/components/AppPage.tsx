import { ActionIcon, Alert, Button, Group, Menu, Modal, Skeleton, Tabs, Text } from '@mantine/core';
import { IconAlertTriangle, IconDots, IconMessages, IconSettings, IconTrash } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { type Crumb, PageHeader } from '../../../components/PageHeader';
import { describeError } from '../../../lib/api/error';
import { useCurrentVendor } from '../../../lib/appState';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { useDeleteApp } from '../api/deleteApp';
import { appQueryKey, useApp } from '../api/getApp';
import '../i18n';

export type AppTab = 'conversations' | 'settings';

export interface AppPageProps {
  tab: AppTab;
  children: ReactNode;
}

/**
 * The app page shell (spec 01 App page): header with the app name (placeholder while loading), a menu
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

  const name = app.data?.name;
  const crumbs: Crumb[] = [{ label: t('pages.apps.title'), to: '/apps' }];
  if (tab !== 'conversations') crumbs.push({ label: name ?? '…' });

  const onDelete = async () => {
    if (!app.data || !vendor) {
      setConfirming(false);
      notifyError(t('apps.page.deleteUnable'));
      return;
    }
    try {
      await remove.mutateAsync({ vendorId: vendor.id, appId: app.data.id });
      setConfirming(false);
      client.removeQueries({ queryKey: appQueryKey(vendor.id, id) });
      notifySuccess(t('apps.page.deleted'));
      navigate('/apps');
    } catch (error) {
      setConfirming(false);
      notifyError(describeError(error).message || t('apps.page.deleteFailed'));
    }
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
          <Menu position="bottom-end" withinPortal>
            <Menu.Target>
              <ActionIcon variant="default" size="lg" aria-label={t('apps.page.menu')} data-testid="app-menu">
                <IconDots size={18} />
              </ActionIcon>
            </Menu.Target>
            <Menu.Dropdown>
              <Menu.Item
                color="red"
                leftSection={<IconTrash size={16} />}
                onClick={() => setConfirming(true)}
                data-testid="app-menu-delete"
              >
                {t('apps.page.deleteApp')}
              </Menu.Item>
            </Menu.Dropdown>
          </Menu>
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

      {app.isError ? (
        <Alert color="red" variant="light" icon={<IconAlertTriangle size={18} />} data-testid="app-error">
          {describeError(app.error).message ?? t('errors.unknownMessage')}
        </Alert>
      ) : (
        children
      )}

      <Modal
        opened={confirming}
        onClose={() => setConfirming(false)}
        title={t('apps.page.deleteTitle')}
        data-testid="delete-app-dialog"
      >
        <Text size="sm" mb="lg" data-testid="delete-app-text">
          {t('apps.page.deleteText')}
        </Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={() => setConfirming(false)} data-testid="delete-app-cancel">
            {t('apps.page.cancel')}
          </Button>
          <Button
            color="red"
            onClick={() => void onDelete()}
            loading={remove.isPending}
            data-testid="delete-app-confirm"
          >
            {t('apps.page.delete')}
          </Button>
        </Group>
      </Modal>
    </>
  );
}
