import { Box, Group, NavLink, Select, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';

/** The settings sections of an app page; `client` and `embed` are the detail pages of clients and embeds. */
export type AppSettingsSection =
  | 'details'
  | 'parameters'
  | 'functions'
  | 'usage'
  | 'datastores'
  | 'clients'
  | 'client'
  | 'embeds'
  | 'embed'
  | 'slack';

type NavKey = Exclude<AppSettingsSection, 'client' | 'embed'>;

interface NavGroup {
  label: 'groupApp' | 'groupIntegrations' | 'groupSecurity';
  items: { key: NavKey; path: string }[];
}

/** Settings sidebar groups (docs/reference/console.md App page, docs/reference/console.md). */
const SETTINGS_NAV: readonly NavGroup[] = [
  {
    label: 'groupApp',
    items: [
      { key: 'details', path: 'details' },
      { key: 'parameters', path: 'parameters' },
      { key: 'functions', path: 'functions' },
      { key: 'usage', path: 'usage' },
      { key: 'datastores', path: 'datastores' },
    ],
  },
  { label: 'groupIntegrations', items: [{ key: 'slack', path: 'integrations/slack' }] },
  {
    label: 'groupSecurity',
    items: [
      { key: 'clients', path: 'clients' },
      { key: 'embeds', path: 'embeds' },
    ],
  },
];

const navKeyOf = (section: AppSettingsSection): NavKey =>
  section === 'client' ? 'clients' : section === 'embed' ? 'embeds' : section;

/** Sidebar (md and wider) or a select (small screens) beside the settings section. */
export function AppSettingsLayout({
  section,
  children,
}: {
  section: AppSettingsSection;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const active = navKeyOf(section);
  const base = `/apps/${id}/settings`;
  const activePath = SETTINGS_NAV.flatMap((g) => g.items).find((i) => i.key === active)?.path ?? 'details';

  return (
    <Group align="flex-start" gap="xl" wrap="nowrap">
      <Box
        component="nav"
        w={230}
        visibleFrom="md"
        aria-label={t('apps.page.settingsNav')}
        data-testid="settings-nav"
        style={{ flexShrink: 0 }}
      >
        <Stack gap="md">
          {SETTINGS_NAV.map((group) => (
            <div key={group.label}>
              <Text size="xs" fw={700} c="dimmed" tt="uppercase" mb={4} px="sm">
                {t(`apps.page.${group.label}`)}
              </Text>
              {group.items.map((item) => (
                <NavLink
                  key={item.key}
                  component={Link}
                  to={`${base}/${item.path}`}
                  label={t(`pages.app.${item.key}`)}
                  active={item.key === active}
                  aria-current={item.key === active ? 'page' : undefined}
                  data-testid={`settings-nav-${item.key}`}
                />
              ))}
            </div>
          ))}
        </Stack>
      </Box>
      <Box style={{ flex: 1, minWidth: 0 }}>
        <Select
          hiddenFrom="md"
          mb="md"
          aria-label={t('apps.page.settingsNav')}
          data={SETTINGS_NAV.map((group) => ({
            group: t(`apps.page.${group.label}`),
            items: group.items.map((item) => ({ value: item.path, label: t(`pages.app.${item.key}`) })),
          }))}
          value={activePath}
          allowDeselect={false}
          onChange={(path) => path && navigate(`${base}/${path}`)}
          data-testid="settings-nav-select"
        />
        {children}
      </Box>
    </Group>
  );
}
