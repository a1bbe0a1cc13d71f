/**
 * The responder of `silicon` apps: the app's `silicon` parameter (Lua) answers every user message.
 *
 * The engine calls `on_message(ctx)` with `ctx = {message, messages, state, parameters}`:
 * `message` the user's text, `messages` the stored conversation oldest first (`{role, message}`, the new
 * message last), `state` the conversation state, `parameters` the conversation's parameters.
 * Host API (besides the sandbox's `json`, `log`, `print`, `breakpoint`):
 * - `llm.complete{messages?, prompt?, system?, temperature?, max_tokens?}` (or `llm.complete("prompt")`)
 *   → the full text of the app's completion model. `messages` items are `{role, content}` (or `message`,
 *   so `ctx.messages` can be passed as is; its tool and error messages are skipped). Usage is recorded.
 *   An outside caller's instructions for the reply (ADR 0024) follow the script's leading system messages.
 *   Each call is admitted first against the reply's caps and the plan (ADR 0021); a refused call is a Lua
 *   error (catchable with `pcall`) and the model is not asked.
 * - `relay.emit(type, data)` → a relay `message` of that custom type to the room (engine types are reserved).
 * - `state.get()`, `state.set(obj)`, `state.patch(patches)` → the durable conversation state (`state_change`).
 * - `debug(key, value)` → a relay `debug` event `{key: value}`.
 * - `datastore.search(name, query, k)` → the hits `{id, document, score, source}` of the app's datastore `name`
 *   (hybrid search, k default 5, at most 50); an unknown name is a Lua error. Its query embedding is a
 *   provider call of the reply, admitted like `llm.complete`'s.
 * - `functions.<function_key>(args)` → runs an installed function with the app's config for it and returns
 *   its result (a failure is a Lua error naming the line); stored as a function run of the conversation and
 *   announced with `function_call.begin` / `.end`. Keys starting with a digit are not exposed.
 * - `clock.now()` (ISO 8601 UTC) / `clock.ms()`.
 * The run ends after `SILICON_RUN_WALL_MS` of wall time, host waits included (ADR 0021).
 * What `on_message` returns is the reply: a string as is, anything else as JSON, nil for no reply. It is
 * streamed as one `completion_stream` chunk and stored as the assistant message. A failed run (any status
 * but 1) becomes an error-role message such as `Line 3: attempt to index a nil value (local 'x')`.
 */
import { isPlainObject, SEARCH_K_MAX } from '@llmor/contracts';
import { getConversationState } from '../conversations/state';
import { type InstalledFunctionRow, listInstalledFunctions } from '../functions/repo';
import {
  baseHost,
  failureText,
  type HostFunctions,
  nestedSiliconPool,
  runAndStore,
  siliconPool,
} from '../functions/sandbox';
import type { ChatMessage, ChatModel, Usage } from '../models/providers/types';
import { ProviderError } from '../models/providers/types';
import { NO_MODEL_TEXT, recordUsage } from './chat';
import { temperatureOf, withInstructions } from './input';
import { findVendorModel, type VendorModelRow } from './repo';
import { abortable, raceAbort } from './stream';
import { ReplyError, type Responder, type Turn } from './types';

export const NO_SCRIPT_TEXT = 'This silicon app has no script. Add one in the app settings.';

const LUA_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

