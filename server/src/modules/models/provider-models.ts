/**
 * The models a provider's server offers, asked while the install form is filled in (ADR 0039):
 * OpenAI-compatible servers answer `GET {base}/models` (`{data: [{id}]}`), Ollama `GET {base}/tags`
 * (`{models: [{name}]}`), Azure OpenAI `GET {base}/v1/models` (the models the resource can serve, not its
 * deployments), Amazon Bedrock `GET /foundation-models` and `GET /inference-profiles` (SigV4-signed).
 * Through the outbound guard like every provider request (ADR 0020); the keys typed so far are sent
 * and never echoed, not even inside the server's error message.
 */
import { PROVIDER_MODELS_LIMIT, type ProviderModels, message as text } from '@llmor/contracts';
import { AwsV4Signer } from 'aws4fetch';
import type { AppContext } from '../../platform/context';
import { badGateway, badRequest, notFound, timedOut } from '../../platform/errors';
import { outboundRefusal } from '../../platform/outbound/guard';
import { type CatalogueEntry, catalogueEntry } from './catalogue';
import { azureBaseUrl } from './providers';

const PROVIDER_MODELS_TIMEOUT_MS = 10_000;
/** A model list is small; anything longer is not one. */
const MAX_BODY_CHARS = 2_000_000;

type Ctx = Pick<AppContext, 'outbound'>;
type Parameters = Record<string, unknown>;

const str = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() ? v.trim() : undefined);
const isHttpUrl = (s: string | undefined): s is string => !!s && /^https?:\/\//i.test(s) && URL.canParse(s);
const records = (v: unknown): Record<string, unknown>[] =>
  Array.isArray(v) ? v.filter((x): x is Record<string, unknown> => !!x && typeof x === 'object') : [];

/** Whether a parameter is a string its field's pattern accepts (the install form's own rule). */
function fits(entry: CatalogueEntry, key: string, value: unknown): value is string {
  const pattern = entry.schema.properties[key]?.pattern;
  return typeof value === 'string' && typeof pattern === 'string' && new RegExp(pattern).test(value);
}

/** Whether the entry's form has a field the provider's list fills. */
function listsModels(entry: CatalogueEntry): boolean {
  return Object.values(entry.schema.properties).some((p) => p['x-list-models'] === true);
}

/**
 * The server's own error text: `{"error": {"message"}}` (OpenAI-compatible, Azure), `{"error": "…"}`
 * (Ollama) or `{"message"}` (AWS's JSON protocol).
 */
function serverMessage(body: string): string | null {
  try {
    const parsed = JSON.parse(body) as { error?: unknown; message?: unknown; Message?: unknown } | null;
    const error = parsed?.error;
    const m =
      typeof error === 'string'
        ? error
        : ((error as { message?: unknown } | null)?.message ?? parsed?.message ?? parsed?.Message);
    return typeof m === 'string' && m ? m : null;
  } catch {
    return null;
  }
}

/**
 * One GET through the outbound guard: the parsed JSON answer, or the error the form shows — the guard's
 * refusal (400), a timeout (504), the server's own words (502), with every secret masked.
 */
