import { Group, Text, UnstyledButton } from '@mantine/core';
import { IconChevronUp } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { DeferredMenu } from '../../components/DeferredMenu';
import { UserAvatar } from '../../components/UserAvatar';
import { useAppState } from '../../lib/appState';

const loadMenu = () => import('./UserMenuDropdown').then((m) => m.UserMenuDropdown);

/** The user menu at the bottom of the sidebar: email, language list, sign out (docs/reference/console.md). */
export function UserMenu() {
  const { t } = useTranslation();
  const { user } = useAppState();
  if (!user) return null;
  const fullName = `${user.firstname} ${user.lastname}`.trim() || user.email;

  return (
    <DeferredMenu
      load={loadMenu}
      target={
        <UnstyledButton
          aria-label={t('user.menu')}
          data-testid="user-menu-button"
          w="100%"
          p="xs"
          style={{ borderRadius: 'var(--mantine-radius-md)' }}
        >
          <Group gap="sm" wrap="nowrap">
            <UserAvatar name={fullName} size="md" />
            <div style={{ flex: 1, minWidth: 0 }}>
              <Text size="sm" fw={500} truncate>
                {fullName}
              </Text>
              <Text size="xs" c="dimmed" truncate data-testid="user-menu-email">
                {user.email}
              </Text>
            </div>
            <IconChevronUp size={16} />
          </Group>
        </UnstyledButton>
      }
    />
  );
}
