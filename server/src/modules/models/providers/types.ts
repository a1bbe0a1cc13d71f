/**
 * The one interface the completion engine and the datastores use to reach any language model:
 * streaming chat with tool calls and usage, and embeddings. Implementations live beside this file
 * (OpenAI, Anthropic, OpenAI-compatible, Gemini, Mistral, Groq, DeepSeek, the built-in offline pair); the
 * engine never sees a vendor SDK.
 */
import type { TraceContext } from '../../../platform/tracing';

export interface ToolCall {
  id: string;
  name: string;
  /** Parsed JSON arguments as the model sent them. */
  arguments: unknown;
}

export type ChatMessage =
  | { role: 'system'; content: string }
  | { role: 'user'; content: string }
  | { role: 'assistant'; content: string; toolCalls?: ToolCall[] }
  | { role: 'tool'; toolCallId: string; name: string; content: string };

export interface ToolSpec {
  name: string;
  description: string;
  /** JSON schema of the arguments object. */
  parameters: Record<string, unknown>;
}

export interface Usage {
  promptTokens: number;
  completionTokens: number;
}

export type ChatStreamEvent =
  | { type: 'text'; text: string }
  | { type: 'tool_call'; call: ToolCall }
  | { type: 'finish'; reason: 'stop' | 'tool_calls' | 'length' | 'other'; usage: Usage };

export interface ChatRequest {
  messages: ChatMessage[];
  tools?: ToolSpec[];
  temperature?: number;
  maxTokens?: number;
  signal?: AbortSignal;
  /** The reply's trace, under which the call's span goes (tracing on). */
  trace?: TraceContext;
}

export interface ChatModel {
  /**
   * Streams one model turn: text chunks in order, then any tool calls, then exactly one `finish`.
   * Provider failures (bad key, 429, 5xx, timeout, malformed stream) reject with a ProviderError.
   */
  stream(request: ChatRequest): AsyncIterable<ChatStreamEvent>;
}

export interface EmbeddingModel {
  readonly dimensions: number;
  embed(
    texts: string[],
    signal?: AbortSignal,
    trace?: TraceContext,
  ): Promise<{ vectors: number[][]; usage: { tokens: number } }>;
}

export type ProviderErrorKind =
  | 'auth'
  | 'rate_limit'
  | 'unavailable'
  | 'timeout'
  | 'bad_response'
  | 'bad_request';

/** A provider failure in words a console user can act on; `kind` lets callers branch. */
export class ProviderError extends Error {
  override name = 'ProviderError';
  constructor(
    readonly kind: ProviderErrorKind,
    message: string,
    readonly status?: number,
  ) {
    super(message);
  }
}

/** A non-empty string, or undefined (reading a provider's error body). */
export const textOf = (value: unknown): string | undefined =>
  typeof value === 'string' && value ? value : undefined;
