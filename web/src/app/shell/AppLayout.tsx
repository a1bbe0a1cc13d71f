import { Anchor, AppShell, Box, Burger, Group, Stack, Text } from '@mantine/core';
import { useDisclosure, useHotkeys, useMediaQuery } from '@mantine/hooks';
import { IconHexagonLetterL } from '@tabler/icons-react';
import { Suspense, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Outlet, useLocation } from 'react-router';
import { ErrorBanners } from '../../components/ErrorBanners';
import { UnsavedChangesProvider } from '../../components/UnsavedChanges';
import { useAppState } from '../../lib/appState';
import { Navigation } from './Navigation';
import { PageLoader } from './PageLoader';
import { UserMenu } from './UserMenu';
import { VendorSwitcher } from './VendorSwitcher';

function Logo() {
  const { t } = useTranslation();
  return (
    <Anchor
      component={Link}
      to="/"
      underline="never"
      c="inherit"
      data-testid="logo-link"
      aria-label={t('nav.dashboard')}
    >
      <Group gap={6} wrap="nowrap">
        <IconHexagonLetterL size={28} stroke={1.5} color="var(--mantine-color-blue-6)" />
        <Text fw={700} size="lg">
          {t('app.name')}
        </Text>
      </Group>
    </Anchor>
  );
}

/** The signed-in shell, inside the unsaved-changes guard (the header's vendor switcher asks through it too). */
export function AppLayout() {
  return (
    <UnsavedChangesProvider>
      <Shell />
    </UnsavedChangesProvider>
  );
}

/** Header, sidebar (drawer on small screens), error banners, content, footer. */
function Shell() {
  const { t } = useTranslation();
  const { user, vendor } = useAppState();
  const [opened, { toggle, close }] = useDisclosure(false);
  const isDesktop = useMediaQuery('(min-width: 48em)', true, { getInitialValueInEffect: false });
  const { pathname } = useLocation();

  // The drawer closes with Escape, as a dialog does.
  useHotkeys([['Escape', close]]);

  // Close the drawer when the route changes.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on navigation only
  useEffect(() => close(), [pathname]);

  return (
    <AppShell
      header={{ height: 56 }}
      navbar={{ width: 260, breakpoint: 'sm', collapsed: { mobile: !opened } }}
      padding="md"
    >
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          {isDesktop ? (
            <>
              <Logo />
              <VendorSwitcher />
            </>
          ) : (
            <>
              <Group gap="sm" wrap="nowrap" style={{ minWidth: 0 }}>
                <Burger
                  opened={opened}
                  onClick={toggle}
                  size="sm"
                  aria-label={t('nav.toggle')}
                  data-testid="nav-burger"
                />
                <Box style={{ minWidth: 0 }} data-testid="mobile-top-bar">
                  <Text size="sm" fw={600} truncate data-testid="mobile-org-name">
                    {vendor?.name ?? t('org.none')}
                  </Text>
                  <Text size="xs" c="dimmed" truncate data-testid="mobile-user-email">
                    {user?.email}
                  </Text>
                </Box>
              </Group>
              <IconHexagonLetterL size={26} stroke={1.5} color="var(--mantine-color-blue-6)" aria-hidden />
            </>
          )}
        </Group>
      </AppShell.Header>

      <AppShell.Navbar p="sm" data-testid="sidebar">
        {!isDesktop && (
          <AppShell.Section mb="sm">
            <VendorSwitcher fullWidth />
          </AppShell.Section>
        )}
        {/* Scrolls natively (Mantine's ScrollArea would add ~7 KB to the first screen for a few links). */}
        <AppShell.Section grow style={{ overflowY: 'auto', minHeight: 0 }}>
          <Navigation onNavigate={close} />
        </AppShell.Section>
        <AppShell.Section pt="sm" style={{ borderTop: '1px solid var(--mantine-color-default-border)' }}>
          <UserMenu />
        </AppShell.Section>
      </AppShell.Navbar>

      <AppShell.Main>
        <Stack mih="calc(100dvh - 56px - 2 * var(--mantine-spacing-md))" justify="space-between" gap="lg">
          <Box>
            <ErrorBanners />
            <Suspense fallback={<PageLoader />}>
              <Outlet />
            </Suspense>
          </Box>
          <Text component="footer" size="xs" c="dimmed" ta="center" data-testid="footer">
            {t('footer.poweredBy', { year: new Date().getFullYear() })}
          </Text>
        </Stack>
      </AppShell.Main>
    </AppShell>
  );
}
