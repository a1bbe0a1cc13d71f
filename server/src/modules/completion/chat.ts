import type { MessageSource } from '@llmor/contracts';
import type { NewMessage } from '../conversations/repo';
import type { ChatMessage, ToolCall, Usage } from '../models/providers/types';
import { chatInput, oneshotInput, retrievalOf, temperatureOf, withInstructions, withPassages } from './input';
import { type FinalUsage, findVendorModel, insertUsage, type VendorModelRow } from './repo';
import { abortable, raceAbort } from './stream';
import { type Passage, ReplyError, type Responder, type ToolResult, type Turn } from './types';

/** Tool-call rounds one reply may run before the engine stops it with an error message. */
export const MAX_TOOL_ROUNDS = 5;
export const NO_MODEL_TEXT = 'This app has no completion model. Choose one in the app settings.';
export const TOO_MANY_ROUNDS_TEXT = `The model kept calling functions; the reply was stopped after ${MAX_TOOL_ROUNDS} rounds.`;

/** cost = tokens / 1000 × the model's cost per 1k tokens (minor units), rounded. */
function usageCost(usage: Usage, costPer1kMinor: number): number {
  return Math.round(((usage.promptTokens + usage.completionTokens) / 1000) * costPer1kMinor);
}

function toJsonText(value: unknown): string {
  try {
    return JSON.stringify(value ?? null);
  } catch {
    return JSON.stringify({ error: 'The function result is not JSON-serialisable.' });
  }
}

/** A model request's usage as a usage record; counted in the reply's tokens and shown as debug data. */
function usageRecord(turn: Turn, model: VendorModelRow, usage: Usage): FinalUsage {
  const cost = usageCost(usage, model.costPer1kMinor);
  turn.usage.promptTokens += usage.promptTokens;
  turn.usage.completionTokens += usage.completionTokens;
  turn.debug({
    tokens_prompt: usage.promptTokens,
    tokens_completion: usage.completionTokens,
    cost_minor: cost,
  });
  return {
    record: {
      appId: turn.app.id,
      vendorModelId: model.id,
      conversationId: turn.conversation.id,
      tokensPrompt: usage.promptTokens,
      tokensCompletion: usage.completionTokens,
      costMinor: cost,
    },
  };
}

/** Stores a model request's usage now: a later request of the reply must see its tokens on the plan. */
export async function recordUsage(turn: Turn, model: VendorModelRow, usage: Usage): Promise<void> {
  const { record } = usageRecord(turn, model, usage);
  await insertUsage(turn.ctx.db, turn.app.vendorId, record);
  await turn.meter.spent(usage.promptTokens + usage.completionTokens);
}

/** The reply's answer and its last request's usage, stored by the reply's last statement. */
function concludeWith(turn: Turn, message: NewMessage, model?: VendorModelRow, usage?: Usage | null) {
  turn.conclude(message, model && usage ? usageRecord(turn, model, usage) : undefined);
}

async function executeTool(turn: Turn, call: ToolCall): Promise<ToolResult> {
  const { ctx, app, conversation, signal, trace } = turn;
  try {
    return await raceAbort(
      turn.engine.tools.execute(call, { ctx, app, conversation, signal, trace, emit: turn.custom }),
      signal,
    );
  } catch (err) {
    if (signal.aborted) throw err;
    ctx.log.warn({ err, call: call.name }, 'tool call failed');
    return { result: { error: `The function '${call.name}' failed.` }, status: -1 };
  }
}

/**
 * Streams the app's completion model, running tool calls in rounds: each round emits
 * `function_call.begin`/`.end` per call, stores the tool messages, then `function_call_iteration`, and
 * asks the model again with the results. Text is streamed as `completion_stream` chunks.
 */
/** What a responder asks the model, and the datastore passages its answer keeps as sources. */
interface ModelInput {
  messages: ChatMessage[];
  sources?: MessageSource[];
}

