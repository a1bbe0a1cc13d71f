import { Alert } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { describeError } from '../../../lib/api/error';

export function LoadFailed({ error, testId }: { error: unknown; testId: string }) {
  const { t } = useTranslation();
  return (
    <Alert
      color="red"
      variant="light"
      icon={<IconAlertTriangle size={18} />}
      title={t('settings.loadFailed')}
      data-testid={testId}
    >
      {describeError(error).message}
    </Alert>
  );
}
