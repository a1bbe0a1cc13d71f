/**
 * The models a provider's server offers, asked while the install form is filled in (ADR 0039):
 * OpenAI-compatible servers answer `GET {base}/models` (`{data: [{id}]}`), Ollama `GET {base}/tags`
 * (`{models: [{name}]}`). Through the outbound guard like every provider request (ADR 0020); the key
 * typed so far is sent as a bearer token and never echoed, not even inside the server's error message.
 */
import { PROVIDER_MODELS_LIMIT, type ProviderModels, message as text } from '@llmor/contracts';
import type { AppContext } from '../../platform/context';
import { badGateway, badRequest, notFound, timedOut } from '../../platform/errors';
import { outboundRefusal } from '../../platform/outbound/guard';
import { type CatalogueEntry, catalogueEntry } from './catalogue';

export const PROVIDER_MODELS_TIMEOUT_MS = 10_000;
/** A model list is small; anything longer is not one. */
const MAX_BODY_CHARS = 2_000_000;

const str = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() ? v.trim() : undefined);

/** Whether the entry's form has a field the provider's list fills. */
export function listsModels(entry: CatalogueEntry): boolean {
  return Object.values(entry.schema.properties).some((p) => p['x-list-models'] === true);
}

/** The server's own error text: `{"error": {"message"}}` (OpenAI-compatible) or `{"error": "…"}` (Ollama). */
function serverMessage(body: string): string | null {
  try {
    const error = (JSON.parse(body) as { error?: unknown } | null)?.error;
    const m = typeof error === 'string' ? error : (error as { message?: unknown } | null)?.message;
    return typeof m === 'string' && m ? m : null;
  } catch {
    return null;
  }
}

function namesIn(provider: CatalogueEntry['provider'], body: string): string[] | null {
  try {
    const parsed = JSON.parse(body) as { data?: unknown; models?: unknown };
    const list = provider === 'ollama' ? parsed.models : parsed.data;
    if (!Array.isArray(list)) return null;
    const key = provider === 'ollama' ? 'name' : 'id';
    return list
      .map((m) => (m as Record<string, unknown> | null)?.[key])
      .filter((n): n is string => typeof n === 'string');
  } catch {
    return null;
  }
}

export async function listProviderModels(
  ctx: Pick<AppContext, 'outbound'>,
  modelKey: string,
  parameters: Record<string, unknown>,
): Promise<ProviderModels> {
  const entry = catalogueEntry(modelKey);
  if (!entry) throw notFound('Model');
  if (!listsModels(entry)) throw badRequest(text('modelListUnsupported'));
  const base = str(parameters.base_url) ?? str(entry.schema.properties.base_url?.default);
  if (!base || !/^https?:\/\//i.test(base) || !URL.canParse(base))
    throw badRequest(text('modelListNeedsBaseUrl'));
  const url = `${base.replace(/\/+$/, '')}/${entry.provider === 'ollama' ? 'tags' : 'models'}`;
  const key = str(parameters.api_key);
  const redact = (s: string) => (key && key.length >= 4 ? s.split(key).join('***') : s).slice(0, 300);

  let status: number;
  let body: string;
  try {
    const res = await ctx.outbound.fetch(url, {
      headers: { accept: 'application/json', ...(key ? { authorization: `Bearer ${key}` } : {}) },
      signal: AbortSignal.timeout(PROVIDER_MODELS_TIMEOUT_MS),
    });
    status = res.status;
    body = await res.text();
  } catch (err) {
    const refused = outboundRefusal(err);
    if (refused) throw badRequest(refused.message);
    if ((err as Error).name === 'TimeoutError') {
      throw timedOut(text('modelListTimeout', { url, count: PROVIDER_MODELS_TIMEOUT_MS / 1000 }));
    }
    throw badGateway(text('modelListUnreachable', { url }));
  }
  if (status >= 400) {
    const reason = serverMessage(body);
    throw badGateway(
      reason
        ? text('modelListRefused', { url, status, reason: redact(reason) })
        : text('modelListRefusedBare', { url, status }),
    );
  }
  const names = body.length <= MAX_BODY_CHARS ? namesIn(entry.provider, body) : null;
  if (!names) throw badGateway(text('modelListUnreadable', { url }));
  const sorted = [...new Set(names)].sort((a, b) => a.localeCompare(b)).slice(0, PROVIDER_MODELS_LIMIT);
  return { data: sorted.map((id) => ({ id })) };
}
