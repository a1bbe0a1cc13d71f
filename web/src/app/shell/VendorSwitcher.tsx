import { Button } from '@mantine/core';
import { IconBuilding, IconSelector } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { DeferredMenu } from '../../components/DeferredMenu';
import { useAppState } from '../../lib/appState';

const loadMenu = () => import('./VendorSwitcherDropdown').then((m) => m.VendorSwitcherDropdown);

/** Organisation (vendor) switcher: lists the user's vendors; choosing one stores it and reloads. */
export function VendorSwitcher({ fullWidth }: { fullWidth?: boolean }) {
  const { t } = useTranslation();
  const { vendors, vendor } = useAppState();

  return (
    <DeferredMenu
      load={loadMenu}
      target={
        <Button
          variant="default"
          fullWidth={fullWidth}
          justify={fullWidth ? 'space-between' : undefined}
          leftSection={<IconBuilding size={16} />}
          rightSection={<IconSelector size={16} />}
          aria-label={`${t('org.switch')}: ${vendor?.name ?? t('org.none')}`}
          data-testid="org-switcher"
          disabled={vendors.length === 0}
        >
          <span data-testid="org-current">{vendor?.name ?? t('org.none')}</span>
        </Button>
      }
    />
  );
}
