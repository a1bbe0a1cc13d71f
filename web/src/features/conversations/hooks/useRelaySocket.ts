import {
  RELAY_PATH,
  type RelayAuth,
  RelayClientEvent,
  type RelayMessage,
  RelayServerEvent,
  SOCKET_OPTIONS,
  SOCKET_WAIT,
} from '@llmor/contracts';
import { useCallback, useEffect, useRef, useState } from 'react';
import { io } from 'socket.io-client';
import { apiLocale } from '../../../lib/api/client';
import { loadSession } from '../../../lib/session';
import { accessTokenHeader } from '../../../lib/signing';
import { parseRelayMessage } from '../model/relay';

export type SocketPhase = 'idle' | 'connecting' | 'connected' | 'disconnected';

/** The status dot (docs/reference/console.md "Conversations page"). */
export type SocketStatus = 'none' | 'connecting' | 'connected' | 'other' | 'disconnected';

export interface RelayHandlers {
  onMessage(message: RelayMessage): void;
  /** get, set, patch, state_change: the whole new state. */
  onState(state: unknown): void;
  /** state_err: its error text (may be empty). */
  onStateError(error: string | null): void;
  /** Joined again after the connection was lost (server restart, network): refetch what was missed. */
  onRejoined(): void;
}

/** What this hook uses of a socket.io client socket; tests pass a fake that speaks the same events. */
export interface RelaySocket {
  readonly id?: string | undefined;
  readonly connected: boolean;
  // biome-ignore lint/suspicious/noExplicitAny: socket.io's listeners take the event's own arguments
  on(event: string, listener: (...args: any[]) => void): unknown;
  emit(event: string, ...args: unknown[]): unknown;
  connect(): unknown;
  disconnect(): unknown;
  removeAllListeners(): unknown;
}

/** Opens a socket to the relay at `origin` (socket.io's `io` in the console). */
export type ConnectRelay = (origin: string, options: Parameters<typeof io>[1]) => RelaySocket;

export interface RelaySocketOptions {
  connect?: ConnectRelay;
  /** How long a send waits for the socket to join (tries × interval). */
  socketWait?: { tries: number; intervalMs: number };
}

const STATE_EVENTS = [
  RelayServerEvent.get,
  RelayServerEvent.set,
  RelayServerEvent.patch,
  RelayServerEvent.stateChange,
] as const;

/**
 * Where to connect socket.io: the origin of the conversation's relay_url, else this page's origin. A
 * relay on this page's host uses this page's origin (and so its scheme: no http relay from an https page).
 */
export function relayOrigin(relayUrl: string | null | undefined, page: Pick<URL, 'host' | 'origin'>): string {
  if (relayUrl) {
    try {
      const url = new URL(relayUrl, page.origin);
      return url.host === page.host ? page.origin : url.origin;
    } catch {
      // fall through
    }
  }
  return page.origin;
}

export function socketStatus(token: string | null, phase: SocketPhase, joined: string | null): SocketStatus {
  if (!token) return 'none';
  if (phase === 'connected') return joined === token ? 'connected' : 'other';
  if (phase === 'connecting' || phase === 'idle') return 'connecting';
  return 'disconnected';
}

/**
 * The relay admits the console's session as the HTTP calls do: a signature for `GET /stream`, made anew
 * at every (re)connect so it is always inside the timestamp window.
 */
