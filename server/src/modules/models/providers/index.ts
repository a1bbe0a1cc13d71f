/**
 * The only place that turns an installed model (a `vendor_models` row) into something that runs:
 * decrypts its secrets, picks the adapter by provider and builds the client with the configured
 * base URL. Callers get our ChatModel / EmbeddingModel and never see a vendor SDK.
 */
import type { AppContext } from '../../../platform/context';
import { type CatalogueEntry, catalogueEntry } from '../catalogue';
import type { VendorModelRow } from '../repo';
import { LexicalEmbeddingModel, OfflineDemoChatModel } from './builtin';
import type { ErrorBodyReader, SdkModelOptions } from './sdk';
import { type ChatModel, type EmbeddingModel, ProviderError, textOf } from './types';

export * from './types';

type Row = Pick<VendorModelRow, 'modelKey' | 'type' | 'provider' | 'parameters' | 'secretEnc'>;
type ProviderContext = Pick<AppContext, 'secretBox' | 'outbound'>;

export interface ProviderOptions {
  /** Longest wait for a first byte and between stream chunks (default 60 s). */
  timeoutMs?: number;
  /** SDK retries on retryable failures (default 0). */
  maxRetries?: number;
  /** Delay between the offline demo model's chunks (default 0: just yields). */
  demoChunkDelayMs?: number;
}

interface Resolved {
  entry: CatalogueEntry;
  params: Record<string, unknown>;
  secrets: Record<string, string>;
}

function resolve(ctx: ProviderContext, row: Row, type: CatalogueEntry['type']): Resolved {
  const entry = catalogueEntry(row.modelKey);
  if (!entry) {
    throw new ProviderError('bad_request', `The model "${row.modelKey}" is no longer in the catalogue.`);
  }
  if (entry.type !== type) {
    throw new ProviderError('bad_request', `The model "${entry.name}" is not a ${type} model.`);
  }
  let secrets: Record<string, string> = {};
  if (row.secretEnc) {
    try {
      secrets = JSON.parse(ctx.secretBox.open(row.secretEnc)) as Record<string, string>;
    } catch {
      throw new ProviderError(
        'auth',
        `The stored API key of "${entry.name}" cannot be decrypted; install the model again.`,
      );
    }
  }
  return { entry, params: (row.parameters ?? {}) as Record<string, unknown>, secrets };
}

/**
 * The AI SDK and its provider packages are loaded when a provider model first runs, not at start (they
 * cost ~0.5 s of every start, and many instances only ever use the builtin models).
 */
const sdk = () => import('./sdk');
const hosted = () => import('./hosted');

function lazyChat(load: () => Promise<ChatModel>): ChatModel {
  let model: Promise<ChatModel> | undefined;
  return {
    async *stream(request) {
      model ??= load();
      yield* (await model).stream(request);
    },
  };
}

function lazyEmbedding(dimensions: number, load: () => Promise<EmbeddingModel>): EmbeddingModel {
  let model: Promise<EmbeddingModel> | undefined;
  return {
    dimensions,
    async embed(texts, signal, trace) {
      model ??= load();
      return (await model).embed(texts, signal, trace);
    },
  };
}

const str = (v: unknown): string | undefined => (typeof v === 'string' && v.length ? v : undefined);

function sdkOptions(label: string, secrets: Record<string, string>, opts: ProviderOptions): SdkModelOptions {
  return { label, secrets: Object.values(secrets), timeoutMs: opts.timeoutMs, maxRetries: opts.maxRetries };
}

/** Every provider request goes through the outbound guard (ADR 0020), as `fetch` for the SDKs. */
function guardedFetch(ctx: ProviderContext): typeof fetch {
  return (input, init) => ctx.outbound.fetch(input, init);
}

function connection(ctx: ProviderContext, baseURL: string | undefined, secrets: Record<string, string>) {
  return { baseURL, apiKey: secrets.api_key ?? '', fetch: guardedFetch(ctx) };
}

function compatibleLabel(baseUrl: string): string {
  return `the server at ${baseUrl}`;
}

// --- Azure OpenAI, Amazon Bedrock, Ollama (ADR 0039) ---

/** The resource's `…/openai` URL: the base URL given, else the resource name's (also where its model list is). */
export function azureBaseUrl(params: Record<string, unknown>): string {
  return (str(params.base_url) ?? `https://${str(params.resource_name)}.openai.azure.com/openai`).replace(
    /\/+$/,
    '',
  );
}

/**
 * Azure's two URL shapes: the v1 API (`{base}/v1/chat/completions`, the deployment named in the body) and
 * the dated deployment URLs (`{base}/deployments/{name}/chat/completions?api-version=…`). Both are built the
 * same for every host, so a gateway in front of Azure gets exactly what Azure would.
 */
function azureSettings(
  ctx: ProviderContext,
  params: Record<string, unknown>,
  secrets: Record<string, string>,
) {
  const base = azureBaseUrl(params);
  const version = str(params.api_version) ?? 'v1';
  const common = { apiKey: secrets.api_key ?? '', fetch: guardedFetch(ctx) };
  return version === 'v1'
    ? { ...common, baseURL: `${base}/v1` }
    : { ...common, baseURL: base, apiVersion: version, useDeploymentBasedUrls: true };
}

