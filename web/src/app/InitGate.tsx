import { Alert, Button, Center, Loader, Stack, Text } from '@mantine/core';
import { IconAlertTriangle, IconRefresh } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useAppState } from '../lib/appState';

/** Shows the loading screen or the initialisation error until the app state is complete. */
export function InitGate({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const { phase, error, sessionInvalid, retry } = useAppState();

  if (phase === 'complete') return children;

  if (phase === 'error') {
    return (
      <Center mih="100vh" p="md">
        <Alert
          color="red"
          variant="light"
          maw={560}
          w="100%"
          icon={<IconAlertTriangle size={20} />}
          title={t('app.init.errorTitle')}
          data-testid="init-error"
          role="alert"
        >
          <Stack gap="md">
            <Text size="sm">
              {t('app.init.errorMessage', { error: error ?? t('errors.unknownMessage') })}
            </Text>
            <Button
              leftSection={<IconRefresh size={16} />}
              color="red"
              variant="filled"
              onClick={retry}
              w="fit-content"
              data-testid="init-retry"
            >
              {t('app.init.tryAgain')}
            </Button>
          </Stack>
        </Alert>
      </Center>
    );
  }

  const message = sessionInvalid
    ? t('app.init.invalidSession')
    : phase === 'creating-session'
      ? t('app.loading.creatingSession')
      : phase === 'initializing'
        ? t('app.loading.checkingAuth')
        : t('app.loading.loading');

  return (
    <Center mih="100vh" data-testid="init-loading" data-phase={phase}>
      <Stack align="center" gap="sm">
        <Loader />
        <Text c="dimmed" role="status" aria-live="polite">
          {message}
        </Text>
      </Stack>
    </Center>
  );
}
