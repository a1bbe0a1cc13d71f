import { Grid, NavLink, Stack } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { type Crumb, PageHeader } from '../../../components/PageHeader';
import '../i18n';

const LINKS = [
  { to: '/settings/vendor', key: 'general' },
  { to: '/settings/users', key: 'users' },
  { to: '/settings/integrations/slack', key: 'slack' },
  { to: '/settings/integrations/smtp', key: 'smtp' },
  { to: '/settings/billing/address', key: 'billing' },
] as const;

/** Settings pages: header with breadcrumbs, and the sub-navigation beside the page (above it on phones). */
export function SettingsLayout({
  title,
  crumbs = [],
  children,
}: {
  title: string;
  crumbs?: Crumb[];
  children: ReactNode;
}) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  return (
    <>
      <PageHeader
        title={title}
        breadcrumbs={[
          { label: t('settings.nav.label'), to: '/settings/vendor' },
          ...crumbs,
          { label: title },
        ]}
      />
      <Grid>
        <Grid.Col span={{ base: 12, md: 3 }}>
          <Stack gap={2} component="nav" aria-label={t('settings.nav.label')} data-testid="settings-subnav">
            {LINKS.map((link) => (
              <NavLink
                key={link.to}
                component={Link}
                to={link.to}
                label={t(`settings.nav.${link.key}`)}
                active={pathname.startsWith(link.to.replace(/\/address$/, ''))}
                data-testid={`settings-subnav-${link.key}`}
              />
            ))}
          </Stack>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 9 }}>{children}</Grid.Col>
      </Grid>
    </>
  );
}
