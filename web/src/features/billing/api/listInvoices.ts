import type { Invoice, InvoicesQuery, ListEnvelope } from '@llmor/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api/client';
import { LOCAL_ERROR } from '../../../lib/api/dataLayer';
import { listQuery } from '../../../lib/api/query';
import { billingKeys, billingPath } from './keys';

/** GET /v1/vendors/{vendorId}/billing/invoices: sorted, paged. */
function listInvoices(vendorId: number, query: InvoicesQuery): Promise<ListEnvelope<Invoice>> {
  return apiRequest<ListEnvelope<Invoice>>(`${billingPath(vendorId)}/invoices`, {
    query: listQuery(query),
  });
}

const invoicesQueryOptions = (vendorId: number, query: InvoicesQuery) =>
  queryOptions({
    queryKey: billingKeys.invoices(vendorId, query),
    meta: LOCAL_ERROR,
    queryFn: () => listInvoices(vendorId, query),
    placeholderData: keepPreviousData,
  });

export function useInvoices(vendorId: number, query: InvoicesQuery) {
  return useQuery(invoicesQueryOptions(vendorId, query));
}
