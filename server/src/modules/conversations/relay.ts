import {
  canonicalOrigin,
  conversationTokenParam,
  EMBED_ORIGIN_REFUSED,
  embedAllowsOrigin,
  RelayClientEvent,
  RelayServerEvent,
  type StateError as StateErrorBody,
} from '@llmor/contracts';
import type { Socket } from 'socket.io';
import type { AppContext } from '../../platform/context';
import { memberRoom } from '../../platform/relay/hub';
import { countStateChange } from './limits';
import { embedAllowedOrigins, findConversationByCapability } from './repo';
import {
  getConversationState,
  patchConversationState,
  StateError,
  type StateTarget,
  setConversationState,
} from './state';

export const UNKNOWN_CONVERSATION = 'Unknown conversation';
export const NOT_JOINED = 'Join a conversation first.';

/** Whether a page's origin is this server's own (the console), as the handshake's Host names it. */
function sameHost(origin: string | undefined, host: string | undefined): boolean {
  return canonicalOrigin(origin ?? '')?.replace(/^https?:\/\//, '') === host?.toLowerCase();
}

type Ack = (result: { ok: true } | { ok: false; error: string }) => void;

/** A relay socket's conversation events (CONTRACTS "Relay"; event shapes in contracts/src/relay.ts). */
export function handleRelayConnection(ctx: AppContext, socket: Socket): void {
  let joined: StateTarget | null = null;
  // One event at a time per socket, so a client's patches apply in the order it sent them.
  let queue: Promise<void> = Promise.resolve();

  const fail = (error: string, ack?: Ack) => {
    const body: StateErrorBody = { error };
    socket.emit(RelayServerEvent.stateErr, body);
    ack?.({ ok: false, error });
  };

  const on = (event: string, handler: (arg: unknown) => Promise<void>) => {
    socket.on(event, (...args: unknown[]) => {
      const ack = typeof args.at(-1) === 'function' ? (args.pop() as Ack) : undefined;
      queue = queue.then(async () => {
        try {
          await handler(args[0]);
          ack?.({ ok: true });
        } catch (err) {
          if (err instanceof StateError) return fail(err.message, ack);
          ctx.log.error({ err, event }, 'relay event failed');
          fail('The relay could not handle this request.', ack);
        }
      });
    });
  };

  const requireJoined = (): StateTarget => {
    if (!joined) throw new StateError(NOT_JOINED);
    return joined;
  };

  on(RelayClientEvent.join, async (token) => {
    const parsed = conversationTokenParam.safeParse({ token });
    const conversation = parsed.success
      ? await findConversationByCapability(ctx.db, parsed.data.token)
      : null;
    if (!conversation) throw new StateError(UNKNOWN_CONVERSATION);
    // An embed's conversation is watched from the pages its embed allows (the handshake's Origin) and
    // from the console (this server's own origin).
    const { origin, host } = socket.handshake.headers;
    if (conversation.embedId !== null && !sameHost(origin, host)) {
      const origins = await embedAllowedOrigins(ctx.db, conversation.vendorId, conversation.embedId);
      if (!origins || !embedAllowsOrigin(origins, origin)) throw new StateError(EMBED_ORIGIN_REFUSED);
    }
    if (joined) {
      await socket.leave(joined.token);
      await socket.leave(memberRoom(joined.token, socket.id));
    }
    joined = { id: conversation.id, vendorId: conversation.vendorId, token: conversation.token };
    await socket.join([conversation.token, memberRoom(conversation.token, socket.id)]);
  });

  on(RelayClientEvent.get, async () => {
    socket.emit(RelayServerEvent.get, await getConversationState(ctx, requireJoined()));
  });

  on(RelayClientEvent.set, async (state) => {
    const target = requireJoined();
    await countStateChange(ctx, target);
    const next = await setConversationState(ctx, target, state, { exceptSocket: socket.id });
    socket.emit(RelayServerEvent.set, next);
  });

  on(RelayClientEvent.patchState, async (patches) => {
    const target = requireJoined();
    await countStateChange(ctx, target);
    const next = await patchConversationState(ctx, target, patches, { exceptSocket: socket.id });
    socket.emit(RelayServerEvent.patch, next);
  });
}
