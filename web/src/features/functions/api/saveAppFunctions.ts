import { type App, type AppResponse, LOADING_BUTTON_MIN_MS } from '@llmor/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api/client';
import { LOCAL_ERROR, useApiMutation } from '../../../lib/api/dataLayer';
import { appDetailKey } from '../../../lib/entities/apps';
import { withMinDuration } from '../../../lib/minDuration';
import { functionKeys } from './keys';

export interface InstalledFunctionInput {
  id: number;
  config: Record<string, unknown>;
}

/**
 * PUT /v1/vendors/{vendorId}/apps/{appId}?resolve=functions with the app's current name, description,
 * completion model and parameters (the body requires `name`) and `functions: [{id, config}]` (replaces the
 * installed functions, order kept). Errors: `functions.functions_data`, `function_config.<id>`.
 */
function saveAppFunctions(
  vendorId: number,
  app: App,
  functions: InstalledFunctionInput[],
  signal?: AbortSignal,
): Promise<AppResponse> {
  return apiRequest<AppResponse>(`/v1/vendors/${vendorId}/apps/${app.id}`, {
    signal,
    method: 'PUT',
    query: { resolve: 'functions' },
    body: {
      name: app.name,
      description: app.description ?? '',
      completion_vendor_model_id: app.completion_vendor_model_id,
      parameters: app.parameters,
      functions,
    },
  });
}

export function useSaveAppFunctions(vendorId: number, appId: string) {
  const client = useQueryClient();
  return useApiMutation({
    meta: LOCAL_ERROR,
    mutationKey: ['functions', vendorId, 'app-save', appId],
    mutationFn: ({ app, functions }: { app: App; functions: InstalledFunctionInput[] }, signal) =>
      withMinDuration(saveAppFunctions(vendorId, app, functions, signal), LOADING_BUTTON_MIN_MS),
    onSuccess: (response) => {
      client.setQueryData(functionKeys.app(vendorId, appId), response);
      // The app page's own cache shows modified_at.
      void client.invalidateQueries({ queryKey: appDetailKey(vendorId, appId) });
    },
  });
}