async function getJson(
  ctx: Ctx,
  url: string,
  headers: Record<string, string>,
  secrets: (string | undefined)[],
): Promise<unknown> {
  const redact = (s: string) =>
    secrets
      .filter((k): k is string => !!k && k.length >= 4)
      .reduce((out, k) => out.split(k).join('***'), s)
      .slice(0, 300);
  let status: number;
  let body: string;
  try {
    const res = await ctx.outbound.fetch(url, {
      headers: { accept: 'application/json', ...headers },
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
  try {
    if (body.length <= MAX_BODY_CHARS) return JSON.parse(body) as unknown;
  } catch {
    // Not JSON: not a model list either.
  }
  throw badGateway(text('modelListUnreadable', { url }));
}

/** The names under `list[].key`; null (not a model list) when `list` is not an array. */
function namesIn(list: unknown, key: string): string[] | null {
  if (!Array.isArray(list)) return null;
  return records(list)
    .map((m) => m[key])
    .filter((n): n is string => typeof n === 'string');
}

/** OpenAI-compatible servers and Ollama: the base URL typed (or the form's default) and an optional bearer key. */
async function listOpenAiOrOllama(ctx: Ctx, entry: CatalogueEntry, parameters: Parameters) {
  const base = str(parameters.base_url) ?? str(entry.schema.properties.base_url?.default);
  if (!isHttpUrl(base)) throw badRequest(text('modelListNeedsBaseUrl'));
  const ollama = entry.provider === 'ollama';
  const url = `${base.replace(/\/+$/, '')}/${ollama ? 'tags' : 'models'}`;
  const key = str(parameters.api_key);
  const body = (await getJson(ctx, url, key ? { authorization: `Bearer ${key}` } : {}, [key])) as {
    data?: unknown;
    models?: unknown;
  } | null;
  const names = ollama ? namesIn(body?.models, 'name') : namesIn(body?.data, 'id');
  if (!names) throw badGateway(text('modelListUnreadable', { url }));
  return names;
}

/**
 * Azure OpenAI: the models the resource can serve (base models and its fine-tunes), with Azure's
 * `capabilities` telling chat from embedding models. Deployments are listed only by the management API
 * (Entra ID, not the resource key), so the form labels these as models (`x-deployment`, ADR 0039).
 */
async function listAzure(ctx: Ctx, entry: CatalogueEntry, parameters: Parameters) {
  const key = str(parameters.api_key);
  const given = str(parameters.base_url);
  const located = given ? isHttpUrl(given) : fits(entry, 'resource_name', parameters.resource_name);
  if (!key || !located) throw badRequest(text('modelListNeedsAzure'));
  const base = azureBaseUrl(parameters);
  const version = str(parameters.api_version) ?? 'v1';
  const url =
    version === 'v1' ? `${base}/v1/models` : `${base}/models?api-version=${encodeURIComponent(version)}`;
  const body = (await getJson(ctx, url, { 'api-key': key }, [key])) as { data?: unknown } | null;
  if (!Array.isArray(body?.data)) throw badGateway(text('modelListUnreadable', { url }));
  const capability = entry.type === 'embedding' ? 'embeddings' : 'chat_completion';
  return records(body.data)
    .filter((m) => {
      const can = m.capabilities as Record<string, unknown> | undefined;
      // A server that leaves out Azure's capabilities (a gateway) keeps every model.
      return !can || typeof can !== 'object' || (can[capability] === true && can.inference !== false);
    })
    .map((m) => m.id)
    .filter((id): id is string => typeof id === 'string');
}

/**
 * Where Bedrock's control plane answers: an endpoint URL given for the runtime (a VPC endpoint or proxy) with
 * `bedrock-runtime` read as `bedrock`, as AWS names the two alike; else the region's public endpoint.
 */
function bedrockControlPlane(parameters: Parameters, region: string): string | null {
  const given = str(parameters.base_url);
  if (!given) return `https://bedrock.${region}.amazonaws.com`;
  if (!isHttpUrl(given)) return null;
  const url = new URL(given);
  url.hostname = url.hostname.replace(/(^|\.)bedrock-runtime\./, '$1bedrock.');
  return url.href.replace(/\/+$/, '');
}

/**
 * Amazon Bedrock: the foundation models that stream text — by id where they run on demand — and the
 * inference profiles (`us.…`, `global.…`) over such a model, which newer models can only be called through.
 */
async function listBedrock(ctx: Ctx, entry: CatalogueEntry, parameters: Parameters) {
  const region = str(parameters.region) ?? str(entry.schema.properties.region?.default);
  const accessKeyId = str(parameters.access_key_id);
  const secretAccessKey = str(parameters.secret_access_key);
  const sessionToken = str(parameters.session_token);
  const endpoint = fits(entry, 'region', region) && bedrockControlPlane(parameters, region);
  if (!endpoint || !accessKeyId || !secretAccessKey) throw badRequest(text('modelListNeedsAws'));
  const secrets = [secretAccessKey, sessionToken];
  const get = async (url: string) => {
    const signer = new AwsV4Signer({
      url,
      method: 'GET',
      accessKeyId,
      secretAccessKey,
      sessionToken,
      service: 'bedrock',
      region,
    });
    const signed: Record<string, string> = {};
    (await signer.sign()).headers.forEach((value, name) => {
      signed[name] = value;
    });
    return getJson(ctx, url, signed, secrets);
  };
  const modelsUrl = `${endpoint}/foundation-models?byOutputModality=TEXT`;
  const profilesUrl = `${endpoint}/inference-profiles?maxResults=1000`;
  // Both asked at once; the answer waits for both, so no request outlives it (the first failure is told).
  const settled = await Promise.allSettled([get(modelsUrl), get(profilesUrl)]);
  const failed = settled.find((r) => r.status === 'rejected');
  if (failed) throw failed.reason;
  const [models, profiles] = settled.map((r) => (r as PromiseFulfilledResult<unknown>).value) as [
    { modelSummaries?: unknown } | null,
    { inferenceProfileSummaries?: unknown } | null,
  ];
  if (!Array.isArray(models?.modelSummaries))
    throw badGateway(text('modelListUnreadable', { url: modelsUrl }));
  if (!Array.isArray(profiles?.inferenceProfileSummaries))
    throw badGateway(text('modelListUnreadable', { url: profilesUrl }));

  const has = (list: unknown, value: string) => Array.isArray(list) && list.includes(value);
  const streamsText = records(models.modelSummaries).filter(
    (m) =>
      typeof m.modelId === 'string' &&
      has(m.outputModalities, 'TEXT') &&
      m.responseStreamingSupported === true,
  );
  const textIds = new Set(streamsText.map((m) => m.modelId as string));
  const onDemand = streamsText.filter((m) => has(m.inferenceTypesSupported, 'ON_DEMAND'));
  // A profile names its models by ARN: `arn:aws:bedrock:{region}::foundation-model/{modelId}`.
  const viaProfile = records(profiles.inferenceProfileSummaries).filter(
    (p) =>
      p.status === 'ACTIVE' &&
      records(p.models).some(
        (m) => typeof m.modelArn === 'string' && textIds.has(m.modelArn.split('/').pop()!),
      ),
  );
  return [
    ...onDemand.map((m) => m.modelId as string),
    ...viaProfile.map((p) => p.inferenceProfileId).filter((id): id is string => typeof id === 'string'),
  ];
}

export async function listProviderModels(
  ctx: Ctx,
  modelKey: string,
  parameters: Parameters,
): Promise<ProviderModels> {
  const entry = catalogueEntry(modelKey);
  if (!entry) throw notFound('Model');
  if (!listsModels(entry)) throw badRequest(text('modelListUnsupported'));
  const names =
    entry.provider === 'azure'
      ? await listAzure(ctx, entry, parameters)
      : entry.provider === 'amazon-bedrock'
        ? await listBedrock(ctx, entry, parameters)
        : await listOpenAiOrOllama(ctx, entry, parameters);
  const sorted = [...new Set(names)].sort((a, b) => a.localeCompare(b)).slice(0, PROVIDER_MODELS_LIMIT);
  return { data: sorted.map((id) => ({ id })) };
}
