import { Alert } from '@mantine/core';
import { IconBuildingStore } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';

/** Replaces a vendor-scoped page when no vendor is selected (docs/reference/console.md). */
export function NoVendorSelected() {
  const { t } = useTranslation();
  return (
    <Alert
      variant="light"
      color="yellow"
      title={t('noVendor.title')}
      icon={<IconBuildingStore size={18} />}
      data-testid="no-vendor-selected"
    >
      {t('noVendor.message')}
    </Alert>
  );
}
