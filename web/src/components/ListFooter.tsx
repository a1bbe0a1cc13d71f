import { Group, Pagination, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';

export interface ListFooterProps {
  /** Zero-based page index, as the API takes it. */
  page: number;
  pageSize: number;
  /** Entries matching the current search and filters (`filter_count`). */
  filtered: number;
  /** Entries before search and filters (`total_count`). */
  total: number;
  onPageChange(page: number): void;
}

/** 'Showing X - Y of N entries (filtered from M total entries)' and the pager (spec 01, Apps list). */
export function ListFooter({ page, pageSize, filtered, total, onPageChange }: ListFooterProps) {
  const { t } = useTranslation();
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
