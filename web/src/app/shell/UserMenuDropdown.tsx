import { LOCALE_LABELS, LOCALES } from '@llmor/contracts';
import { Badge, Group, Menu, Text } from '@mantine/core';
import { IconApi, IconCheck, IconLanguage, IconLogout, IconUserCircle } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { LoadedMenuProps } from '../../components/DeferredMenu';
import { usePendingInvitationCount } from '../../features/account';
import { useAppState } from '../../lib/appState';

/** The user menu's dropdown (a chunk loaded on intent, see DeferredMenu). */
export function UserMenuDropdown({ target, defaultOpened }: LoadedMenuProps) {
  const { t } = useTranslation();
  const { user, locale, changeLocale, signOut } = useAppState();
  const invitations = usePendingInvitationCount();
  if (!user) return null;

  return (
    <Menu position="top-start" width={260} withinPortal shadow="md" defaultOpened={defaultOpened}>
      <Menu.Target>{target}</Menu.Target>
      <Menu.Dropdown data-testid="user-menu">
        <Menu.Label>{t('user.signedInAs')}</Menu.Label>
        <Text size="sm" px="sm" pb="xs" truncate data-testid="user-menu-signed-in-email">
          {user.email}
        </Text>
        <Menu.Divider />
        <Menu.Label>
          <Group gap={6}>
            <IconLanguage size={14} />
            {t('user.language')}
          </Group>
        </Menu.Label>
        {LOCALES.map((l) => (
          <Menu.Item
            key={l}
            role="menuitemradio"
            aria-checked={l === locale}
            lang={l.replace('_', '-')}
            data-testid={`language-item-${l}`}
            rightSection={l === locale ? <IconCheck size={16} data-testid="language-current-check" /> : null}
            onClick={() => {
              if (l !== locale) changeLocale(l);
            }}
          >
            {LOCALE_LABELS[l]}
          </Menu.Item>
        ))}
        <Menu.Divider />
        <Menu.Item
          component={Link}
          to="/account"
          leftSection={<IconUserCircle size={16} />}
          rightSection={
            invitations > 0 ? (
              <Badge
                size="sm"
                circle
                aria-label={t('user.invitations', { count: invitations })}
                data-testid="account-link-badge"
              >
                {invitations}
              </Badge>
            ) : null
          }
          data-testid="account-link"
        >
          {t('user.account')}
        </Menu.Item>
        <Menu.Item
          component={Link}
          to="/docs/api"
          leftSection={<IconApi size={16} />}
          data-testid="api-reference-link"
        >
          {t('user.apiReference')}
        </Menu.Item>
        <Menu.Item
          color="red"
          leftSection={<IconLogout size={16} />}
          onClick={() => void signOut()}
          data-testid="sign-out"
        >
          {t('user.signOut')}
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
