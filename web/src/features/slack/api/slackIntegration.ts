import {
  type DataEnvelope,
  LOADING_BUTTON_MIN_MS,
  type SlackIntegration,
  type SlackIntegrationBody,
} from '@llmor/contracts';
import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api/client';
import { LOCAL_ERROR, useApiMutation } from '../../../lib/api/dataLayer';
import { withMinDuration } from '../../../lib/minDuration';

const path = (vendorId: number, appId: string) => `/v1/vendors/${vendorId}/apps/${appId}/integrations/slack`;

export const slackKeys = {
  integration: (vendorId: number, appId: string) => ['slack', vendorId, appId] as const,
};

/** GET …/apps/{appId}/integrations/slack → {data: SlackIntegration} (defaults when the app has none). */
export function getSlackIntegration(
  vendorId: number,
  appId: string,
): Promise<DataEnvelope<SlackIntegration>> {
  return apiRequest(path(vendorId, appId));
}

export const slackIntegrationQueryOptions = (vendorId: number, appId: string) =>
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

/**
 * Creates the Slack app (POST) or updates it (PUT): the generic form helper's create-then-update. The
 * button stays loading for at least LOADING_BUTTON_MIN_MS; the cached integration is replaced.
 */
export function useSaveSlackIntegration(vendorId: number, appId: string) {
  const client = useQueryClient();
  return useApiMutation({
    meta: LOCAL_ERROR,
    mutationFn: ({ create, body }: { create: boolean; body: SlackIntegrationBody }, signal) =>
      withMinDuration(
        apiRequest<DataEnvelope<SlackIntegration>>(path(vendorId, appId), {
          signal,
          method: create ? 'POST' : 'PUT',
          body,
        }),
        LOADING_BUTTON_MIN_MS,
      ),
    onSuccess: (answer) => client.setQueryData(slackKeys.integration(vendorId, appId), answer),
  });
}
