import type { AvailableModel, ProviderModels } from '@llmor/contracts';
import { useDebouncedValue } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import type { FormSchema, FormValues } from '../../../components/SchemaForm';
import { apiRequest } from '../../../lib/api/client';
import { LOCAL_ERROR } from '../../../lib/api/dataLayer';
import { modelKeys } from './keys';

/** Waits for typing to pause before asking the provider's server. */
export const PROVIDER_MODELS_DEBOUNCE_MS = 400;

/**
 * POST /v1/vendors/{vendorId}/avamodels/{modelId}/provider-models {parameters} → the model names the
 * provider's server lists (docs/adr/0039-azure-bedrock-ollama-and-model-lists.md).
 */
export function getProviderModels(
  vendorId: number,
  modelId: string,
  parameters: Record<string, unknown>,
  signal?: AbortSignal,
): Promise<ProviderModels> {
  return apiRequest<ProviderModels>(
    `/v1/vendors/${vendorId}/avamodels/${encodeURIComponent(modelId)}/provider-models`,
    { method: 'POST', body: { parameters }, signal },
  );
}

/** The field of a schema that the provider's list fills (`"x-list-models": true`), if any. */
export function listedField(schema: FormSchema): string | null {
  const found = Object.entries(schema.properties ?? {}).find(([, p]) => p['x-list-models'] === true);
  return found ? found[0] : null;
}

/**
 * The model list for the install form, from the base URL (typed, else the schema's default) and key typed so
 * far; asked once typing pauses and only for a URL that can be one. Failures are the form's to show.
 */
export function useProviderModels(
  vendorId: number,
  model: Pick<AvailableModel, 'id'> | null,
  schema: FormSchema | null,
  values: FormValues,
) {
  const field = schema ? listedField(schema) : null;
  const typed = values.base_url ?? schema?.properties?.base_url?.default;
  const baseUrl = typeof typed === 'string' ? typed.trim() : '';
  const apiKey = typeof values.api_key === 'string' ? values.api_key : '';
  const [askedUrl] = useDebouncedValue(baseUrl, PROVIDER_MODELS_DEBOUNCE_MS);
  const [askedKey] = useDebouncedValue(apiKey, PROVIDER_MODELS_DEBOUNCE_MS);
  const query = useQuery({
    queryKey: [...modelKeys.available(vendorId), 'provider-models', model?.id, askedUrl, askedKey],
    meta: LOCAL_ERROR,
    enabled: !!model && !!field && /^https?:\/\/[^/]+/i.test(askedUrl),
    queryFn: ({ signal }) =>
      getProviderModels(
        vendorId,
        model!.id,
        { base_url: askedUrl, ...(askedKey ? { api_key: askedKey } : {}) },
        signal,
      ),
    retry: false,
    staleTime: 30_000,
  });
  return { field, ...query };
}