function bedrockSettings(
  ctx: ProviderContext,
  params: Record<string, unknown>,
  secrets: Record<string, string>,
) {
  return {
    region: str(params.region),
    baseURL: str(params.base_url),
    accessKeyId: str(params.access_key_id),
    secretAccessKey: secrets.secret_access_key,
    sessionToken: secrets.session_token,
    // An empty key keeps the package from using the operator's AWS_BEARER_TOKEN_BEDROCK for a vendor's model.
    apiKey: '',
    fetch: guardedFetch(ctx),
  };
}

/** Bedrock answers errors in the AWS JSON protocol: `{"message": …}` (header x-amzn-ErrorType). */
const readAwsError: ErrorBodyReader = (body) => {
  const b = body as { message?: unknown; Message?: unknown } | null;
  return { message: textOf(b?.message) ?? textOf(b?.Message) };
};

/** Ollama's native API answers errors as `{"error": "…"}`. */
const readOllamaError: ErrorBodyReader = (body) => ({
  message: textOf((body as { error?: unknown } | null)?.error),
});

const ollamaLabel = (baseUrl: string) => `the Ollama server at ${baseUrl}`;

/** Ollama's native API; the optional key (Ollama's cloud, or a proxy in front of a server) as a bearer token. */
async function ollamaProvider(ctx: ProviderContext, baseURL: string, secrets: Record<string, string>) {
  const { createOllama } = await import('ollama-ai-provider-v2');
  return createOllama({
    baseURL,
    headers: secrets.api_key ? { Authorization: `Bearer ${secrets.api_key}` } : undefined,
    fetch: guardedFetch(ctx),
  });
}

export function chatModelFor(ctx: ProviderContext, row: Row, opts: ProviderOptions = {}): ChatModel {
  const { entry, params, secrets } = resolve(ctx, row, 'chat_completion');
  const baseURL = str(params.base_url);
  switch (entry.provider) {
    case 'builtin':
      return new OfflineDemoChatModel({ chunkDelayMs: opts.demoChunkDelayMs });
    case 'openai':
      return lazyChat(async () => {
        const [{ SdkChatModel }, { createOpenAI }] = await Promise.all([sdk(), import('@ai-sdk/openai')]);
        const openai = createOpenAI({ baseURL, apiKey: secrets.api_key ?? '', fetch: guardedFetch(ctx) });
        return new SdkChatModel(openai.chat(entry.providerModel!), sdkOptions('OpenAI', secrets, opts));
      });
    case 'anthropic':
      return lazyChat(async () => {
        const [{ SdkChatModel }, { createAnthropic }] = await Promise.all([
          sdk(),
          import('@ai-sdk/anthropic'),
        ]);
        const anthropic = createAnthropic({
          baseURL,
          apiKey: secrets.api_key ?? '',
          fetch: guardedFetch(ctx),
        });
        return new SdkChatModel(
          anthropic.messages(entry.providerModel!),
          sdkOptions('Anthropic', secrets, opts),
        );
      });
    case 'openai-compatible':
      // Read straight off the answer, without the AI SDK (docs/adr/0052).
      return lazyChat(async () => {
        const url = baseURL ?? '';
        return new (await import('./openai-chat')).OpenAiChatModel({
          baseURL: url,
          apiKey: secrets.api_key,
          model: str(params.model) ?? '',
          fetch: guardedFetch(ctx),
          label: compatibleLabel(url),
          secrets: Object.values(secrets),
          timeoutMs: opts.timeoutMs,
        });
      });
    // Gemini, Mistral, Groq, DeepSeek: their own AI SDK packages (hosted.ts, ADR 0038).
    case 'google':
    case 'mistral':
    case 'groq':
    case 'deepseek': {
      const provider = entry.provider;
      return lazyChat(async () =>
        (await hosted()).hostedChatModel(provider, entry.providerModel!, connection(ctx, baseURL, secrets), {
          ...opts,
          secrets,
        }),
      );
    }
    case 'azure':
      return lazyChat(async () => {
        const [{ SdkChatModel }, { createAzure }] = await Promise.all([sdk(), import('@ai-sdk/azure')]);
        const azure = createAzure(azureSettings(ctx, params, secrets));
        // Chat completions, like OpenAI (not the Responses API).
        return new SdkChatModel(
          azure.chat(str(params.deployment) ?? ''),
          sdkOptions('Azure OpenAI', secrets, opts),
        );
      });
    case 'amazon-bedrock':
      return lazyChat(async () => {
        const [{ SdkChatModel }, { createAmazonBedrock }] = await Promise.all([
          sdk(),
          import('@ai-sdk/amazon-bedrock'),
        ]);
        const bedrock = createAmazonBedrock(bedrockSettings(ctx, params, secrets));
        return new SdkChatModel(bedrock(str(params.model) ?? ''), {
          ...sdkOptions('Amazon Bedrock', secrets, opts),
          readError: readAwsError,
        });
      });
    case 'ollama':
      return lazyChat(async () => {
        const url = baseURL ?? '';
        const [{ SdkChatModel }, ollama] = await Promise.all([sdk(), ollamaProvider(ctx, url, secrets)]);
        return new SdkChatModel(ollama.chat(str(params.model) ?? ''), {
          ...sdkOptions(ollamaLabel(url), secrets, opts),
          readError: readOllamaError,
          finishNeedsReason: true,
          // The package puts temperature and the token limit at the top of the body, where Ollama ignores
          // them; Ollama reads them from `options` (ADR 0039).
          providerOptions: (request) => ({
            ollama: {
              options: {
                ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
                ...(request.maxTokens !== undefined ? { num_predict: request.maxTokens } : {}),
              },
            },
          }),
        });
      });
  }
}

