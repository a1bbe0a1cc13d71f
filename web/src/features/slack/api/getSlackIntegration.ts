import type { DataEnvelope, SlackIntegration } from '@llmor/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api/client';
import { LOCAL_ERROR } from '../../../lib/api/dataLayer';
import { slackKeys, slackPath } from './keys';

/** GET …/apps/{appId}/integrations/slack → {data: SlackIntegration} (defaults when the app has none). */
function getSlackIntegration(vendorId: number, appId: string): Promise<DataEnvelope<SlackIntegration>> {
  return apiRequest(slackPath(vendorId, appId));
}

const slackIntegrationQueryOptions = (vendorId: number, appId: string) =>
  queryOptions({
    queryKey: slackKeys.integration(vendorId, appId),
    meta: LOCAL_ERROR,
    queryFn: () => getSlackIntegration(vendorId, appId),
    select: (r) => r.data,
    // Coming back from Slack's install page must show the workspace at once.
    staleTime: 0,
    refetchOnWindowFocus: true,
  });

export function useSlackIntegration(vendorId: number, appId: string) {
  return useQuery(slackIntegrationQueryOptions(vendorId, appId));
}
