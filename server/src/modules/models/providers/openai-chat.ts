/**
 * An OpenAI-compatible server's chat completions, streamed and read straight off the answer's body
 * (docs/adr/0052-openai-protocol-read-directly.md): one SSE parser and `JSON.parse` per chunk, where the AI
 * SDK's package passed each chunk through five web streams and a schema. The request is the one the
 * `@ai-sdk/openai-compatible` package sends for the same call; failures read as `sdk.ts`'s do.
 */
import {
  type CallLabel,
  callFailure,
  chatSpan,
  DEFAULT_TIMEOUT_MS,
  Deadline,
  httpFailure,
  jsonBody,
  parsedArguments,
  streamedFailure,
  unreadable,
} from './calls';
import type { ChatMessage, ChatModel, ChatRequest, ChatStreamEvent, ToolCall, ToolSpec } from './types';

export interface OpenAiChatOptions extends CallLabel {
  baseURL: string;
  /** Sent as a bearer token when set. */
  apiKey?: string;
  model: string;
  /** The outbound guard's `fetch` (ADR 0020). */
  fetch: typeof fetch;
  /** Longest wait for the server to start answering, and between two chunks (default 60 s). */
  timeoutMs?: number;
}

/** Our messages in the chat completions' format, as the OpenAI-compatible package writes them. */
function messagesOf(messages: ChatMessage[]) {
  return messages.map((m) => {
    switch (m.role) {
      case 'system':
      case 'user':
        return { role: m.role, content: m.content };
      case 'assistant': {
        const calls = m.toolCalls ?? [];
        if (!calls.length) return { role: 'assistant', content: m.content };
        return {
          role: 'assistant',
          content: m.content || null,
          tool_calls: calls.map((c) => ({
            id: c.id,
            type: 'function',
            function: { name: c.name, arguments: JSON.stringify(c.arguments ?? {}) },
          })),
        };
      }
      default:
        return { role: 'tool', tool_call_id: m.toolCallId, content: m.content };
    }
  });
}

function toolsOf(tools: ToolSpec[] | undefined) {
  if (!tools?.length) return undefined;
  return tools.map((t) => ({
    type: 'function',
    function: { name: t.name, description: t.description, parameters: t.parameters },
  }));
}

/** The chat completions' finish reasons → ours (a turn that called tools finished for them). */
function finishOf(
  reason: string | undefined,
  hadToolCalls: boolean,
): 'stop' | 'tool_calls' | 'length' | 'other' {
  if (hadToolCalls || reason === 'tool_calls' || reason === 'function_call') return 'tool_calls';
  if (reason === 'stop' || reason === 'length') return reason;
  return 'other';
}

/** A piece of a tool call: the first of its index names it, the rest add to its arguments. */
interface ToolCallDelta {
  index: number;
  id?: string;
  function?: { name?: string; arguments?: string };
}

/** One streamed chunk of the chat completions, as far as a turn reads it. */
interface Chunk {
  choices?: {
    delta?: { content?: string | null; tool_calls?: ToolCallDelta[] } | null;
    finish_reason?: string | null;
  }[];
  usage?: { prompt_tokens?: number; completion_tokens?: number } | null;
  error?: { message?: unknown };
}

/** A tool call as its deltas arrive, by index. */
interface PendingCall {
  id: string;
  name: string;
  input: string;
}

/**
 * The SSE events of a body read in pieces: complete lines only, `data:` fields joined, an event ending at
 * a blank line (the WHATWG event stream's rules; comments and other fields are skipped).
 */
class EventStreamReader {
  private rest = '';
  private data: string[] = [];

  /** The events completed by this piece of text. */
  push(text: string): string[] {
    const events: string[] = [];
    const all = this.rest + text;
    let start = 0;
    for (let end = all.indexOf('\n', start); end !== -1; end = all.indexOf('\n', start)) {
      const line = all.charCodeAt(end - 1) === 13 ? all.slice(start, end - 1) : all.slice(start, end);
      start = end + 1;
      if (line === '') {
        if (this.data.length) events.push(this.data.join('\n'));
        this.data = [];
      } else if (line.startsWith('data:')) {
        this.data.push(line.charCodeAt(5) === 32 ? line.slice(6) : line.slice(5));
      }
    }
    this.rest = all.slice(start);
    return events;
  }

  /** What is left when the body ended (an event not followed by its blank line still counts). */
  end(): string[] {
    const events = this.push('\n\n');
    this.rest = '';
    return events;
  }
}

export class OpenAiChatModel implements ChatModel {
  private readonly url: string;

  constructor(private readonly opts: OpenAiChatOptions) {
    this.url = `${opts.baseURL.replace(/\/+$/, '')}/chat/completions`;
  }

