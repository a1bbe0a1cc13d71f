import { Alert } from '@mantine/core';
import { IconChartBar } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';

/** Per-model usage is not recorded by the server yet: say so instead of showing figures. */
export function ModelUsage() {
  const { t } = useTranslation();
  return (
    <Alert
      variant="light"
      color="blue"
      icon={<IconChartBar size={18} />}
      title={t('models.detail.usageTitle')}
      data-testid="model-usage-unavailable"
    >
      {t('models.detail.usageMessage')}
    </Alert>
  );
}
