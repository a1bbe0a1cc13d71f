import { Group, Pagination, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';

export interface ListFooterProps {
  /** Zero-based page index, as the API takes it. */
  page: number;
  pageSize: number;
  /**
   * The list answer's counts: `filter_count` (entries matching the current search and filters) and
   * `total_count` (entries before search and filters). Nothing is shown until they are known.
   */
  counts: { filter_count: number; total_count: number } | undefined;
  onPageChange(page: number): void;
}

/** 'Showing X - Y of N entries (filtered from M total entries)' and the pager (docs/reference/console.md, Apps list). */
export function ListFooter({ page, pageSize, counts, onPageChange }: ListFooterProps) {
  const { t } = useTranslation();
  if (!counts) return null;
  const { filter_count: filtered, total_count: total } = counts;
  const pages = Math.max(1, Math.ceil(filtered / pageSize));
  const from = filtered === 0 ? 0 : page * pageSize + 1;
  const to = Math.min(filtered, (page + 1) * pageSize);
  return (
    <Group justify="space-between" mt="md" data-testid="list-footer">
      <Text size="sm" c="dimmed" data-testid="list-footer-text">
        {filtered === 0 && total === 0
          ? t('common.listEmpty')
          : t('common.listShowing', { from, to, total: filtered })}
        {filtered !== total ? ` ${t('common.listFiltered', { all: total })}` : ''}
      </Text>
      <Pagination total={pages} value={page + 1} onChange={(p) => onPageChange(p - 1)} size="sm" withEdges />
    </Group>
  );
}
