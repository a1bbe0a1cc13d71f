import { Menu } from '@mantine/core';
import { IconCheck } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { LoadedMenuProps } from '../../components/DeferredMenu';
import { useUnsavedGuard } from '../../components/UnsavedChanges';
import { useAppState } from '../../lib/appState';

/** The organisation switcher's list (a chunk loaded on intent, see DeferredMenu). */
export function VendorSwitcherDropdown({ target, defaultOpened }: LoadedMenuProps) {
  const { t } = useTranslation();
  const { vendors, vendor, selectVendor } = useAppState();
  // Another vendor's pages replace this one's, unsaved input with them.
  const { confirmDiscard } = useUnsavedGuard();

  return (
    <Menu position="bottom-end" width={260} withinPortal shadow="md" defaultOpened={defaultOpened}>
      <Menu.Target>{target}</Menu.Target>
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
              if (v.id !== vendor?.id) confirmDiscard(() => selectVendor(v));
            }}
          >
            {v.name}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}
