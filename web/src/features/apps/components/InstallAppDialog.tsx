import { Button, Center, Group, Loader, Modal, Paper, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { EntityIcon } from '../../../components/EntityIcon';
import { describeError } from '../../../lib/api/error';
import { notifyError } from '../../../lib/notify';
import { useAvailableApps } from '../api/getAvailableApps';
import { useInstallApp } from '../api/installApp';

export interface InstallAppDialogProps {
  vendorId: number;
  opened: boolean;
  onClose(): void;
}

/** 'Install new App': the installable apps with an Install button each; success opens the new app's details. */
export function InstallAppDialog({ vendorId, opened, onClose }: InstallAppDialogProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const available = useAvailableApps(vendorId, opened);
  const install = useInstallApp(vendorId);
  const [installing, setInstalling] = useState<string | null>(null);

  const onInstall = async (appKey: string) => {
    setInstalling(appKey);
    try {
      const { data } = await install.mutateAsync(appKey);
      onClose();
      navigate(`/apps/${data.id}/settings/details`);
    } catch (error) {
      notifyError(describeError(error).message ?? t('apps.install.failed'), {
        title: t('apps.install.failed'),
      });
    } finally {
      setInstalling(null);
    }
  };

  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={t('apps.install.title')}
      size="lg"
      data-testid="install-dialog"
    >
      {available.isPending ? (
        <Center py="lg">
          <Loader size="sm" />
        </Center>
      ) : (
        <Stack gap="sm">
          {(available.data ?? []).length === 0 && (
            <Text c="dimmed" size="sm" data-testid="install-empty">
              {t('apps.install.empty')}
            </Text>
          )}
          {(available.data ?? []).map((app) => (
            <Paper key={app.appKey} withBorder p="sm" radius="md" data-testid={`install-item-${app.appKey}`}>
              <Group justify="space-between" wrap="nowrap" gap="md">
                <Group wrap="nowrap" gap="sm" style={{ minWidth: 0 }}>
                  <EntityIcon icon={app.icon} name={app.name} size="md" />
                  <Stack gap={2} style={{ minWidth: 0 }}>
                    <Text fw={600}>{app.name}</Text>
                    <Text size="sm" c="dimmed">
                      {app.description || t('apps.install.noDescription')}
                    </Text>
                  </Stack>
                </Group>
                <Button
                  size="xs"
                  style={{ flex: 'none' }}
                  onClick={() => void onInstall(app.appKey)}
                  loading={installing === app.appKey}
                  disabled={installing !== null && installing !== app.appKey}
                  data-testid={`install-app-${app.appKey}`}
                >
                  {t('apps.install.install')}
                </Button>
              </Group>
            </Paper>
          ))}
          <Group justify="flex-end" mt="sm">
            <Button variant="default" onClick={onClose} data-testid="install-dialog-close">
              {t('apps.install.close')}
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
