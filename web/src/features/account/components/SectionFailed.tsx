import { Button, Paper, Stack, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { describeError } from '../../../lib/api/error';

/** A section whose data did not load: the reason, and Try again. */
export function SectionFailed({
  error,
  onRetry,
  testId,
}: {
  error: unknown;
  onRetry(): void;
  testId: string;
}) {
  const { t } = useTranslation();
  return (
    <Paper withBorder p="lg" radius="md" data-testid={testId}>
      <Stack align="center" gap="xs">
        <IconAlertTriangle size={28} stroke={1.5} color="var(--mantine-color-red-6)" />
        <Text fw={600}>{t('account.loadFailed')}</Text>
        <Text size="sm" c="dimmed">
          {describeError(error).message}
        </Text>
        <Button variant="light" size="xs" onClick={onRetry} data-testid={`${testId}-retry`}>
          {t('account.retry')}
        </Button>
      </Stack>
    </Paper>
  );
}
