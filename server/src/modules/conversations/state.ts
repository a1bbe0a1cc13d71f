import { jsonPatch, RELAY_STATE_MAX_BYTES } from '@llmor/contracts';
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

const MAX_DEPTH = 64;

function isJsonValue(value: unknown, depth: number): boolean {
  if (depth > MAX_DEPTH) return false;
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return true;
  if (typeof value === 'number') return Number.isFinite(value);
  if (Array.isArray(value)) return value.every((v) => isJsonValue(v, depth + 1));
  if (typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.values(value as object).every((v) => isJsonValue(v, depth + 1));
  }
  return false;
}

/** The state if it is a JSON object within the size limit; otherwise a StateError saying why. */
export function checkState(value: unknown): Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new StateError('The state must be a JSON object.');
  }
  if (!isJsonValue(value, 0)) throw new StateError('The state must contain JSON values only.');
  if (Buffer.byteLength(JSON.stringify(value), 'utf8') > RELAY_STATE_MAX_BYTES) {
    throw new StateError(`The state must not exceed ${RELAY_STATE_MAX_BYTES / 1024} KiB.`);
  }
  return value as Record<string, unknown>;
}

function applyPatches(current: unknown, patches: unknown): Record<string, unknown> {
  const shape = jsonPatch.safeParse(patches);
  if (!shape.success) {
    throw new StateError('Patches must be an array of JSON Patch (RFC 6902) operations.');
  }
  const ops = patches as Operation[];
  const document = deepClone(current ?? {});
  const invalid = validatePatch(ops, document);
  if (invalid) throw new StateError(`Invalid patch: ${invalid.message.split('\n')[0]}`);
  let result: unknown;
  try {
    result = applyPatch(document, ops, true, true, true).newDocument;
  } catch (err) {
    throw new StateError(`Invalid patch: ${(err as Error).message.split('\n')[0]}`);
  }
  return checkState(result);
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
  if (!state) throw new StateError('Unknown conversation');
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
  const checked = checkState(state);
  return change(ctx, target, () => checked, opts);
}

/** Applies RFC 6902 operations to a copy of the state; any invalid operation changes nothing. */
export function patchConversationState(
  ctx: AppContext,
  target: StateTarget,
  patches: unknown,
  opts: { exceptSocket?: string } = {},
): Promise<Record<string, unknown>> {
  return change(ctx, target, (current) => applyPatches(current, patches), opts);
}
