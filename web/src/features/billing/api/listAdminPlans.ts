import type { AdminPlan, ListEnvelope, PlansQuery } from '@llmor/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api/client';
import { LOCAL_ERROR } from '../../../lib/api/dataLayer';
import { listQuery } from '../../../lib/api/query';
import { adminBillingKeys } from './keys';

/** GET /v1/admin/plans (superusers): sorted, paged. */
function listAdminPlans(query: PlansQuery): Promise<ListEnvelope<AdminPlan>> {
  return apiRequest<ListEnvelope<AdminPlan>>('/v1/admin/plans', {
    query: listQuery(query),
  });
}

const adminPlansQueryOptions = (query: PlansQuery) =>
  queryOptions({
    queryKey: adminBillingKeys.planList(query),
    meta: LOCAL_ERROR,
    queryFn: () => listAdminPlans(query),
    placeholderData: keepPreviousData,
  });

export function useAdminPlans(query: PlansQuery) {
  return useQuery(adminPlansQueryOptions(query));
}