function modelResponder(buildInput: (turn: Turn) => ModelInput | Promise<ModelInput>): Responder {
  return async (turn) => {
    const { ctx, app, signal } = turn;
    const modelRow =
      turn.model ??
      (app.completionVendorModelId
        ? await findVendorModel(ctx.db, app.vendorId, app.completionVendorModelId)
        : null);
    if (!modelRow) throw new ReplyError(NO_MODEL_TEXT);
    const model = await turn.engine.resolveModel(ctx, modelRow);
    const tools = await turn.engine.tools.list(ctx, app, turn.installed);
    const temperature = temperatureOf(app.parameters);
    const input = await buildInput(turn);
    const messages = withInstructions(input.messages, turn.instructions);
    const sources = input.sources ?? [];
    const answerOf = (message: string): NewMessage => ({
      role: 'assistant',
      creator: 'system',
      message,
      sources,
    });
    const answer = (message: string) => turn.store(answerOf(message));
    turn.debug({ model: modelRow.name, model_key: modelRow.modelKey, tools: tools.map((t) => t.name) });

    for (let round = 0; ; round++) {
      let text = '';
      const calls: ToolCall[] = [];
      let usage: Usage | null = null;
      await turn.meter.admit();
      try {
        const stream = model.stream({
          messages: [...messages],
          ...(tools.length ? { tools } : {}),
          ...(temperature === undefined ? {} : { temperature }),
          signal,
          trace: turn.trace,
        });
        for await (const event of abortable(stream, signal)) {
          if (event.type === 'text') {
            if (!event.text) continue;
            text += event.text;
            turn.emit({ kind: 'text', chunk: event.text });
          } else if (event.type === 'tool_call') calls.push(event.call);
          else if (event.type === 'finish') usage = event.usage;
        }
      } catch (err) {
        // Keep what the user already saw.
        if (text) await answer(text);
        throw err;
      }
      if (calls.length === 0) {
        concludeWith(turn, answerOf(text), modelRow, usage);
        return;
      }
      if (usage) await recordUsage(turn, modelRow, usage);
      if (round >= MAX_TOOL_ROUNDS) {
        if (text) await answer(text);
        throw new ReplyError(TOO_MANY_ROUNDS_TEXT);
      }
      await turn.store({ role: 'assistant', creator: 'system', message: text, functionCalls: calls });
      messages.push({ role: 'assistant', content: text, toolCalls: calls });
      for (const call of calls) {
        turn.emit({ kind: 'tool_call_begin', id: call.id, name: call.name, arguments: call.arguments });
        const outcome = await executeTool(turn, call);
        turn.emit({
          kind: 'tool_call_end',
          id: call.id,
          name: call.name,
          result: outcome.result,
          status: outcome.status,
        });
        const content = toJsonText(outcome.result);
        await turn.store({ role: 'tool', creator: 'system', message: content, functionResponse: call.id });
        messages.push({ role: 'tool', toolCallId: call.id, name: call.name, content });
      }
      turn.emit({ kind: 'iteration', iteration: round + 1 });
    }
  };
}

/**
 * chatbot and generic apps: system prompt, sample conversation, history; with `use_datastores`, the
 * passages retrieved for the user's message join the system prompt and are reported as debug data.
 */
export const chatResponder: Responder = modelResponder(async (turn) => {
  const messages = chatInput(turn.app.parameters, turn.history);
  const retrieval = retrievalOf(turn.app.parameters);
  if (!retrieval) return { messages };
  const query = turn.userMessage.message ?? '';
  const passages = query.trim()
    ? await turn.engine.knowledge.retrieve({
        app: turn.app,
        names: retrieval.names,
        query,
        k: retrieval.topK,
        signal: turn.signal,
        meter: turn.meter,
        trace: turn.trace,
      })
    : [];
  turn.debug({ datastore_passages: passages });
  return { messages: withPassages(messages, passages), sources: passages.map(messageSource) };
});

const messageSource = (p: Passage): MessageSource => ({
  datastore: p.datastore,
  document_id: p.id,
  text: p.text,
  score: p.score,
  source: p.source,
});

/** oneshot apps: the prompt template around the user's message, no history. */
export const oneshotResponder: Responder = modelResponder((turn) => ({
  messages: oneshotInput(turn.app.parameters, turn.conversation.parameters, turn.userMessage.message ?? ''),
}));
