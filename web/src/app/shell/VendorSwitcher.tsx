import { Button, Menu } from '@mantine/core';
import { IconBuilding, IconCheck, IconSelector } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useAppState } from '../../../lib/appState';

/** Organisation (vendor) switcher: lists the user's vendors; choosing one stores it and reloads. */
export function VendorSwitcher({ fullWidth }: { fullWidth?: boolean }) {
  const { t } = useTranslation();
  const { vendors, vendor, selectVendor } = useAppState();

  return (
    <Menu position="bottom-end" width={260} withinPortal shadow="md">
      <Menu.Target>
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
      </Menu.Target>
      <Menu.Dropdown data-testid="org-list">
        <Menu.Label>{t('org.switch')}</Menu.Label>
        {vendors.map((v) => (
          <Menu.Item
            key={v.id}
            role="menuitemradio"
            aria-checked={v.id === vendor?.id}
            data-testid={`org-item-${v.key}`}
            rightSection={v.id === vendor?.id ? <IconCheck size={16} /> : null}
            onClick={() => {
              if (v.id !== vendor?.id) selectVendor(v);
            }}
          >
            {v.name}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}
