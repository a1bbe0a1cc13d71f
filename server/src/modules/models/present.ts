import type {
  AvailableModel,
  InstalledModel,
  InstalledModelDetail,
  ModelProvider,
  ModelType,
  VendorModelPick,
} from '@llmor/contracts';
import { formatCount, formatMoney } from '../../platform/money';
import type { CatalogueEntry } from './catalogue';
import type { VendorModelRow } from './repo';

export function presentAvailable(entry: CatalogueEntry, currency: string): AvailableModel {
  return {
    id: entry.id,
    name: entry.name,
    description: entry.description,
    image: entry.image,
    type: entry.type,
    provider: entry.provider,
    cost_per_1k: entry.costPer1kMinor,
    cost_per_1k_formatted: formatMoney(entry.costPer1kMinor, currency),
    schema: structuredClone(entry.schema),
  };
}

export function presentInstalled(row: VendorModelRow, currency: string): InstalledModel {
  return {
    id: row.id,
    name: row.name,
    image: row.image,
    type: row.type as ModelType,
    provider: row.provider as ModelProvider | null,
    model_key: row.modelKey,
    cost_per_1k: row.costPer1kMinor,
    cost_per_1k_formatted: formatMoney(row.costPer1kMinor, currency),
    prepaid: row.prepaid,
    available_tokens: row.prepaid ? (row.availableTokens ?? 0) : null,
    available_tokens_formatted: row.prepaid ? formatCount(row.availableTokens ?? 0) : 'Unlimited',
    created_at: row.createdAt.toISOString(),
  };
}

/** The last 4 characters of a secret, only when that leaves most of it hidden. */
function secretHint(secret: string): string {
  return secret.length >= 12 ? `…${secret.slice(-4)}` : '…';
}

export function presentDetail(
  row: VendorModelRow,
  currency: string,
  description: string,
  secrets: Record<string, string>,
): InstalledModelDetail {
  const hints: Record<string, string> = {};
  for (const [k, v] of Object.entries(secrets)) hints[k] = secretHint(v);
  return {
    ...presentInstalled(row, currency),
    description,
    parameters: (row.parameters ?? {}) as Record<string, unknown>,
    secret_hints: hints,
  };
}

export function presentPick(row: VendorModelRow, currency: string): VendorModelPick {
  return {
    id: row.id,
    name: row.name,
    image: row.image,
    cost_per_1k_formatted: formatMoney(row.costPer1kMinor, currency),
  };
}
