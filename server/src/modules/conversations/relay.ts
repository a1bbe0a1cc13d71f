import {
  conversationTokenParam,
  RELAY_PATH,
  RelayClientEvent,
  RelayServerEvent,
  type StateError as StateErrorBody,
} from '@llmor/contracts';
import { createAdapter } from '@socket.io/redis-adapter';
import type { FastifyInstance } from 'fastify';
import { createClient } from 'redis';
import { Server, type Socket } from 'socket.io';
import type { AppContext } from '../../platform/context';
import { findConversationByCapability } from '../conversations/repo';
import {
  getConversationState,
  patchConversationState,
  StateError,
  type StateTarget,
  setConversationState,
} from '../conversations/state';
import { memberRoom } from './hub';

export const UNKNOWN_CONVERSATION = 'Unknown conversation';
export const NOT_JOINED = 'Join a conversation first.';

type Ack = (result: { ok: true } | { ok: false; error: string }) => void;

/**
 * Starts the relay of this process (CONTRACTS "Relay"; event shapes in contracts/src/relay.ts).
 * - `serve`: a socket.io server on the app's HTTP server at `/stream`, websocket transport only.
 * - `redisUrl`: the Redis adapter, so rooms span every instance; without `serve` the process still
 *   publishes to other instances' rooms (an api-only process).
 * With neither, `ctx.relay` stays a no-op.
 */
export async function startRelay(
  app: FastifyInstance,
  ctx: AppContext,
  opts: { serve: boolean; redisUrl?: string },
): Promise<void> {
  if (!opts.serve && !opts.redisUrl) return;
  const io = opts.serve
    ? new Server(app.server, { path: RELAY_PATH, transports: ['websocket'], serveClient: false })
    : new Server({ serveClient: false });

  let redis: { quit(): Promise<void> } | null = null;
  if (opts.redisUrl) {
    const pub = createClient({ url: opts.redisUrl });
    const sub = pub.duplicate();
    for (const client of [pub, sub]) client.on('error', (err) => ctx.log.error({ err }, 'relay redis error'));
    try {
      await Promise.all([pub.connect(), sub.connect()]);
    } catch (err) {
      await Promise.allSettled([pub.quit(), sub.quit()]);
      io.close();
      throw err;
    }
    io.adapter(createAdapter(pub, sub));
    redis = {
      quit: async () => {
        await Promise.allSettled([pub.quit(), sub.quit()]);
      },
    };
  }

  if (opts.serve) io.on('connection', (socket) => handleConnection(ctx, socket));
  ctx.relay.attach(io);

  app.addHook('preClose', async () => {
    io.disconnectSockets(true);
    if (opts.serve) io.engine.close();
  });
  app.addHook('onClose', async () => {
    ctx.relay.detach();
    await io.of('/').adapter.close();
    await redis?.quit();
  });
}

function handleConnection(ctx: AppContext, socket: Socket): void {
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
    const next = await setConversationState(ctx, requireJoined(), state, { exceptSocket: socket.id });
    socket.emit(RelayServerEvent.set, next);
  });

  on(RelayClientEvent.patchState, async (patches) => {
    const next = await patchConversationState(ctx, requireJoined(), patches, { exceptSocket: socket.id });
    socket.emit(RelayServerEvent.patch, next);
  });
}
