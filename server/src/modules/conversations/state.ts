import { jsonInputProblem, jsonPatch, message } from '@llmor/contracts';
import type { AppContext } from '../../platform/context';
import { applyPatch, deepClone, type Operation, validate as validatePatch } from '../../platform/json-patch';
import { changeState, readState } from './repo';

/**
 * Conversation state: an arbitrary JSON object per conversation, durable in `conversations.state`,
 * counted by `state_version`. Every change goes through here — the relay handlers and Lua
 * `state.set/patch` (functions/sandbox.ts) — and is announced to the room with `state_change`.
 */

/** A state change that cannot be applied; its message is what `state_err` carries. */
export class StateError extends Error {
  override name = 'StateError';
}

export interface StateTarget {
  id: number;
  vendorId: number;
  token: string;
}

/** Plain JSON only (no binary, no class instances); called after `checkJsonInput`, so its depth is bounded. */
function isJsonValue(value: unknown): boolean {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return true;
  if (typeof value === 'number') return Number.isFinite(value);
  if (Array.isArray(value)) return value.every(isJsonValue);
  if (typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.values(value as object).every(isJsonValue);
  }
  return false;
}

/** Refuses what no state may hold: nesting past the limit, text the database cannot store (docs/adr/0022). */
function checkJsonInput(value: unknown): void {
  const problem = jsonInputProblem(value);
  if (problem) throw new StateError(problem.message);
}

/** The state if it is a JSON object within `maxBytes`; otherwise a StateError saying why. */
function checkState(value: unknown, maxBytes: number): Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new StateError(message('stateNotObject'));
  }
  checkJsonInput(value);
  if (!isJsonValue(value)) throw new StateError(message('stateNotJson'));
  if (Buffer.byteLength(JSON.stringify(value), 'utf8') > maxBytes) {
    throw new StateError(message('stateTooLarge', { size: formatBytes(maxBytes) }));
  }
  return value as Record<string, unknown>;
}

const firstLine = (text: string) => text.split('\n')[0] ?? '';
const formatBytes = (bytes: number) => (bytes % 1024 === 0 ? `${bytes / 1024} KiB` : `${bytes} bytes`);

function applyPatches(current: unknown, patches: unknown, maxBytes: number): Record<string, unknown> {
  checkJsonInput(patches);
  const shape = jsonPatch.safeParse(patches);
  if (!shape.success) {
    throw new StateError(message('patchesNotArray'));
  }
  const ops = patches as Operation[];
  const document = deepClone(current ?? {});
  const invalid = validatePatch(ops, document);
  if (invalid) throw new StateError(message('patchInvalid', { reason: firstLine(invalid.message) }));
  let result: unknown;
  try {
    result = applyPatch(document, ops, true, true, true).newDocument;
  } catch (err) {
    throw new StateError(message('patchInvalid', { reason: firstLine((err as Error).message) }));
  }
  return checkState(result, maxBytes);
}

export async function getConversationState(
  ctx: AppContext,
  target: StateTarget,
): Promise<Record<string, unknown>> {
  const row = await readState(ctx.db, target.vendorId, target.id);
  return (row?.state ?? {}) as Record<string, unknown>;
}

/** Computes the next state from the stored one under a row lock, then tells the room. */
async function change(
  ctx: AppContext,
  target: StateTarget,
  next: (current: unknown) => Record<string, unknown>,
  opts: { exceptSocket?: string },
): Promise<Record<string, unknown>> {
  const state = await changeState(ctx.db, target.vendorId, target.id, next);
  if (!state) throw new StateError(message('relayUnknownConversation'));
  ctx.relay.stateChanged(target.token, state, { except: opts.exceptSocket });
  return state;
}

/** Replaces the state. */
export function setConversationState(
  ctx: AppContext,
  target: StateTarget,
  state: unknown,
  opts: { exceptSocket?: string } = {},
): Promise<Record<string, unknown>> {
  const checked = checkState(state, ctx.config.STATE_MAX_BYTES);
  return change(ctx, target, () => checked, opts);
}

/** Applies RFC 6902 operations to a copy of the state; any invalid operation changes nothing. */
export function patchConversationState(
  ctx: AppContext,
  target: StateTarget,
  patches: unknown,
  opts: { exceptSocket?: string } = {},
): Promise<Record<string, unknown>> {
  return change(ctx, target, (current) => applyPatches(current, patches, ctx.config.STATE_MAX_BYTES), opts);
}
