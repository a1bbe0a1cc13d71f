import { Alert, Button, Group, Text } from '@mantine/core';
import { IconAlertTriangle, IconRefresh } from '@tabler/icons-react';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { describeError, isApiError } from '../lib/api/error';

/**
 * Title and message of a failure in the reader's language: a network failure (status 0) in the
 * console's words, never the browser's ("Failed to fetch"); otherwise the server's name and message.
 */
export function errorText(t: TFunction, error: unknown): { title: string; message: string } {
  if (isApiError(error) && error.status === 0) {
    return { title: t('errors.networkTitle'), message: t('errors.networkMessage') };
  }
  const { title, message } = describeError(error);
  return { title: title ?? t('errors.unknownTitle'), message: message ?? t('errors.unknownMessage') };
}

/**
 * A load that failed, in place of the data it would have shown (never an empty list, a blank form or a
 * zero): what went wrong and "Try again". `testId` names the screen's error (default `load-error`).
 */
export function LoadError({
  error,
  onRetry,
  testId = 'load-error',
  title,
}: {
  error: unknown;
  onRetry: () => unknown;
  testId?: string;
  /** The screen's own title for the failure (default: "Could not load this"). */
  title?: string;
}) {
  const { t } = useTranslation();
  const text = errorText(t, error);
  return (
    <Alert
      color="red"
      variant="light"
      icon={<IconAlertTriangle size={18} />}
      title={title ?? t('errors.loadFailedTitle')}
      data-testid={testId}
      role="alert"
    >
      <Text size="sm" mb="sm">
        {text.message}
      </Text>
      <Group>
        <Button
          size="xs"
          variant="light"
          color="red"
          leftSection={<IconRefresh size={14} />}
          onClick={() => onRetry()}
          data-testid={`${testId}-retry`}
        >
          {t('errors.tryAgain')}
        </Button>
      </Group>
    </Alert>
  );
}
