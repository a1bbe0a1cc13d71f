import { Anchor, Badge, Table } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ListFooter } from '../../../components/ListFooter';
import { ListTable } from '../../../components/ListTable';
import { LoadError } from '../../../components/LoadError';
import { useInvoices } from '../api/listInvoices';
import { formatMinor } from '../money';
import { formatPeriod } from './format';

const PAGE_SIZE = 20;
const STATUS_COLORS: Record<string, string> = {
  paid: 'green',
  open: 'blue',
  uncollectible: 'red',
  void: 'gray',
};

/** /settings/billing/invoices: newest first, amounts in the invoice's currency (minor units / 100). */
export default function InvoicesPage({ vendorId }: { vendorId: number }) {
  const { t, i18n } = useTranslation();
  const [page, setPage] = useState(0);
  const invoices = useInvoices(vendorId, { page, page_size: PAGE_SIZE });
  if (invoices.isError)
    return <LoadError error={invoices.error} onRetry={invoices.refetch} testId="billing-load-error" />;
  const rows = invoices.data?.data ?? [];
  return (
    <>
      <ListTable
        load={invoices}
        testIdPrefix="billing-invoices"
        minWidth={640}
        columns={5}
        loading={!invoices.data}
        loadingText={t('billing.invoices.loading')}
        empty={rows.length === 0}
        emptyText={t('billing.invoices.empty')}
        head={
          <>
            <Table.Th>{t('billing.invoices.number')}</Table.Th>
            <Table.Th>{t('billing.invoices.period')}</Table.Th>
            <Table.Th ta="right">{t('billing.invoices.amount')}</Table.Th>
            <Table.Th>{t('billing.invoices.status')}</Table.Th>
            <Table.Th>{t('billing.invoices.pdf')}</Table.Th>
          </>
        }
      >
        {rows.map((invoice) => (
          <Table.Tr key={invoice.id} data-testid="billing-invoice-row">
            <Table.Td>{invoice.number ?? '—'}</Table.Td>
            <Table.Td>{formatPeriod(invoice.period_start, invoice.period_end, i18n.language)}</Table.Td>
            <Table.Td ta="right" data-testid="billing-invoice-amount">
              {formatMinor(invoice.amount_minor, invoice.currency)}
            </Table.Td>
            <Table.Td>
              <Badge color={STATUS_COLORS[invoice.status] ?? 'gray'} variant="light">
                {invoice.status}
              </Badge>
            </Table.Td>
            <Table.Td>
              {invoice.pdf_url ? (
                <Anchor href={invoice.pdf_url} target="_blank" rel="noopener noreferrer">
                  {t('billing.invoices.download')}
                </Anchor>
              ) : null}
            </Table.Td>
          </Table.Tr>
        ))}
      </ListTable>
      <ListFooter page={page} pageSize={PAGE_SIZE} counts={invoices.data} onPageChange={setPage} />
    </>
  );
}
