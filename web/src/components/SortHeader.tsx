import { Group, Table, Text, UnstyledButton } from '@mantine/core';
import { IconArrowDown, IconArrowsSort, IconArrowUp } from '@tabler/icons-react';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { KeyPrefix } from '../lib/textKeys';

export interface Sort<C extends string> {
  column: C;
  dir: 'asc' | 'desc';
}

/** Clicking a header: another column → ascending; the sorted column → the other direction. */
function nextSort<C extends string>(current: Sort<C> | null, column: C): Sort<C> {
  if (!current || current.column !== column) return { column, dir: 'asc' };
  return { column, dir: current.dir === 'asc' ? 'desc' : 'asc' };
}

/** A table's sort state (`Sort<C>`, or `Sort<C> | null` for "not sorted") and the handler its headers call. */
export function useSort<S extends Sort<string> | null>(initial: S) {
  const [sort, setSort] = useState<S>(initial);
  const onSort = (column: NonNullable<S>['column']) => setSort(nextSort(sort, column) as S);
  return [sort, onSort] as const;
}

/**
 * A sortable column header: a button with the sort direction's icon, `aria-sort` on the cell,
 * `data-testid="<testIdPrefix>-<column>"` and `data-sort` on the button. Its tooltip is the text
 * `<titleKeyPrefix>.none|asc|desc`.
 */
export function SortHeader<C extends string>({
  column,
  sort,
  onSort,
  testIdPrefix,
  titleKeyPrefix,
  children,
}: {
  column: C;
  sort: Sort<C> | null;
  onSort(column: C): void;
  testIdPrefix: string;
  titleKeyPrefix: KeyPrefix<'asc'> & KeyPrefix<'desc'> & KeyPrefix<'none'>;
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
        title={t(`${titleKeyPrefix}.${dir ?? 'none'}`)}
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
