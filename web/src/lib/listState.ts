import { useDebouncedValue } from '@mantine/hooks';
import { useEffect, useState } from 'react';

/** docs/reference/console.md: a failed list fetch is only logged. */
export function useLogError(error: unknown, message: string): void {
  useEffect(() => {
    if (error) console.error(message, error);
  }, [error, message]);
}

/** A page that emptied (rows removed elsewhere) moves back to the last page that has rows. */
export function useClampPage(
  data: { filter_count: number } | undefined,
  isPlaceholderData: boolean,
  page: number,
  pageSize: number,
  setPage: (page: number) => void,
): void {
  const lastPage = data ? Math.max(0, Math.ceil(data.filter_count / pageSize) - 1) : 0;
  useEffect(() => {
    if (data && !isPlaceholderData && page > lastPage) setPage(lastPage);
  }, [data, isPlaceholderData, page, lastPage, setPage]);
}

const SEARCH_DEBOUNCE_MS = 250;

/** A search box's text and its trimmed, debounced value (what a list query uses). */
export function useDebouncedSearch() {
  const [search, setSearch] = useState('');
  const [debouncedSearch] = useDebouncedValue(search.trim(), SEARCH_DEBOUNCE_MS);
  return { search, setSearch, debouncedSearch };
}
