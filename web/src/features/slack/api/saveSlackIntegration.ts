import {
  type DataEnvelope,
  LOADING_BUTTON_MIN_MS,
  type SlackIntegration,
  type SlackIntegrationBody,
} from '@llmor/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api/client';
import { LOCAL_ERROR, useApiMutation } from '../../../lib/api/dataLayer';
import { withMinDuration } from '../../../lib/minDuration';
import { slackKeys, slackPath } from './keys';

/** Creates the Slack app (POST) or updates it (PUT): the generic form helper's create-then-update. */
function saveSlackIntegration(
  vendorId: number,
  appId: string,
  create: boolean,
  body: SlackIntegrationBody,
  signal?: AbortSignal,
): Promise<DataEnvelope<SlackIntegration>> {
  return apiRequest<DataEnvelope<SlackIntegration>>(slackPath(vendorId, appId), {
    signal,
    method: create ? 'POST' : 'PUT',
    body,
  });
}

/** The button stays loading for at least LOADING_BUTTON_MIN_MS; the cached integration is replaced. */
export function useSaveSlackIntegration(vendorId: number, appId: string) {
  const client = useQueryClient();
  return useApiMutation({
    meta: LOCAL_ERROR,
    mutationFn: ({ create, body }: { create: boolean; body: SlackIntegrationBody }, signal) =>
      withMinDuration(saveSlackIntegration(vendorId, appId, create, body, signal), LOADING_BUTTON_MIN_MS),
    onSuccess: (answer) => client.setQueryData(slackKeys.integration(vendorId, appId), answer),
  });
}