function llmComplete(turn: Turn) {
  let model: { row: VendorModelRow; chat: ChatModel } | undefined;
  const resolve = async () => {
    if (model) return model;
    const { ctx, app } = turn;
    const row = app.completionVendorModelId
      ? await findVendorModel(ctx.db, app.vendorId, app.completionVendorModelId)
      : null;
    if (!row) throw new Error(NO_MODEL_TEXT);
    model = { row, chat: await turn.engine.resolveModel(ctx, row) };
    return model;
  };

  return async (request: unknown): Promise<string> => {
    const req = typeof request === 'string' ? { prompt: request } : request;
    if (!isPlainObject(req)) {
      throw new Error('llm.complete: expected a table {messages?, prompt?, system?, temperature?}');
    }
    const messages: ChatMessage[] = [];
    if (req.system !== undefined) {
      if (typeof req.system !== 'string') throw new Error('llm.complete: system must be a string');
      messages.push({ role: 'system', content: req.system });
    }
    if (req.messages !== undefined) {
      if (!Array.isArray(req.messages)) throw new Error('llm.complete: messages must be a list');
      req.messages.forEach((m, i) => {
        const where = `llm.complete: messages[${i + 1}]`;
        if (!isPlainObject(m)) throw new Error(`${where} must be a table {role, content}`);
        if (m.role === 'tool' || m.role === 'error') return;
        if (m.role !== 'system' && m.role !== 'user' && m.role !== 'assistant') {
          throw new Error(`${where}.role must be system, user or assistant`);
        }
        const content = m.content ?? m.message;
        if (typeof content !== 'string') throw new Error(`${where}.content must be a string`);
        messages.push({ role: m.role, content });
      });
    }
    if (req.prompt !== undefined) {
      if (typeof req.prompt !== 'string') throw new Error('llm.complete: prompt must be a string');
      messages.push({ role: 'user', content: req.prompt });
    }
    if (!messages.some((m) => m.role !== 'system'))
      throw new Error('llm.complete: give a prompt or messages');
    const temperature = req.temperature ?? temperatureOf(turn.app.parameters);
    if (temperature !== undefined && (typeof temperature !== 'number' || !Number.isFinite(temperature))) {
      throw new Error('llm.complete: temperature must be a number');
    }
    const maxTokens = req.max_tokens;
    if (maxTokens !== undefined && (!Number.isInteger(maxTokens) || (maxTokens as number) < 1)) {
      throw new Error('llm.complete: max_tokens must be a positive whole number');
    }

    const { row, chat } = await resolve();
    await turn.meter.admit();
    const input = withInstructions(messages, turn.instructions);
    let text = '';
    let usage: Usage | null = null;
    try {
      const stream = chat.stream({
        messages: input,
        ...(temperature === undefined ? {} : { temperature: temperature as number }),
        ...(maxTokens === undefined ? {} : { maxTokens: maxTokens as number }),
        signal: turn.signal,
        trace: turn.trace,
      });
      for await (const event of abortable(stream, turn.signal)) {
        if (event.type === 'text') text += event.text;
        else if (event.type === 'finish') usage = event.usage;
      }
    } catch (err) {
      if (err instanceof ProviderError) throw new Error(`The model could not answer: ${err.message}`);
      throw err;
    }
    if (usage) await recordUsage(turn, row, usage);
    return text;
  };
}

function functionsHost(
  turn: Turn,
  installed: InstalledFunctionRow[],
  host: (fn: InstalledFunctionRow) => HostFunctions,
): HostFunctions {
  const out: HostFunctions = {};
  let seq = 0;
  for (const fn of installed) {
    if (!LUA_NAME.test(fn.functionKey)) continue;
    const name = `functions.${fn.functionKey}`;
    out[name] = async (args: unknown) => {
      const input = args ?? {};
      if (!isPlainObject(input)) throw new Error(`${name}: the arguments must be a table (a JSON object)`);
      const id = `silicon_${turn.userMessage.id}_${++seq}`;
      turn.emit({ kind: 'tool_call_begin', id, name: fn.functionKey, arguments: input });
      const { result: r } = await runAndStore(turn.ctx, fn, {
        code: fn.code,
        arguments: input,
        config: isPlainObject(fn.config) ? fn.config : {},
        host: host(fn),
        conversationId: turn.conversation.id,
        pool: nestedSiliconPool(),
        trace: turn.trace,
      });
      turn.emit({
        kind: 'tool_call_end',
        id,
        name: fn.functionKey,
        result: r.status === 1 ? (r.result ?? null) : { error: failureText(r) },
        status: r.status,
      });
      if (r.status !== 1) throw new Error(`${name}: ${failureText(r)}`);
      return r.result ?? null;
    };
  }
  return out;
}

