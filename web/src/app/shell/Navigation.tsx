import { NavLink, Stack } from '@mantine/core';
import { IconApps, IconBrain, IconFunction, IconSettings, IconShieldLock } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { useAppState } from '../../lib/appState';

const LINKS = [
  { key: 'apps', to: '/apps', match: '/apps', icon: IconApps },
  { key: 'models', to: '/models', match: '/models', icon: IconBrain },
  { key: 'functions', to: '/functions', match: '/functions', icon: IconFunction },
  { key: 'settings', to: '/settings/vendor', match: '/settings', icon: IconSettings },
] as const;

/** Sidebar links (docs/reference/console.md); Settings only for the vendor's owners (all of it is theirs); Admin only for superusers. */
export function Navigation({ onNavigate }: { onNavigate?: () => void }) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const { user, vendor } = useAppState();
  const own = LINKS.filter(({ key }) => key !== 'settings' || !vendor || vendor.role === 'owner');
  const links = user?.is_su
    ? [...own, { key: 'admin', to: '/admin', match: '/admin', icon: IconShieldLock } as const]
    : own;

  return (
    <Stack gap={4} component="nav" aria-label={t('nav.main')}>
      {links.map(({ key, to, match, icon: Icon }) => {
        const active = pathname === match || pathname.startsWith(`${match}/`);
        return (
          <NavLink
            key={key}
            component={Link}
            to={to}
            label={t(`nav.${key}`)}
            leftSection={<Icon size={18} stroke={1.6} />}
            active={active}
            aria-current={active ? 'page' : undefined}
            onClick={onNavigate}
            data-testid={`nav-${key}`}
            style={{ borderRadius: 'var(--mantine-radius-md)' }}
          />
        );
      })}
    </Stack>
  );
}