export function embeddingModelFor(
  ctx: ProviderContext,
  row: Row,
  opts: ProviderOptions = {},
): EmbeddingModel {
  const { entry, params, secrets } = resolve(ctx, row, 'embedding');
  const baseURL = str(params.base_url);
  switch (entry.provider) {
    case 'builtin':
      return new LexicalEmbeddingModel();
    case 'openai':
      return lazyEmbedding(entry.dimensions!, async () => {
        const [{ SdkEmbeddingModel }, { createOpenAI }] = await Promise.all([
          sdk(),
          import('@ai-sdk/openai'),
        ]);
        const openai = createOpenAI({ baseURL, apiKey: secrets.api_key ?? '', fetch: guardedFetch(ctx) });
        return new SdkEmbeddingModel(
          openai.embedding(entry.providerModel!),
          entry.dimensions!,
          sdkOptions('OpenAI', secrets, opts),
        );
      });
    case 'openai-compatible': {
      const dimensions = Number(params.dimensions);
      return lazyEmbedding(dimensions, async () => {
        const [{ SdkEmbeddingModel }, { createOpenAICompatible }] = await Promise.all([
          sdk(),
          import('@ai-sdk/openai-compatible'),
        ]);
        const url = baseURL ?? '';
        const provider = createOpenAICompatible({
          baseURL: url,
          name: 'openai-compatible',
          apiKey: secrets.api_key,
          fetch: guardedFetch(ctx),
        });
        return new SdkEmbeddingModel(
          provider.embeddingModel(str(params.model) ?? ''),
          dimensions,
          sdkOptions(compatibleLabel(url), secrets, opts),
        );
      });
    }
    case 'anthropic':
      throw new ProviderError('bad_request', 'Anthropic has no embedding models.');
    // Gemini and Mistral embed; Groq and DeepSeek do not (hosted.ts, ADR 0038).
    case 'google':
    case 'mistral': {
      const provider = entry.provider;
      return lazyEmbedding(entry.dimensions!, async () =>
        (await hosted()).hostedEmbeddingModel(
          provider,
          entry.providerModel!,
          entry.dimensions!,
          connection(ctx, baseURL, secrets),
          { ...opts, secrets },
        ),
      );
    }
    case 'groq':
      throw new ProviderError('bad_request', 'Groq has no embedding models.');
    case 'deepseek':
      throw new ProviderError('bad_request', 'DeepSeek has no embedding models.');
    case 'azure': {
      const dimensions = Number(params.dimensions);
      return lazyEmbedding(dimensions, async () => {
        const [{ SdkEmbeddingModel }, { createAzure }] = await Promise.all([sdk(), import('@ai-sdk/azure')]);
        const azure = createAzure(azureSettings(ctx, params, secrets));
        return new SdkEmbeddingModel(
          azure.embedding(str(params.deployment) ?? ''),
          dimensions,
          sdkOptions('Azure OpenAI', secrets, opts),
        );
      });
    }
    case 'amazon-bedrock':
      return lazyEmbedding(entry.dimensions!, async () => {
        const [{ SdkEmbeddingModel }, { createAmazonBedrock }] = await Promise.all([
          sdk(),
          import('@ai-sdk/amazon-bedrock'),
        ]);
        const bedrock = createAmazonBedrock(bedrockSettings(ctx, params, secrets));
        return new SdkEmbeddingModel(bedrock.embedding(entry.providerModel!), entry.dimensions!, {
          ...sdkOptions('Amazon Bedrock', secrets, opts),
          readError: readAwsError,
        });
      });
    case 'ollama': {
      const dimensions = Number(params.dimensions);
      return lazyEmbedding(dimensions, async () => {
        const url = baseURL ?? '';
        const [{ SdkEmbeddingModel }, ollama] = await Promise.all([sdk(), ollamaProvider(ctx, url, secrets)]);
        return new SdkEmbeddingModel(ollama.embedding(str(params.model) ?? ''), dimensions, {
          ...sdkOptions(ollamaLabel(url), secrets, opts),
          readError: readOllamaError,
        });
      });
    }
  }
}