/** Host functions refuse to start once the reply was stopped (timeout, shutdown). */
function guarded(host: HostFunctions, signal: AbortSignal): HostFunctions {
  const out: HostFunctions = {};
  for (const [name, fn] of Object.entries(host)) {
    out[name] = (...args: unknown[]) => {
      if (signal.aborted) {
        const reason = signal.reason;
        throw new Error(reason instanceof Error ? reason.message : 'The reply was stopped.');
      }
      return fn(...args);
    };
  }
  return out;
}

function replyText(result: unknown): string | null {
  if (result === null || result === undefined) return null;
  if (typeof result === 'string') return result;
  return JSON.stringify(result);
}

export const siliconResponder: Responder = async (replyTurn) => {
  const { ctx, app, conversation } = replyTurn;
  // Host calls in flight end with the run: a run stopped at its wall time leaves no model call running.
  const runEnded = new AbortController();
  const signal = AbortSignal.any([replyTurn.signal, runEnded.signal]);
  const turn: Turn = { ...replyTurn, signal };
  const params = isPlainObject(app.parameters) ? app.parameters : {};
  const code = typeof params.silicon === 'string' ? params.silicon : '';
  if (code.trim() === '') throw new ReplyError(NO_SCRIPT_TEXT);

  const target = { id: conversation.id, vendorId: conversation.vendorId, token: conversation.token };
  const [installed, state] = await Promise.all([
    listInstalledFunctions(ctx.db, app.vendorId, app.id),
    getConversationState(ctx, target),
  ]);
  const common = () => baseHost({ ctx, target, emit: turn.custom });
  const host = guarded(
    {
      ...common(),
      'llm.complete': llmComplete(turn),
      debug: (key: unknown, value: unknown) => {
        if (typeof key !== 'string' || key === '')
          throw new Error('debug: the key must be a non-empty string');
        turn.debug({ [key]: value ?? null });
        return null;
      },
      'datastore.search': async (name: unknown, query: unknown, k: unknown) => {
        if (typeof name !== 'string' || name === '')
          throw new Error('datastore.search: name must be a string');
        if (typeof query !== 'string') throw new Error('datastore.search: query must be a string');
        const count = k === undefined || k === null ? 5 : Number(k);
        if (!Number.isInteger(count) || count < 1 || count > SEARCH_K_MAX) {
          throw new Error(`datastore.search: k must be a whole number from 1 to ${SEARCH_K_MAX}`);
        }
        const hits = await turn.engine.knowledge.search({
          app,
          name,
          query,
          k: count,
          meter: turn.meter,
          trace: turn.trace,
        });
        if (hits === null) throw new Error(`datastore.search: this app has no datastore named '${name}'`);
        return hits;
      },
      ...functionsHost(turn, installed, common),
    },
    signal,
  );
  const luaCtx = {
    message: turn.userMessage.message ?? '',
    messages: turn.history.map((m) => ({ role: m.role, message: m.message ?? '' })),
    state,
    parameters: isPlainObject(conversation.parameters) ? conversation.parameters : {},
  };
  turn.debug({ silicon_functions: Object.keys(host).filter((n) => n.startsWith('functions.')) });

  // Host waits count (ADR 0021): a run that only waits on the model still ends, and frees its worker.
  const wallMs = Math.min(ctx.config.SILICON_RUN_WALL_MS, ctx.config.COMPLETION_TIMEOUT_MS);
  const r = await raceAbort(
    siliconPool().run({
      code,
      entry: 'on_message',
      args: [luaCtx],
      host,
      limits: { wallMs },
      tenant: app.vendorId,
    }),
    replyTurn.signal,
  ).finally(() => runEnded.abort(new ReplyError('The silicon run has ended.')));
  turn.debug({
    silicon_status: r.status,
    silicon_took: r.took,
    silicon_memory: r.memory,
    ...(r.console.length > 0 ? { silicon_console: r.console } : {}),
  });
  if (r.status !== 1) throw new ReplyError(failureText(r));
  const reply = replyText(r.result);
  if (reply === null) return;
  if (reply !== '') turn.emit({ kind: 'text', chunk: reply });
  turn.conclude({ role: 'assistant', creator: 'system', message: reply });
};
