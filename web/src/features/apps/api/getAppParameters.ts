import type { AppParametersResponse } from '@llmor/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api/client';
import { LOCAL_ERROR } from '../../../lib/api/dataLayer';
import { appKeys } from './keys';

/** GET /v1/vendors/{vendorId}/apps/{appId}/parameters → {data: ParameterDefinition[]}. */
function getAppParameters(vendorId: number, appId: number | string): Promise<AppParametersResponse> {
  return apiRequest<AppParametersResponse>(
    `/v1/vendors/${vendorId}/apps/${encodeURIComponent(String(appId))}/parameters`,
  );
}

const appParametersQueryOptions = (vendorId: number, appId: number | string) =>
  queryOptions({
    queryKey: appKeys.parameters(vendorId, appId),
    meta: LOCAL_ERROR,
    queryFn: () => getAppParameters(vendorId, appId),
    select: (r) => r.data,
  });

export function useAppParameters(vendorId: number, appId: number | string) {
  return useQuery(appParametersQueryOptions(vendorId, appId));
}
