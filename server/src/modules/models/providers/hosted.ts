/**
 * Google Gemini, Mistral, Groq and DeepSeek (docs/adr/0038-providers.md): each through its own AI SDK
 * package, built from the installed model's API key and base URL with the outbound guard's fetch.
 * What differs between them lives in `HOSTED`: the name in messages, how their error bodies read,
 * and options every chat call needs. Loaded with the SDK, on first use.
 */
import { createHash } from 'node:crypto';
import type { EmbeddingModelV3, LanguageModelV3 } from '@ai-sdk/provider';
import {
  type ErrorBodyReader,
  readOpenAiError,
  SdkChatModel,
  SdkEmbeddingModel,
  type SdkModelOptions,
} from './sdk';
import { type ChatModel, type EmbeddingModel, textOf } from './types';

export type HostedProvider = 'google' | 'mistral' | 'groq' | 'deepseek';
/** The ones that also have embedding models. */
export type HostedEmbeddingProvider = 'google' | 'mistral';

/** What every provider package's factory takes. */
export interface Connection {
  baseURL?: string;
  apiKey: string;
  fetch: typeof fetch;
}

interface HostedSpec {
  /** The provider's name in messages. */
  label: string;
  chat(connection: Connection, model: string): Promise<LanguageModelV3>;
  readError: ErrorBodyReader;
  toolCallId?: SdkModelOptions['toolCallId'];
  providerOptions?: SdkModelOptions['providerOptions'];
}

/**
 * Gemini: `{"error": {"code", "message", "status", "details"}}` (Google's RPC error). A wrong key is
 * HTTP 400 `INVALID_ARGUMENT` with the reason `API_KEY_INVALID` in its details: an auth failure.
 */
const readGoogleError: ErrorBodyReader = (body) => {
  const error = (body as { error?: { message?: unknown; details?: unknown } } | null)?.error;
  const details: unknown[] = Array.isArray(error?.details) ? error.details : [];
  const keyInvalid = details.some((d) => (d as { reason?: unknown } | null)?.reason === 'API_KEY_INVALID');
  return { message: textOf(error?.message), ...(keyInvalid ? { kind: 'auth' as const } : {}) };
};

/**
 * Mistral: `{"object": "error", "message": …}` from the API (rate limits, bad requests); its gateway
 * answers a wrong key with `{"detail": …}` or `{"message": …, "request_id": …}`.
 */
const readMistralError: ErrorBodyReader = (body) => {
  const b = body as { message?: unknown; detail?: unknown } | null;
  return { message: textOf(b?.message) ?? textOf(b?.detail) };
};

/**
 * Mistral refuses tool call ids that are not 9 letters or digits; calls made by another model (the
 * offline demo's `demo_call_1`, OpenAI's `call_…`) get a stable 9-character stand-in.
 */
function mistralToolCallId(id: string): string {
  return /^[a-zA-Z0-9]{9}$/.test(id) ? id : createHash('sha256').update(id).digest('hex').slice(0, 9);
}

const HOSTED: Record<HostedProvider, HostedSpec> = {
  google: {
    label: 'Google Gemini',
    chat: async (c, model) =>
      (await import('@ai-sdk/google')).createGoogleGenerativeAI(c).languageModel(model),
    readError: readGoogleError,
  },
  mistral: {
    label: 'Mistral',
    chat: async (c, model) => (await import('@ai-sdk/mistral')).createMistral(c).languageModel(model),
    readError: readMistralError,
    toolCallId: mistralToolCallId,
  },
  groq: {
    label: 'Groq',
    chat: async (c, model) => (await import('@ai-sdk/groq')).createGroq(c).languageModel(model),
    readError: readOpenAiError,
  },
  deepseek: {
    label: 'DeepSeek',
    chat: async (c, model) => (await import('@ai-sdk/deepseek')).createDeepSeek(c).languageModel(model),
    readError: readOpenAiError,
    // Thinking mode (DeepSeek's default) needs each tool-calling turn's reasoning sent back on the
    // next request, and the engine keeps no reasoning: the API would refuse every tool round trip.
    providerOptions: () => ({ deepseek: { thinking: { type: 'disabled' } } }),
  },
};

const EMBEDDINGS: Record<
  HostedEmbeddingProvider,
  (c: Connection, model: string) => Promise<EmbeddingModelV3>
> = {
  google: async (c, model) =>
    (await import('@ai-sdk/google')).createGoogleGenerativeAI(c).embeddingModel(model),
  mistral: async (c, model) => (await import('@ai-sdk/mistral')).createMistral(c).embeddingModel(model),
};

export interface HostedOptions {
  secrets: Record<string, string>;
  timeoutMs?: number;
  maxRetries?: number;
}

function sdkOptions(spec: HostedSpec, opts: HostedOptions): SdkModelOptions {
  return {
    label: spec.label,
    secrets: Object.values(opts.secrets),
    timeoutMs: opts.timeoutMs,
    maxRetries: opts.maxRetries,
    readError: spec.readError,
    toolCallId: spec.toolCallId,
    providerOptions: spec.providerOptions,
  };
}

export async function hostedChatModel(
  provider: HostedProvider,
  model: string,
  connection: Connection,
  opts: HostedOptions,
): Promise<ChatModel> {
  const spec = HOSTED[provider];
  return new SdkChatModel(await spec.chat(connection, model), sdkOptions(spec, opts));
}

export async function hostedEmbeddingModel(
  provider: HostedEmbeddingProvider,
  model: string,
  dimensions: number,
  connection: Connection,
  opts: HostedOptions,
): Promise<EmbeddingModel> {
  const embedding = await EMBEDDINGS[provider](connection, model);
  return new SdkEmbeddingModel(embedding, dimensions, sdkOptions(HOSTED[provider], opts));
}
