/**
 * The only place that turns an installed model (a `vendor_models` row) into something that runs:
 * decrypts its secrets, picks the adapter by provider and builds the client with the configured
 * base URL. Callers get our ChatModel / EmbeddingModel and never see a vendor SDK.
 */
import type { AppContext } from '../../../platform/context';
import type { schema } from '../../../platform/db';
import { type CatalogueEntry, catalogueEntry } from '../catalogue';
import { LexicalEmbeddingModel, OfflineDemoChatModel } from './builtin';
import type { SdkModelOptions } from './sdk';
import { type ChatModel, type EmbeddingModel, ProviderError } from './types';

export * from './types';

type VendorModelRow = typeof schema.vendorModels.$inferSelect;
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
    async embed(texts, signal) {
      model ??= load();
      return (await model).embed(texts, signal);
    },
  };
}

const str = (v: unknown): string | undefined => (typeof v === 'string' && v.length ? v : undefined);

function sdkOptions(label: string, secrets: Record<string, string>, opts: ProviderOptions): SdkModelOptions {
  return { label, secrets: Object.values(secrets), timeoutMs: opts.timeoutMs, maxRetries: opts.maxRetries };
}

/**
 * Every provider request goes through the outbound guard (ADR 0020), read at request time so a test
 * that swaps `ctx.outbound` reaches models built before.
 */
function guardedFetch(ctx: ProviderContext): typeof fetch {
  return (input, init) => ctx.outbound.fetch(input, init);
}

function connection(ctx: ProviderContext, baseURL: string | undefined, secrets: Record<string, string>) {
  return { baseURL, apiKey: secrets.api_key ?? '', fetch: guardedFetch(ctx) };
}

function compatibleLabel(baseUrl: string): string {
  return `the server at ${baseUrl}`;
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
      return lazyChat(async () => {
        const [{ SdkChatModel }, { createOpenAICompatible }] = await Promise.all([
          sdk(),
          import('@ai-sdk/openai-compatible'),
        ]);
        const url = baseURL ?? '';
        const provider = createOpenAICompatible({
          baseURL: url,
          name: 'openai-compatible',
          apiKey: secrets.api_key,
          includeUsage: true,
          fetch: guardedFetch(ctx),
        });
        return new SdkChatModel(
          provider.chatModel(str(params.model) ?? ''),
          sdkOptions(compatibleLabel(url), secrets, opts),
        );
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
  }
}
