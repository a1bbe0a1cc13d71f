import type { AvailableModel, ProviderModels } from '@llmor/contracts';
import { useDebouncedValue } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { type FormSchema, type FormValues, primaryType } from '../../../components/SchemaForm';
import { apiRequest } from '../../../lib/api/client';
import { LOCAL_ERROR } from '../../../lib/api/dataLayer';
import { modelKeys } from './keys';

/** Waits for typing to pause before asking the provider's server. */
const PROVIDER_MODELS_DEBOUNCE_MS = 400;

/**
 * POST /v1/vendors/{vendorId}/avamodels/{modelId}/provider-models {parameters} → the model names the
 * provider's server lists (docs/adr/0039-azure-bedrock-ollama-and-model-lists.md).
 */
function getProviderModels(
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
function listedField(schema: FormSchema): string | null {
  const found = Object.entries(schema.properties ?? {}).find(([, p]) => p['x-list-models'] === true);
  return found ? found[0] : null;
}

/**
 * What the list may need: the text parameters typed so far (else the schema's defaults), all but the listed
 * field itself — a base URL and key, Azure's resource, Bedrock's region and keys. The server takes what it uses.
 */
export function listInputs(schema: FormSchema, values: FormValues, field: string): Record<string, string> {
  const inputs: Record<string, string> = {};
  for (const [key, property] of Object.entries(schema.properties ?? {})) {
    if (key === field || primaryType(property) !== 'string') continue;
    const value = values[key] ?? property.default;
    if (typeof value === 'string' && value.trim()) inputs[key] = value.trim();
  }
  return inputs;
}

/** Whether the list can be asked: every required text field has a value, and every URL can be one. */
export function listReady(schema: FormSchema, inputs: Record<string, string>, field: string): boolean {
  const properties = schema.properties ?? {};
  const required = (schema.required ?? []).filter(
    (k) => k !== field && !!properties[k] && primaryType(properties[k]) === 'string',
  );
  return (
    required.every((k) => k in inputs) &&
    Object.entries(inputs).every(([k, v]) => properties[k]?.format !== 'uri' || /^https?:\/\/[^/]+/i.test(v))
  );
}

/**
 * The model list for the install form, from the parameters typed so far; asked once typing pauses and only
 * when what it needs is there. Failures are the form's to show.
 */
export function useProviderModels(
  vendorId: number,
  model: Pick<AvailableModel, 'id'> | null,
  schema: FormSchema | null,
  values: FormValues,
) {
  const field = schema ? listedField(schema) : null;
  const inputs = schema && field ? listInputs(schema, values, field) : {};
  const ready = !!schema && !!field && listReady(schema, inputs, field);
  // A string compares by value: the debounce restarts only when an input changes.
  const [asked] = useDebouncedValue(ready ? JSON.stringify(inputs) : '', PROVIDER_MODELS_DEBOUNCE_MS);
  const query = useQuery({
    queryKey: modelKeys.providerModels(vendorId, model?.id, asked),
    meta: LOCAL_ERROR,
    enabled: !!model && !!asked,
    queryFn: ({ signal }) =>
      getProviderModels(vendorId, model!.id, JSON.parse(asked) as Record<string, string>, signal),
    retry: false,
    staleTime: 30_000,
  });
  return { field, deployment: !!field && schema?.properties?.[field]?.['x-deployment'] === true, ...query };
}
