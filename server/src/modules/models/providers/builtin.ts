/**
 * The built-in offline pair: they need no network, no key and answer deterministically, so a fresh
 * install (and every test) can run conversations and datastore search end to end.
 *
 * Offline demo chat model — NOT AI. Rules (also in the catalogue description and README.md):
 * 1. Last message is a user message `/call <tool_name> <json>` (JSON optional, must be an object):
 *    if `<tool_name>` is among the offered tools → one tool call (id `demo_call_<n>`, n = number of
 *    messages so far), finish `tool_calls`. Unknown tool or bad JSON → a text reply saying so.
 * 2. Last message(s) are tool results → `Tool <name> returned: <content>` (one line per result).
 * 3. Otherwise → `You said: <text>` plus a one-line hint, or a greeting when there is no user message.
 * Replies stream word by word (several chunks). Usage: whitespace-separated words of all input messages
 * (prompt) and of the reply or tool call (completion). `maxTokens` cuts the reply to that many words
 * (finish `length`).
 *
 * Lexical embedding model: lower-cased, accent-folded words (letters/digits); word unigrams and bigrams
 * feature-hashed (FNV-1a, signed) into 384 dimensions, L2-normalised. Deterministic; texts sharing words
 * are closer than texts that share none. A text without words embeds to the zero vector.
 */
import type { ChatModel, ChatRequest, ChatStreamEvent, EmbeddingModel, ToolCall } from './types';

export const DEMO_HINT = 'This is the offline demo model (not AI). Send /call <tool> {json} to call a tool.';

function countWords(text: string): number {
  return text.split(/\s+/).filter(Boolean).length;
}

function throwIfAborted(signal?: AbortSignal): void {
  if (signal?.aborted) throw signal.reason ?? new Error('aborted');
}

const CALL_RE = /^\/call\s+([A-Za-z0-9_.-]+)\s*([\s\S]*)$/;

type DemoTurn = { kind: 'text'; text: string } | { kind: 'call'; call: ToolCall };

function demoTurn(request: ChatRequest): DemoTurn {
  const messages = request.messages;
  const results: string[] = [];
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i]!;
    if (m.role !== 'tool') break;
    results.unshift(`Tool ${m.name} returned: ${m.content}`);
  }
  if (results.length) return { kind: 'text', text: results.join('\n') };

  const last = messages[messages.length - 1];
  if (last?.role !== 'user') {
    return { kind: 'text', text: `Hello! ${DEMO_HINT}` };
  }
  const text = last.content.trim();
  const match = CALL_RE.exec(text);
  if (!match) return { kind: 'text', text: `You said: ${text}\n${DEMO_HINT}` };

  const name = match[1]!;
  const rawArgs = match[2]!.trim();
  const offered = (request.tools ?? []).map((t) => t.name);
  if (!offered.includes(name)) {
    const list = offered.length ? offered.join(', ') : 'none';
    return { kind: 'text', text: `I cannot call "${name}": it is not offered. Available tools: ${list}.` };
  }
  let args: unknown = {};
  if (rawArgs) {
    try {
      args = JSON.parse(rawArgs);
    } catch {
      args = undefined;
    }
  }
  if (args === null || typeof args !== 'object' || Array.isArray(args)) {
    return { kind: 'text', text: `I cannot call "${name}": the arguments must be a JSON object.` };
  }
  return { kind: 'call', call: { id: `demo_call_${messages.length}`, name, arguments: args } };
}

function promptWords(request: ChatRequest): number {
  let n = 0;
  for (const m of request.messages) {
    n += countWords(m.content);
    if (m.role === 'assistant')
      for (const c of m.toolCalls ?? []) n += countWords(JSON.stringify(c.arguments));
  }
  return n;
}

export class OfflineDemoChatModel implements ChatModel {
  constructor(private readonly opts: { chunkDelayMs?: number } = {}) {}

  async *stream(request: ChatRequest): AsyncIterable<ChatStreamEvent> {
    throwIfAborted(request.signal);
    const turn = demoTurn(request);
    const promptTokens = promptWords(request);
    if (turn.kind === 'call') {
      yield { type: 'tool_call', call: turn.call };
      yield {
        type: 'finish',
        reason: 'tool_calls',
        usage: {
          promptTokens,
          completionTokens: countWords(`${turn.call.name} ${JSON.stringify(turn.call.arguments)}`),
        },
      };
      return;
    }
    // Word-sized chunks that keep their trailing whitespace, so joining them gives the reply back.
    let pieces: string[] = turn.text.match(/\s*\S+\s*/g) ?? [turn.text];
    let reason: 'stop' | 'length' = 'stop';
    if (request.maxTokens !== undefined && pieces.length > request.maxTokens) {
      pieces = pieces.slice(0, Math.max(0, request.maxTokens));
      reason = 'length';
    }
    for (const piece of pieces) {
      await new Promise((resolve) =>
        this.opts.chunkDelayMs ? setTimeout(resolve, this.opts.chunkDelayMs) : setImmediate(resolve),
      );
      throwIfAborted(request.signal);
      yield { type: 'text', text: piece };
    }
    yield { type: 'finish', reason, usage: { promptTokens, completionTokens: countWords(pieces.join('')) } };
  }
}

const LEXICAL_DIMENSIONS = 384;

function fnv1a(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

export function lexicalWords(text: string): string[] {
  return (
    text
      .normalize('NFKD')
      .replace(/\p{M}+/gu, '')
      .toLowerCase()
      .match(/[\p{L}\p{N}]+/gu) ?? []
  );
}

export function lexicalVector(text: string, dims = LEXICAL_DIMENSIONS): number[] {
  const v = new Array<number>(dims).fill(0);
  const words = lexicalWords(text);
  const add = (feature: string, weight: number) => {
    const h = fnv1a(feature);
    v[h % dims]! += (h & 0x80000000 ? -1 : 1) * weight;
  };
  for (let i = 0; i < words.length; i++) {
    add(`u:${words[i]}`, 1);
    if (i + 1 < words.length) add(`b:${words[i]} ${words[i + 1]}`, 0.5);
  }
  const norm = Math.sqrt(v.reduce((s, x) => s + x * x, 0));
  return norm === 0 ? v : v.map((x) => x / norm);
}

export class LexicalEmbeddingModel implements EmbeddingModel {
  readonly dimensions = LEXICAL_DIMENSIONS;

  async embed(texts: string[], signal?: AbortSignal) {
    throwIfAborted(signal);
    return {
      vectors: texts.map((t) => lexicalVector(t, this.dimensions)),
      usage: { tokens: texts.reduce((n, t) => n + lexicalWords(t).length, 0) },
    };
  }
}
