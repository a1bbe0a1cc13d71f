/**
 * The wire names the widget and its build use, copied from the contracts (`embeds.ts`, `relay.ts`):
 * importing those modules would bundle zod into the widget (three times its size), and the build runs
 * where the contracts' TypeScript does not load. `wire.test.ts` pins each copy to the contracts.
 */
export const EMBED_TOKEN_HEADER = 'x-embedtoken';
export const RELAY_SOCKET_HEADER = 'x-relay-socket';
export const RELAY_JOIN = 'join';
/** The key of the embed token in the relay handshake's `auth`. */
export const RELAY_AUTH_EMBED_TOKEN = 'embed_token';
export const RELAY_MESSAGE = 'message';
export const COMPLETION_STREAM = 'completion_stream';
export const COMPLETION_FINISHED = 'completion.finished';
export const USER_INPUT = 'user_input';
/** The free variable the widget reads its configuration from (`main.ts`; the server binds it). */
export const EMBED_CONFIG_NAME = '__llmorEmbedConfig';
/** Where the build writes the widget, inside the console's build folder. */
export const EMBED_WIDGET_FILE = 'embed/widget.js';
