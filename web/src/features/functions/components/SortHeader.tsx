import { Group, Table, Text, UnstyledButton } from '@mantine/core';
import { IconArrowDown, IconArrowsSort, IconArrowUp } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

export interface Sort<C extends string> {
  column: C;
  dir: 'asc' | 'desc';
}

/** Clicking a header: another column → ascending; the sorted column → the other direction. */
export function nextSort<C extends string>(current: Sort<C> | null, column: C): Sort<C> {
  if (!current || current.column !== column) return { column, dir: 'asc' };
  return { column, dir: current.dir === 'asc' ? 'desc' : 'asc' };
}

export function SortHeader<C extends string>({
  column,
  sort,
  onSort,
  testIdPrefix,
  children,
}: {
  column: C;
  sort: Sort<C> | null;
  onSort(column: C): void;
  testIdPrefix: string;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  const dir = sort?.column === column ? sort.dir : null;
  const Icon = dir === 'asc' ? IconArrowUp : dir === 'desc' ? IconArrowDown : IconArrowsSort;
  return (
    <Table.Th aria-sort={dir === 'asc' ? 'ascending' : dir === 'desc' ? 'descending' : 'none'}>
      <UnstyledButton
        onClick={() => onSort(column)}
        data-testid={`${testIdPrefix}-${column}`}
        data-sort={dir ?? 'none'}
        title={t(`functions.sort.${dir ?? 'none'}`)}
      >
        <Group gap={4} wrap="nowrap">
          <Text fw={700} size="sm">
            {children}
          </Text>
          <Icon size={14} stroke={1.5} />
        </Group>
      </UnstyledButton>
    </Table.Th>
  );
}
