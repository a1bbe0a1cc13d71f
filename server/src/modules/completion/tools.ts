/**
 * The engine's default ToolProvider: an app's installed functions (app_functions + functions, config per
 * app) offered to the model as tools and run in the silicon sandbox. Every call is stored as a function
 * run with the conversation's id.
 *
 * Lua host API of a tool run: `run(args, config)` with the app's config for the function, plus
 * `state.get()` / `state.set(obj)` / `state.patch(patches)` (the conversation's durable state; changes
 * reach the room as `state_change`), `relay.emit(type, data)` (a custom relay message) and
 * `clock.now()` / `clock.ms()`.
 */
import { isPlainObject } from '@llmor/contracts';
import type { AppContext } from '../../platform/context';
import { inSpan } from '../../platform/tracing';
import { listInstalledFunctions } from '../functions/repo';
import { baseHost, failureText, runAndStore } from '../functions/sandbox';
import type { ToolCall, ToolSpec } from '../models/providers/types';
import type { ToolContext, ToolProvider, ToolResult } from './types';

/** A function's argument schema as tool parameters; anything that is not an object schema → any object. */
export function toolParameters(argumentSchema: unknown): Record<string, unknown> {
  if (
    isPlainObject(argumentSchema) &&
    (argumentSchema.type === undefined || argumentSchema.type === 'object')
  ) {
    return { ...argumentSchema, type: 'object', properties: argumentSchema.properties ?? {} };
  }
  return { type: 'object', properties: {} };
}

/** What the model sees of a failed run: the error with its line, so it can correct itself. */
function failedToolResult(r: Parameters<typeof failureText>[0]): { error: string } {
  return { error: failureText(r) };
}

export const functionTools: ToolProvider = {
  async list(ctx: AppContext, app, installed): Promise<ToolSpec[]> {
    const rows = installed ?? (await listInstalledFunctions(ctx.db, app.vendorId, app.id));
    return rows.map((f) => ({
      name: f.functionKey,
      description: f.description.trim() || f.name,
      parameters: toolParameters(f.argumentSchema),
    }));
  },

  execute(call, turn): Promise<ToolResult> {
    // GenAI semantic conventions' tool span; the arguments and result stay out (docs/adr/0040-traces.md).
    return inSpan(
      `execute_tool ${call.name}`,
      {
        'gen_ai.operation.name': 'execute_tool',
        'gen_ai.tool.name': call.name,
        'gen_ai.tool.call.id': call.id,
        'gen_ai.tool.type': 'function',
      },
      turn.trace,
      (trace) => runTool(call, { ...turn, trace }),
    );
  },
};

async function runTool(
  call: ToolCall,
  { ctx, app, conversation, emit, trace }: ToolContext,
): Promise<ToolResult> {
  const rows = await listInstalledFunctions(ctx.db, app.vendorId, app.id);
  const fn = rows.find((f) => f.functionKey === call.name);
  if (!fn) return { result: { error: `Unknown function '${call.name}'` }, status: -1 };
  if (!isPlainObject(call.arguments)) {
    return { result: { error: 'The arguments must be a JSON object.' }, status: -1 };
  }
  const { result: r } = await runAndStore(ctx, fn, {
    code: fn.code,
    arguments: call.arguments,
    config: isPlainObject(fn.config) ? fn.config : {},
    host: baseHost({
      ctx,
      target: { id: conversation.id, vendorId: conversation.vendorId, token: conversation.token },
      emit,
    }),
    conversationId: conversation.id,
    trace,
  });
  if (r.status === 1) return { result: r.result ?? null, status: 1 };
  return { result: failedToolResult(r), status: r.status };
}
