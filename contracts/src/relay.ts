/**
 * The realtime relay (docs/reference/api.md "Relay"): socket.io 4 at path `/stream` (RELAY_PATH), websocket
 * transport only.
 *
 * Authorization (docs/adr/0023-identity-across-tenants.md): the socket says who it is in the handshake's
 * `auth` (RelayAuth) — the console its session (`access_token`: an `X-AccessToken` signed for
 * `GET /stream`), an API client its token and vendor, a web embed its token (with the page's Origin). Each
 * `join(token)` checks that caller as the HTTP call would: a signed-in member of the conversation's vendor,
 * the API client or embed that opened it. Anything else answers `Unknown conversation`. Revoking a caller
 * (sign-out, deactivation, a client turned off, an embed removed) disconnects its sockets on every instance.
 *
 * Client → server (each handler also accepts an optional socket.io acknowledgement callback, called with
 * `{ok: true}` or `{ok: false, error}` once handled; the console does not need it):
 *   `join(token)`            leaves the previous conversation, joins this one; unknown → `state_err`.
 *   `get()`                  → `get` with the state.
 *   `set(state)`             replaces the state (a JSON object ≤ 256 KiB) → `set` to the sender,
 *                            `state_change` to the rest of the room.
 *   `patchState(patches)`    RFC 6902 operations applied atomically → `patch` to the sender,
 *                            `state_change` to the rest of the room. Invalid → `state_err`, nothing changes.
 * Server → client:
 *   `message`                a JSON **string** `{"type", "data"}` (RelayMessage), see the types below.
 *   `get` | `set` | `patch` | `state_change`   the whole new state object.
 *   `state_err`              `{error}` to the sender only.
 *
 * `input_async`: the console sends the header `X-Relay-Socket: <socket.id>` on
 * `POST /v1/conversations/{token}`. That socket (if it has joined the conversation) receives
 * `completion.started`/`completion.finished` with `input_async: false` and no `user_input`; every other
 * socket in the room gets `input_async: true` and `user_input`. Without the header everyone gets `true`.
 */
import { z } from 'zod';
import type { Message } from './http/conversations';

export const RELAY_SOCKET_HEADER = 'x-relay-socket';

/** The handshake's `auth` object: one of the three credentials. */
export interface RelayAuth {
  /** The console: an `X-AccessToken` value signed for `GET` `RELAY_PATH` (fresh at each connect). */
  access_token?: string;
  /** An API client: its full token and its vendor's key. */
  vendor_token?: string;
  vendor?: string;
  /** A web embed's widget: the embed token (the page's Origin is checked as on HTTP). */
  embed_token?: string;
  /** The console locale `state_err` texts are written in (docs/adr/0030); English without one. */
  locale?: string;
}
/** RelayAuth's keys, for clients that cannot import the type (the widget pins its copy to these). */
export const RELAY_AUTH_KEYS = {
  accessToken: 'access_token',
  vendorToken: 'vendor_token',
  vendor: 'vendor',
  embedToken: 'embed_token',
} as const satisfies Record<string, keyof RelayAuth>;
export const RELAY_AUTH_REQUIRED =
  'Say who you are when connecting: auth.access_token, auth.vendor_token with auth.vendor, or auth.embed_token.';

export const RelayClientEvent = {
  join: 'join',
  get: 'get',
  set: 'set',
  patchState: 'patchState',
} as const;

export const RelayServerEvent = {
  message: 'message',
  get: 'get',
  set: 'set',
  patch: 'patch',
  stateChange: 'state_change',
  stateErr: 'state_err',
} as const;

export const RelayMessageType = {
  completionStarted: 'completion.started',
  completionStream: 'completion_stream',
  functionCallBegin: 'function_call.begin',
  functionCallEnd: 'function_call.end',
  functionCallIteration: 'function_call_iteration',
  completionFinished: 'completion.finished',
  completionEnded: 'completion.ended',
  userInput: 'user_input',
  debug: 'debug',
} as const;

/** Payloads of the known `message` types; silicon scripts may emit other types with any JSON data. */
export interface RelayMessageData {
  'completion.started': { input_async: boolean };
  completion_stream: { chunk: string };
  'function_call.begin': { id: string; name: string; arguments: unknown };
  /** `status`: the function run status (docs/reference/api.md "Functions": 1 success, negative failures). */
  'function_call.end': { id: string; name: string; result: unknown; status: number };
  function_call_iteration: { iteration: number };
  'completion.finished': { input_async: boolean };
  'completion.ended': Record<string, never>;
  user_input: { message: Message };
  debug: Record<string, unknown>;
}

/** What a `message` event's string parses to. */
export const relayMessage = z.object({ type: z.string().min(1), data: z.unknown() });
export type RelayMessage = z.infer<typeof relayMessage>;

const stateError = z.object({ error: z.string() });
export type StateError = z.infer<typeof stateError>;

/** One RFC 6902 operation (shape only; the server also checks paths against the document). */
const jsonPatchOperation = z.discriminatedUnion('op', [
  z.object({ op: z.literal('add'), path: z.string(), value: z.unknown() }),
  z.object({ op: z.literal('replace'), path: z.string(), value: z.unknown() }),
  z.object({ op: z.literal('test'), path: z.string(), value: z.unknown() }),
  z.object({ op: z.literal('remove'), path: z.string() }),
  z.object({ op: z.literal('move'), path: z.string(), from: z.string() }),
  z.object({ op: z.literal('copy'), path: z.string(), from: z.string() }),
]);
export const jsonPatch = z.array(jsonPatchOperation).max(1000);