function signedRelayAuth(callback: (auth: RelayAuth) => void): void {
  const session = loadSession();
  if (!session) {
    callback({});
    return;
  }
  // The console's locale, so `state_err` reads like the HTTP answers (docs/adr/0030).
  const locale = apiLocale() ?? undefined;
  accessTokenHeader(session, 'GET', RELAY_PATH).then(
    (accessToken) => callback({ access_token: accessToken, locale }),
    () => callback({}),
  );
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * One socket.io connection to the relay (path /stream, websocket only, SOCKET_OPTIONS) for the page,
 * opened once a conversation is known. connecting → connected → `join(token)`; on disconnect or
 * connect error → disconnected (socket.io reconnects with 1–5 s delays, also after a server restart,
 * joins again and reports it with `onRejoined`).
 * Events of another conversation than the current one are dropped.
 */
export function useRelaySocket(
  token: string | null,
  relayUrl: string | null,
  handlers: RelayHandlers,
  { connect = io, socketWait = SOCKET_WAIT }: RelaySocketOptions = {},
) {
  const [phase, setPhase] = useState<SocketPhase>('idle');
  const [joined, setJoined] = useState<string | null>(null);
  const socketRef = useRef<RelaySocket | null>(null);
  const tokenRef = useRef(token);
  /** The token of the last join sent. */
  const requestedRef = useRef<string | null>(null);
  const joinedRef = useRef<string | null>(null);
  /** A `get` asked for before the socket had joined; sent on join. */
  const pendingGetRef = useRef<string | null>(null);
  const handlersRef = useRef(handlers);
  handlersRef.current = handlers;
  tokenRef.current = token;

  const active = token !== null || socketRef.current !== null;
  const origin = active ? relayOrigin(relayUrl, window.location) : null;

  const setJoinedToken = useCallback((value: string | null) => {
    joinedRef.current = value;
    setJoined(value);
  }, []);

  /** The conversation this socket had joined before its connection dropped. */
  const lostRef = useRef<string | null>(null);

  const join = useCallback(
    (socket: RelaySocket, target: string) => {
      requestedRef.current = target;
      setJoinedToken(null);
      socket.emit(RelayClientEvent.join, target, (ack?: { ok: boolean }) => {
        if (!ack?.ok || requestedRef.current !== target || socketRef.current !== socket) return;
        setJoinedToken(target);
        if (lostRef.current === target) handlersRef.current.onRejoined();
        lostRef.current = null;
        if (pendingGetRef.current === target) {
          pendingGetRef.current = null;
          socket.emit(RelayClientEvent.get);
        }
      });
    },
    [setJoinedToken],
  );

  useEffect(() => {
    if (!origin) return;
    const socket = connect(origin, {
      ...SOCKET_OPTIONS,
      transports: [...SOCKET_OPTIONS.transports],
      auth: signedRelayAuth,
    });
    socketRef.current = socket;
    setPhase('connecting');
    const current = () => requestedRef.current !== null && requestedRef.current === tokenRef.current;

    socket.on('connect', () => {
      setPhase('connected');
      const target = tokenRef.current;
      if (target) join(socket, target);
    });
    const down = () => {
      setPhase('disconnected');
      lostRef.current = joinedRef.current ?? lostRef.current;
      requestedRef.current = null;
      setJoinedToken(null);
    };
    socket.on('disconnect', (reason) => {
      down();
      // socket.io does not reconnect by itself after the server closed the connection (a restart):
      // reconnecting is asked for here, with the same 1–5 s backoff as any other loss.
      if (reason === 'io server disconnect') socket.connect();
    });
    socket.on('connect_error', down);
    socket.on(RelayServerEvent.message, (raw: unknown) => {
      const message = parseRelayMessage(raw);
      if (!message) {
        console.warn('[relay] ignoring an unreadable message', raw);
        return;
      }
      if (current()) handlersRef.current.onMessage(message);
    });
    for (const event of STATE_EVENTS) {
      socket.on(event, (state: unknown) => {
        if (current()) handlersRef.current.onState(state);
      });
    }
    socket.on(RelayServerEvent.stateErr, (body: unknown) => {
      if (!current()) return;
      const error = body && typeof body === 'object' ? (body as { error?: unknown }).error : undefined;
      handlersRef.current.onStateError(typeof error === 'string' && error ? error : null);
    });

    return () => {
      socket.removeAllListeners();
      socket.disconnect();
      if (socketRef.current === socket) socketRef.current = null;
      requestedRef.current = null;
      setJoinedToken(null);
      setPhase('idle');
    };
  }, [origin, join, setJoinedToken, connect]);

  // Another conversation: join it on the open socket.
  useEffect(() => {
    const socket = socketRef.current;
    if (!socket?.connected) return;
    if (token && requestedRef.current !== token) join(socket, token);
    if (!token) {
      requestedRef.current = null;
      setJoinedToken(null);
    }
  }, [token, join, setJoinedToken]);

  const isReady = useCallback((target: string) => {
    const socket = socketRef.current;
    return !!socket?.connected && joinedRef.current === target;
  }, []);

  /**
   * Waits until the socket has joined `target`: up to SOCKET_WAIT's 50 tries of 100 ms, then goes on anyway.
   * Resolves with the socket id when joined (for X-Relay-Socket), else undefined.
   */
  const waitForSocket = useCallback(
    async (target: string): Promise<string | undefined> => {
      for (let i = 0; i < socketWait.tries && !isReady(target); i++) await sleep(socketWait.intervalMs);
      return isReady(target) ? socketRef.current?.id : undefined;
    },
    [isReady, socketWait],
  );

  /** Asks for the state (`get`); if the socket has not joined yet, as soon as it has. */
  const requestState = useCallback(
    (target: string) => {
      if (isReady(target)) socketRef.current!.emit(RelayClientEvent.get);
      else pendingGetRef.current = target;
    },
    [isReady],
  );

  /** Replaces the state (`set`). */
  const overrideState = useCallback((state: unknown) => {
    socketRef.current?.emit(RelayClientEvent.set, state);
  }, []);

  return {
    phase,
    joined,
    status: socketStatus(token, phase, joined),
    connected: phase === 'connected',
    waitForSocket,
    requestState,
    overrideState,
  };
}
