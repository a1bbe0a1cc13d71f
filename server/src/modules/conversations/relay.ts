import {
  asLocale,
  conversationTokenParam,
  localize,
  message,
  RELAY_AUTH_REQUIRED,
  RELAY_PATH,
  type RelayAuth,
  RelayClientEvent,
  RelayServerEvent,
  type StateError as StateErrorBody,
} from '@llmor/contracts';
import type { Socket } from 'socket.io';
import { AppError } from '../../platform/errors';
import { clientAddress, proxyTrust } from '../../platform/http/client-address';
import { callerRoom, memberRoom } from '../../platform/relay/hub';
import { type Caller, mayOpenConversation } from './access';
import { countStateChange } from './limits';
import type { ConversationContext } from './ports';
import { findConversationByCapability } from './repo';
import {
  getConversationState,
  patchConversationState,
  StateError,
  type StateTarget,
  setConversationState,
} from './state';

export const UNKNOWN_CONVERSATION = message('relayUnknownConversation');
export const NOT_JOINED = message('relayJoinFirst');

/** What a socket's handshake proved: checked again, against the database, on every join. */
type RelayCredentials =
  | { kind: 'session'; token: string }
  | { kind: 'client'; token: string; vendorKey: string }
  | { kind: 'embed'; token: string; origin: string | undefined; address: string };

const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

/** Reads the handshake's `auth` (RelayAuth); a console session's signature is checked here, once. */
async function handshakeCredentials(
  ctx: ConversationContext,
  socket: Socket,
): Promise<RelayCredentials | string> {
  const auth = (socket.handshake.auth ?? {}) as Record<keyof RelayAuth, unknown>;
  const accessToken = text(auth.access_token);
  if (accessToken !== undefined) {
    const result = await ctx.sessions.verify(accessToken, 'GET', RELAY_PATH);
    return result.ok
      ? { kind: 'session', token: result.identity.token }
      : `Invalid access token (${result.reason}).`;
  }
  const vendorToken = text(auth.vendor_token);
  if (vendorToken !== undefined)
    return { kind: 'client', token: vendorToken, vendorKey: text(auth.vendor) ?? '' };
  const embedToken = text(auth.embed_token);
  if (embedToken !== undefined) {
    const address = clientAddress(socket.request, proxyTrust(ctx.config.TRUST_PROXY));
    return { kind: 'embed', token: embedToken, origin: text(socket.handshake.headers.origin), address };
  }
  return RELAY_AUTH_REQUIRED;
}

/** The caller the credentials are now, with the rooms a revocation reaches it through; null for a user who may not act in the vendor. */
async function currentCaller(
  ctx: ConversationContext,
  credentials: RelayCredentials,
  vendorId: number,
): Promise<{ caller: Caller; rooms: string[] } | null> {
  switch (credentials.kind) {
    case 'session': {
      const identity = await ctx.sessions.identityOf(credentials.token);
      const caller = identity ? await ctx.relayCallers.user(identity, vendorId) : null;
      if (!identity || !caller) return null;
      return {
        caller,
        rooms: [callerRoom('session', identity.session.id), callerRoom('user', identity.user!.id)],
      };
    }
    case 'client': {
      const caller = await ctx.relayCallers.client(credentials.token, credentials.vendorKey);
      return { caller, rooms: [callerRoom('client', caller.clientId)] };
    }
    case 'embed': {
      const caller = await ctx.relayCallers.embed(credentials.token, credentials.origin, credentials.address);
      return { caller, rooms: [callerRoom('embed', caller.embedId)] };
    }
  }
}

type Ack = (result: { ok: true } | { ok: false; error: string }) => void;

/** A relay socket's conversation events (docs/adr/0023-identity-across-tenants.md; shapes in contracts/src/relay.ts). */
export function handleRelayConnection(ctx: ConversationContext, socket: Socket): void {
  let joined: (StateTarget & { rooms: string[] }) | null = null;
  const credentials = handshakeCredentials(ctx, socket).catch((err: unknown) => {
    ctx.log.error({ err }, 'relay handshake failed');
    return message('relayWhoUnchecked');
  });
  // `state_err` texts in the console's locale, as its HTTP answers are (docs/adr/0030).
  const locale = asLocale((socket.handshake.auth as RelayAuth | undefined)?.locale);
  // One event at a time per socket, so a client's patches apply in the order it sent them.
  let queue: Promise<void> = Promise.resolve();

  const fail = (english: string, ack?: Ack) => {
    const error = locale ? localize(english, locale) : english;
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
          if (err instanceof StateError || err instanceof AppError) return fail(err.message, ack);
          ctx.log.error({ err, event }, 'relay event failed');
          fail(message('relayFailed'), ack);
        }
      });
    });
  };

  const requireJoined = (): StateTarget => {
    if (!joined) throw new StateError(NOT_JOINED);
    return joined;
  };

  on(RelayClientEvent.join, async (token) => {
    const proven = await credentials;
    if (typeof proven === 'string') throw new StateError(proven);
    const parsed = conversationTokenParam.safeParse({ token });
    const conversation = parsed.success
      ? await findConversationByCapability(ctx.db, parsed.data.token)
      : null;
    // Another vendor's conversation, or one this caller did not open, reads like an unknown one.
    const current = conversation ? await currentCaller(ctx, proven, conversation.vendorId) : null;
    if (!conversation || !current || !mayOpenConversation(current.caller, conversation)) {
      throw new StateError(UNKNOWN_CONVERSATION);
    }
    if (joined) for (const room of joined.rooms) await socket.leave(room);
    const rooms = [
      conversation.token,
      memberRoom(conversation.token, socket.id),
      callerRoom('vendor', conversation.vendorId),
      ...current.rooms,
    ];
    joined = { id: conversation.id, vendorId: conversation.vendorId, token: conversation.token, rooms };
    await socket.join(rooms);
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
