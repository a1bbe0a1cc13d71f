/**
 * Our ChatModel / EmbeddingModel over any Vercel AI SDK model (OpenAI, Anthropic, OpenAI-compatible,
 * Gemini, Mistral, Groq, DeepSeek).
 * One `stream()` = one model turn: tools are declared but never executed here (the engine runs them).
 * Failures reject with a ProviderError; a silent provider times out (first byte and between chunks).
 */
import type {
  EmbeddingModelV3,
  JSONSchema7,
  LanguageModelV3,
  LanguageModelV3FunctionTool,
  LanguageModelV3Prompt,
  LanguageModelV3StreamPart,
  SharedV3ProviderOptions,
} from '@ai-sdk/provider';
import { APICallError, embedMany, RetryError } from 'ai';
import { outboundRefusal } from '../../../platform/outbound/guard';
import { startModelCallSpan, type TraceContext } from '../../../platform/tracing';
import {
  type CallLabel,
  callFailure,
  chatSpan,
  DEFAULT_TIMEOUT_MS,
  Deadline,
  httpFailure,
  jsonBody,
  networkCode,
  parsedArguments,
  unreadable,
} from './calls';
import {
  type ChatMessage,
  type ChatModel,
  type ChatRequest,
  type ChatStreamEvent,
  type EmbeddingModel,
  ProviderError,
  type ToolCall,
  type ToolSpec,
} from './types';

export { type ErrorBodyReader, readOpenAiError } from './calls';

// The SDK prints its warnings to the console, outside the JSON logs; the ones our calls raise name
// choices made here on purpose (Gemini's thought-signature stand-in for the reasoning the engine keeps
// no copy of, docs/adr/0038-providers.md).
(globalThis as { AI_SDK_LOG_WARNINGS?: boolean }).AI_SDK_LOG_WARNINGS = false;

export interface SdkModelOptions extends CallLabel {
  /** Longest wait for the provider to start answering, and between two stream chunks (default 60 s). */
  timeoutMs?: number;
  /**
   * Retries of the SDK's embedding calls on retryable failures (default 0). A chat turn is one attempt:
   * the engine decides what to retry.
   */
  maxRetries?: number;
  /** Rewrites tool call ids the provider would refuse (Mistral's must be 9 letters or digits). */
  toolCallId?: (id: string) => string;
  /**
   * The provider package's own options for a chat call (e.g. DeepSeek's thinking mode, where Ollama wants
   * temperature and the token limit).
   */
  providerOptions?: (request: ChatRequest) => SharedV3ProviderOptions;
  /**
   * The stream counts as finished only when the provider said why it stopped (Ollama's package reports a
   * stream cut before its `done` line as finished, without a reason).
   */
  finishNeedsReason?: boolean;
}

/**
 * Our messages → the provider specification's prompt, as `streamText` builds it (consecutive tool results
 * merged into one tool message). `toolCallId` maps the ids of calls and their results alike, so they still pair.
 */
export function toPrompt(
  messages: ChatMessage[],
  toolCallId: (id: string) => string = (id) => id,
): LanguageModelV3Prompt {
  const out: LanguageModelV3Prompt = [];
  for (const m of messages) {
    switch (m.role) {
      case 'system':
        out.push({ role: 'system', content: m.content });
        break;
      case 'user':
        out.push({ role: 'user', content: [{ type: 'text', text: m.content }] });
        break;
      case 'assistant': {
        const calls = m.toolCalls ?? [];
        if (!calls.length) {
          out.push({ role: 'assistant', content: [{ type: 'text', text: m.content }] });
          break;
        }
        out.push({
          role: 'assistant',
          content: [
            ...(m.content ? [{ type: 'text' as const, text: m.content }] : []),
            ...calls.map((c) => ({
              type: 'tool-call' as const,
              toolCallId: toolCallId(c.id),
              toolName: c.name,
              input: c.arguments ?? {},
            })),
          ],
        });
        break;
      }
      case 'tool': {
        const part = {
          type: 'tool-result' as const,
          toolCallId: toolCallId(m.toolCallId),
          toolName: m.name,
          output: { type: 'text' as const, value: m.content },
        };
        const prev = out[out.length - 1];
        if (prev?.role === 'tool') prev.content.push(part);
        else out.push({ role: 'tool', content: [part] });
        break;
      }
    }
  }
  return out;
}

/** Our tools → the specification's function tools (their JSON schema as the app declares it). */
export function toFunctionTools(tools: ToolSpec[] | undefined): LanguageModelV3FunctionTool[] | undefined {
  if (!tools?.length) return undefined;
  return tools.map((t) => ({
    type: 'function',
    name: t.name,
    description: t.description,
    inputSchema: t.parameters as JSONSchema7,
  }));
}

/** Any SDK or network failure → a ProviderError a console user can act on. Never includes the key. */
export function toProviderError(err: unknown, opts: CallLabel): ProviderError {
  const e = RetryError.isInstance(err) ? err.lastError : err;
  // The SDK wraps a refused or failed fetch in an APICallError: the refusal is read through it.
  if (!APICallError.isInstance(e) || outboundRefusal(e)) return callFailure(e, opts);
  const status = e.statusCode;
  // Some adapters report an unreadable first chunk as a synthetic HTTP 500.
  if (/^(JSON parsing failed|Type validation failed)/.test(e.message)) return unreadable(opts);
  if (status !== undefined && status >= 400) return httpFailure(status, jsonBody(e.responseBody), opts);
  const code = networkCode(e);
  if (status === undefined && (code || /Cannot connect to API/i.test(e.message))) {
    return new ProviderError('unavailable', `Could not reach ${opts.label}${code ? ` (${code})` : ''}.`);
  }
  // A 2xx whose body could not be read (malformed stream or JSON).
  return unreadable(opts);
}

