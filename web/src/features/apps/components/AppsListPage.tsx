import { APP_TYPES, type AppType, PAGE_SIZE_DEFAULT } from '@llmor/contracts';
import {
  Badge,
  Box,
  Button,
  Card,
  Checkbox,
  CloseButton,
  Group,
  Menu,
  Paper,
  Select,
  SimpleGrid,
  Skeleton,
  Stack,
  Text,
} from '@mantine/core';
import { useDebouncedValue, useDisclosure } from '@mantine/hooks';
import { IconApps, IconFilter, IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ListFooter } from '../../../components/ListFooter';
import { LoadError } from '../../../components/LoadError';
import { PageHeader } from '../../../components/PageHeader';
import { SearchInput } from '../../../components/SearchInput';
import { useCurrentVendor } from '../../../lib/appState';
import { useAppsList } from '../api/listApps';
import { DEFAULT_SORT, type Filters, SORT_OPTIONS, sortOption, toggleFilterOption } from '../lib';
import '../i18n';
import { AppCard } from './AppCard';
import { InstallAppDialog } from './InstallAppDialog';

const PAGE_SIZE = PAGE_SIZE_DEFAULT;
const SEARCH_DEBOUNCE_MS = 250;
const TYPE_FILTER = 'app_type';

/** /apps: search, type filter, sort, card grid, footer and pager, install dialog (docs/reference/console.md Apps list). */
export function AppsListPage() {
  const { t } = useTranslation();
  const vendor = useCurrentVendor();
  const [search, setSearch] = useState('');
  const [debouncedSearch] = useDebouncedValue(search, SEARCH_DEBOUNCE_MS);
  const [filters, setFilters] = useState<Filters>({});
  const [sort, setSort] = useState(DEFAULT_SORT);
  const [page, setPage] = useState(0);
  const [installOpened, install] = useDisclosure(false);

  const chosenSort = sortOption(sort);
  const appTypes = (filters[TYPE_FILTER] ?? []) as AppType[];
  const list = useAppsList(vendor?.id ?? 0, {
    search: debouncedSearch,
    appTypes,
    order: chosenSort.order,
    orderDir: chosenSort.direction,
    page,
    pageSize: PAGE_SIZE,
  });

  const typeLabel = (type: AppType) => t(`apps.types.${type}`);
  const onToggleType = (type: string) => {
    setFilters((f) => toggleFilterOption(f, TYPE_FILTER, type));
    setPage(0);
  };

  const data = list.data;
  const apps = data?.data ?? [];

  return (
    <>
      <PageHeader
        title={t('pages.apps.title')}
        subtitle={t('pages.apps.subtitle')}
        breadcrumbs={[{ label: t('pages.apps.title') }]}
        actions={
          <Button
            leftSection={<IconPlus size={16} />}
            onClick={install.open}
            data-testid="apps-install-button"
          >
            {t('apps.list.install')}
          </Button>
        }
      />

      <Paper withBorder p="sm" radius="md" mb="md" data-testid="apps-toolbar">
        <Group gap="sm" align="flex-end" wrap="wrap">
          <SearchInput
            style={{ flex: '1 1 240px' }}
            placeholder={t('apps.list.searchPlaceholder')}
            label={t('apps.list.searchLabel')}
            value={search}
            onSearch={(text) => {
              setSearch(text);
              setPage(0);
            }}
            testId="apps-search"
          />
          <Menu closeOnItemClick={false} position="bottom-end" withinPortal>
            <Menu.Target>
              <Button
                variant={appTypes.length > 0 ? 'light' : 'default'}
                leftSection={<IconFilter size={16} />}
                data-testid="apps-filter-button"
              >
                {t('apps.list.filter')}
                {appTypes.length > 0 ? ` (${appTypes.length})` : ''}
              </Button>
            </Menu.Target>
            <Menu.Dropdown data-testid="apps-filter-menu">
              <Menu.Label>{t('apps.list.filterAppType')}</Menu.Label>
              {APP_TYPES.map((type) => (
                <Menu.Item
                  key={type}
                  onClick={() => onToggleType(type)}
                  leftSection={
                    <Checkbox
                      checked={appTypes.includes(type)}
                      readOnly
                      size="xs"
                      tabIndex={-1}
                      aria-hidden
                      style={{ pointerEvents: 'none' }}
                    />
                  }
                  role="menuitemcheckbox"
                  aria-checked={appTypes.includes(type)}
                  data-testid={`apps-filter-option-${type}`}
                >
                  {typeLabel(type)}
                </Menu.Item>
              ))}
            </Menu.Dropdown>
          </Menu>
          <Select
            w={200}
            aria-label={t('apps.list.sortLabel')}
            data={SORT_OPTIONS.map((o) => ({ value: o.value, label: t(`apps.list.sortOptions.${o.label}`) }))}
            value={sort}
            allowDeselect={false}
            onChange={(v) => {
              if (v) setSort(v);
              setPage(0);
            }}
            data-testid="apps-sort"
            comboboxProps={{ withinPortal: true }}
          />
        </Group>
        {appTypes.length > 0 && (
          <Group gap={6} mt="sm" data-testid="apps-active-filters">
            <Text size="xs" c="dimmed">
              {t('apps.list.filterAppType')}:
            </Text>
            {appTypes.map((type) => (
              <Badge
                key={type}
                variant="light"
                tt="none"
                pr={2}
                rightSection={
                  <CloseButton
                    size="xs"
                    variant="transparent"
                    onClick={() => onToggleType(type)}
                    aria-label={t('apps.list.removeFilterOption', { label: typeLabel(type) })}
                    data-testid={`apps-filter-pill-${type}-remove`}
                  />
                }
                data-testid={`apps-filter-pill-${type}`}
              >
                {typeLabel(type)}
              </Badge>
            ))}
          </Group>
        )}
      </Paper>

      {list.isPending ? (
        <SimpleGrid
          cols={{ base: 1, sm: 2, lg: 3 }}
          data-testid="apps-loading"
          aria-label={t('apps.list.loading')}
        >
          {[0, 1, 2].map((i) => (
            <Card key={i} withBorder padding="lg" radius="md">
              <Skeleton height={38} width={38} mb="sm" />
              <Skeleton height={14} width="60%" mb={8} />
              <Skeleton height={10} mb={6} />
              <Skeleton height={10} width="80%" />
            </Card>
          ))}
        </SimpleGrid>
      ) : list.isError && !data ? (
        // A failed fetch is not an empty list: say so and offer to try again.
        <LoadError
          error={list.error}
          onRetry={list.refetch}
          testId="apps-load-error"
          title={t('apps.list.loadFailed')}
        />
      ) : apps.length === 0 ? (
        <Paper withBorder p="xl" radius="md" data-testid="apps-empty">
          <Stack align="center" gap="xs">
            <IconApps size={32} stroke={1.5} color="var(--mantine-color-dimmed)" />
            <Text fw={600}>{t('apps.list.empty')}</Text>
            <Text size="sm" c="dimmed">
              {(data?.total_count ?? 0) === 0 ? t('apps.list.emptyNone') : t('apps.list.emptyFiltered')}
            </Text>
          </Stack>
        </Paper>
      ) : (
        <Box style={{ opacity: list.isPlaceholderData ? 0.6 : 1, transition: 'opacity 120ms' }}>
          <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} data-testid="apps-grid" aria-busy={list.isFetching}>
            {apps.map((app) => (
              <AppCard key={app.id} app={app} />
            ))}
          </SimpleGrid>
        </Box>
      )}

      <ListFooter page={page} pageSize={PAGE_SIZE} counts={data} onPageChange={setPage} />

      {vendor && <InstallAppDialog vendorId={vendor.id} opened={installOpened} onClose={install.close} />}
    </>
  );
}
