import {
  type DataEnvelope,
  ErrorCode,
  type InstalledModelDetail,
  LOADING_BUTTON_MIN_MS,
  type ParameterSchema,
} from '@llmor/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api/client';
import { LOCAL_ERROR, useApiMutation } from '../../../lib/api/dataLayer';
import { ApiError } from '../../../lib/api/error';
import { withMinDuration } from '../../../lib/minDuration';
import { modelKeys } from './keys';

export interface InstallModelInput {
  vendorId: number;
  /** Catalogue id, e.g. `builtin-offline-demo`. */
  modelId: string;
  parameters: Record<string, unknown>;
}

/**
 * POST /v1/vendors/{vendorId}/avamodels/{modelId}/install {parameters} → 201 {data: installed model}.
 * Invalid parameters → 400 code 52 with the schema to re-render (see `parameterValidationSchema`).
 */
function installModel({ vendorId, modelId, parameters }: InstallModelInput, signal?: AbortSignal) {
  return apiRequest<DataEnvelope<InstalledModelDetail>>(
    `/v1/vendors/${vendorId}/avamodels/${encodeURIComponent(modelId)}/install`,
    { method: 'POST', body: { parameters }, signal },
  );
}

/** The replacement schema of a code-52 answer (docs/reference/console.md), or null for any other error. */
export function parameterValidationSchema(error: unknown): ParameterSchema | null {
  if (!(error instanceof ApiError) || error.status !== 400) return null;
  if (error.body?.code !== ErrorCode.MODEL_PARAMETER_VALIDATION_FAILED) return null;
  const parameters = (error.body.errors as { parameters?: unknown } | undefined)?.parameters;
  if (!parameters || typeof parameters !== 'object') return null;
  const schema = parameters as ParameterSchema;
  return schema.properties && typeof schema.properties === 'object' ? schema : null;
}

/** Install with the loading state shown at least 400 ms (docs/reference/console.md); on success the models list reloads. */
export function useInstallModel() {
  const queryClient = useQueryClient();
  return useApiMutation({
    meta: LOCAL_ERROR,
    mutationKey: ['models', 'install'],
    mutationFn: (input: InstallModelInput, signal) =>
      withMinDuration(installModel(input, signal), LOADING_BUTTON_MIN_MS),
    onSuccess: (_data, input) => queryClient.invalidateQueries({ queryKey: modelKeys.all(input.vendorId) }),
  });
}
