import { Card, Table, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { LoadError } from './LoadError';
import { LoadingState } from './LoadingState';

export interface ListTableProps {
  /**
   * Test ids: `<prefix>-table` (with `data-loading`), `<prefix>-loading`, `<prefix>-empty`,
   * `<prefix>-load-error` (with `<prefix>-load-error-retry`).
   */
  testIdPrefix: string;
  minWidth: number;
  /** Number of columns (the loading and empty rows span them all). */
  columns: number;
  /** The header cells. */
  head: ReactNode;
  /** The list's query: a failed load shows its error with Try again, never an empty list. */
  load: { error: unknown; refetch: () => unknown };
  loading: boolean;
  loadingText: string;
  empty: boolean;
  emptyText: string;
  /** The rows, shown when neither loading nor empty. */
  children: ReactNode;
}

/** A list's table in a card: header, then a loading row, the load's error, an empty row or the rows. */
export function ListTable({
  testIdPrefix,
  minWidth,
  columns,
  head,
  load,
  loading,
  loadingText,
  empty,
  emptyText,
  children,
}: ListTableProps) {
  return (
    <Card withBorder padding={0} radius="md">
      <Table.ScrollContainer minWidth={minWidth}>
        <Table
          verticalSpacing="sm"
          highlightOnHover
          data-testid={`${testIdPrefix}-table`}
          data-loading={String(loading)}
        >
          <Table.Thead>
            <Table.Tr>{head}</Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {load.error ? (
              <Table.Tr>
                <Table.Td colSpan={columns} p="md">
                  <LoadError
                    error={load.error}
                    onRetry={load.refetch}
                    testId={`${testIdPrefix}-load-error`}
                  />
                </Table.Td>
              </Table.Tr>
            ) : loading ? (
              <Table.Tr>
                <Table.Td colSpan={columns}>
                  <LoadingState text={loadingText} testId={`${testIdPrefix}-loading`} />
                </Table.Td>
              </Table.Tr>
            ) : empty ? (
              <Table.Tr>
                <Table.Td colSpan={columns}>
                  <Text ta="center" c="dimmed" py="lg" data-testid={`${testIdPrefix}-empty`}>
                    {emptyText}
                  </Text>
                </Table.Td>
              </Table.Tr>
            ) : (
              children
            )}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Card>
  );
}