function mapFinish(reason: string, hadToolCalls: boolean): 'stop' | 'tool_calls' | 'length' | 'other' {
  if (hadToolCalls) return 'tool_calls';
  if (reason === 'stop') return 'stop';
  if (reason === 'length') return 'length';
  if (reason === 'tool-calls') return 'tool_calls';
  return 'other';
}

/**
 * One model turn on the provider's own stream (the provider specification's `doStream`, docs/adr/0045-provider-call-on-the-models-stream.md):
 * no `streamText`, whose steps, tool runs, output parsing and per-chunk stream stages the engine has no use
 * for. The request body is the provider package's own, built from the same prompt `streamText` would pass.
 */
export class SdkChatModel implements ChatModel {
  constructor(
    private readonly model: LanguageModelV3,
    private readonly opts: SdkModelOptions,
  ) {}

  async *stream(request: ChatRequest): AsyncIterable<ChatStreamEvent> {
    if (request.signal?.aborted) throw request.signal.reason;
    const deadline = new Deadline(this.opts.timeoutMs ?? DEFAULT_TIMEOUT_MS, request.signal);
    const calls: ToolCall[] = [];
    let finished = false;
    let reader: ReadableStreamDefaultReader<LanguageModelV3StreamPart> | undefined;
    // The answer is kept only if the span records texts.
    const span = chatSpan(request, this.model.provider, this.model.modelId);
    const recording = span?.recordsContent === true;
    let answer = '';
    try {
      const tools = toFunctionTools(request.tools);
      const { stream } = await this.model.doStream({
        prompt: toPrompt(request.messages, this.opts.toolCallId),
        ...(tools ? { tools, toolChoice: { type: 'auto' as const } } : {}),
        temperature: request.temperature,
        maxOutputTokens: request.maxTokens,
        providerOptions: this.opts.providerOptions?.(request),
        abortSignal: deadline.controller.signal,
      });
      deadline.touch();
      // What the provider said last: the turn's reason and usage (none when the stream was cut).
      let end: Extract<LanguageModelV3StreamPart, { type: 'finish' }> | undefined;
      let output = false;
      reader = stream.getReader();
      for (let next = await reader.read(); !next.done; next = await reader.read()) {
        const part = next.value;
        deadline.touch();
        switch (part.type) {
          case 'text-delta':
            if (part.delta) {
              output = true;
              if (recording) answer += part.delta;
              yield { type: 'text', text: part.delta };
            }
            break;
          case 'tool-call':
            output = true;
            calls.push({ id: part.toolCallId, name: part.toolName, arguments: parsedArguments(part.input) });
            break;
          case 'error':
            throw part.error;
          case 'finish':
            end = part;
            break;
          default:
            break;
        }
      }
      // As `streamText`: a stream that ended with output but no finish part finished for an unknown reason.
      if (!end && !output) throw new ProviderError('bad_response', this.unfinished());
      const reason = end?.finishReason ?? { unified: 'other', raw: undefined };
      if (this.opts.finishNeedsReason && reason.raw === undefined) {
        throw new ProviderError('bad_response', this.unfinished());
      }
      if (reason.unified === 'error') {
        throw new ProviderError('bad_response', `${this.opts.label} ended the stream with an error.`);
      }
      const usage = {
        promptTokens: end?.usage.inputTokens.total ?? 0,
        completionTokens: end?.usage.outputTokens.total ?? 0,
      };
      const finish = mapFinish(reason.unified, calls.length > 0);
      span?.end({
        finishReason: finish,
        inputTokens: end?.usage.inputTokens.total,
        outputTokens: end?.usage.outputTokens.total,
        output: () => [{ role: 'assistant', content: answer, toolCalls: calls }],
      });
      for (const call of calls) yield { type: 'tool_call', call };
      finished = true;
      yield { type: 'finish', reason: finish, usage };
    } catch (err) {
      throw deadline.failure(err, this.opts, toProviderError, span);
    } finally {
      deadline.done();
      if (!finished) deadline.abandon(span, reader);
    }
  }

  private unfinished(): string {
    return `${this.opts.label} ended the stream without finishing.`;
  }
}

export class SdkEmbeddingModel implements EmbeddingModel {
  constructor(
    private readonly model: EmbeddingModelV3,
    readonly dimensions: number,
    private readonly opts: SdkModelOptions,
  ) {}

  async embed(texts: string[], signal?: AbortSignal, trace?: TraceContext) {
    if (signal?.aborted) throw signal.reason;
    if (texts.length === 0) return { vectors: [], usage: { tokens: 0 } };
    const deadline = new Deadline(this.opts.timeoutMs ?? DEFAULT_TIMEOUT_MS, signal);
    const span = startModelCallSpan(trace, {
      operation: 'embeddings',
      provider: this.model.provider,
      model: this.model.modelId,
      input: () => texts,
    });
    try {
      const result = await embedMany({
        model: this.model,
        values: texts,
        maxRetries: this.opts.maxRetries ?? 0,
        abortSignal: deadline.controller.signal,
      });
      for (const v of result.embeddings) {
        if (v.length !== this.dimensions) {
          throw new ProviderError(
            'bad_response',
            `${this.opts.label} returned vectors of ${v.length} dimensions; the model is configured for ${this.dimensions}.`,
          );
        }
      }
      // Gemini reports no usage for embeddings (the SDK then sums to NaN).
      const tokens = Number.isFinite(result.usage?.tokens) ? result.usage.tokens : 0;
      span?.end({ inputTokens: tokens });
      return { vectors: result.embeddings, usage: { tokens } };
    } catch (err) {
      throw deadline.failure(err, this.opts, toProviderError, span);
    } finally {
      deadline.done();
    }
  }
}