  async *stream(request: ChatRequest): AsyncIterable<ChatStreamEvent> {
    if (request.signal?.aborted) throw request.signal.reason;
    const deadline = new Deadline(this.opts.timeoutMs ?? DEFAULT_TIMEOUT_MS, request.signal);
    let finished = false;
    let reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
    // The answer is kept only if the span records texts.
    const span = chatSpan(request, 'openai-compatible.chat', this.opts.model);
    const recording = span?.recordsContent === true;
    let answer = '';
    try {
      const tools = toolsOf(request.tools);
      const res = await this.opts.fetch(this.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(this.opts.apiKey ? { authorization: `Bearer ${this.opts.apiKey}` } : {}),
        },
        body: JSON.stringify({
          model: this.opts.model,
          max_tokens: request.maxTokens,
          temperature: request.temperature,
          messages: messagesOf(request.messages),
          tools,
          tool_choice: tools ? 'auto' : undefined,
          stream: true,
          stream_options: { include_usage: true },
        }),
        signal: deadline.controller.signal,
      });
      if (!res.ok) throw httpFailure(res.status, jsonBody(await res.text()), this.opts);
      if (!res.body) throw unreadable(this.opts);
      deadline.touch();
      const calls = new Map<number, PendingCall>();
      let reason: string | undefined;
      let usage: Chunk['usage'];
      const events = new EventStreamReader();
      const decoder = new TextDecoder();
      reader = res.body.getReader();
      for (let done = false; !done; ) {
        const next = await reader.read();
        deadline.touch();
        done = next.done;
        const texts = done ? events.end() : events.push(decoder.decode(next.value, { stream: true }));
        for (const data of texts) {
          if (data === '[DONE]') continue;
          const chunk = this.parse(data);
          if (chunk.usage) usage = chunk.usage;
          const choice = chunk.choices?.[0];
          if (!choice) continue;
          if (choice.finish_reason) reason = choice.finish_reason;
          const delta = choice.delta;
          if (delta?.content) {
            if (recording) answer += delta.content;
            yield { type: 'text', text: delta.content };
          }
          for (const part of delta?.tool_calls ?? []) this.addToolCall(calls, part);
        }
      }
      // As the OpenAI-compatible package read it: a stream that ended without saying why (cut, or not an
      // event stream at all) could not be read, whatever text it brought.
      if (!reason) throw unreadable(this.opts);
      const toolCalls: ToolCall[] = [...calls.values()].map((c) => ({
        id: c.id,
        name: c.name,
        arguments: parsedArguments(c.input),
      }));
      const finish = finishOf(reason, toolCalls.length > 0);
      const tokens = {
        promptTokens: usage?.prompt_tokens ?? 0,
        completionTokens: usage?.completion_tokens ?? 0,
      };
      span?.end({
        finishReason: finish,
        inputTokens: usage?.prompt_tokens,
        outputTokens: usage?.completion_tokens,
        output: () => [{ role: 'assistant', content: answer, toolCalls }],
      });
      for (const call of toolCalls) yield { type: 'tool_call', call };
      finished = true;
      yield { type: 'finish', reason: finish, usage: tokens };
    } catch (err) {
      throw deadline.failure(err, this.opts, callFailure, span);
    } finally {
      deadline.done();
      if (!finished) deadline.abandon(span, reader);
    }
  }

  /** One event's JSON: a chunk, or the server's error inside the stream. */
  private parse(data: string): Chunk {
    let chunk: Chunk;
    try {
      chunk = JSON.parse(data) as Chunk;
    } catch {
      throw unreadable(this.opts);
    }
    if (!chunk || typeof chunk !== 'object') throw unreadable(this.opts);
    if (chunk.error) {
      const message = chunk.error.message;
      throw typeof message === 'string' && message
        ? streamedFailure(message, this.opts)
        : unreadable(this.opts);
    }
    const choice = chunk.choices?.[0];
    if (chunk.choices !== undefined && !Array.isArray(chunk.choices)) throw unreadable(this.opts);
    const content = choice?.delta?.content;
    if (content !== undefined && content !== null && typeof content !== 'string') throw unreadable(this.opts);
    const calls = choice?.delta?.tool_calls;
    if (calls !== undefined && calls !== null && !Array.isArray(calls)) throw unreadable(this.opts);
    const reason = choice?.finish_reason;
    if (reason !== undefined && reason !== null && typeof reason !== 'string') throw unreadable(this.opts);
    // Usage is billed: a count that is not a number is no count.
    const { prompt_tokens: prompt, completion_tokens: completion } = chunk.usage ?? {};
    for (const count of [prompt, completion]) {
      if (count !== undefined && count !== null && !Number.isFinite(count)) throw unreadable(this.opts);
    }
    return chunk;
  }

  /** A tool call's delta: the first of an index names it (id and name), the rest add to its arguments. */
  private addToolCall(calls: Map<number, PendingCall>, part: ToolCallDelta) {
    const known = calls.get(part.index);
    const input = part.function?.arguments ?? '';
    if (typeof part.index !== 'number' || typeof input !== 'string') throw unreadable(this.opts);
    if (known) {
      known.input += input;
      return;
    }
    if (typeof part.id !== 'string' || typeof part.function?.name !== 'string') throw unreadable(this.opts);
    calls.set(part.index, { id: part.id, name: part.function.name, input });
  }
}
