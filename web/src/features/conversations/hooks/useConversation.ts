import {
  type Conversation,
  type ConversationCreated,
  type ConversationPage,
  ErrorCode,
  type MessageSent,
  SOCKET_WAIT,
  STATE_FETCH_DELAY_MS,
} from '@llmor/contracts';
import { useCallback, useEffect, useMemo, useReducer, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { ApiError } from '../../../lib/api/error';
import { events } from '../../../lib/events';
import { useCreateConversation } from '../api/createConversation';
import { getConversation, useLoadConversation } from '../api/getConversation';
import { useSendMessage } from '../api/sendMessage';
import { conversationReducer, initialConversationState, showInProgress } from '../model/conversation';
import { localMessage, visibleMessages } from '../model/messages';
import { type ConnectRelay, useRelaySocket } from './useRelaySocket';

/** The calls the conversation screen makes. */
export interface ConversationApi {
  /** The newest page of a conversation (through the query cache). */
  load(token: string): Promise<ConversationPage>;
  /** The page before `cursor` (docs/adr/0026-messages-contract.md). */
  loadOlder(token: string, cursor: string): Promise<ConversationPage>;
  send(request: { token: string; content: string; socketId?: string }): Promise<MessageSent>;
  create(appId: number): Promise<ConversationCreated>;
}

/**
 * What the screen talks to and waits for; the console uses the real ones, tests inject fakes. Pass values that
 * keep their identity across renders (a new `connect` opens a new socket).
 */
export interface ConversationDependencies {
  api?: ConversationApi;
  connect?: ConnectRelay;
  /** How long after a load the conversation's state is asked for. */
  stateFetchDelayMs?: number;
  /** How long a send waits for the relay socket to join before going without it. */
  socketWait?: { tries: number; intervalMs: number };
}

/** The server's message of a failed call, if it sent one. */
function serverMessage(error: unknown): string | undefined {
  return error instanceof ApiError ? error.serverMessage : undefined;
}

/** A refusal past the plan's requests or tokens (402 code 60). */
function isUsageLimit(error: unknown): error is ApiError {
  return error instanceof ApiError && error.body?.code === ErrorCode.USAGE_LIMIT_REACHED;
}

/** The console's calls, through the feature's API hooks. */
function useConversationApi(): ConversationApi {
  const load = useLoadConversation();
  const { mutateAsync: send } = useSendMessage();
  const { mutateAsync: create } = useCreateConversation();
  return useMemo(() => ({ load, loadOlder: getConversation, send, create }), [load, send, create]);
}

/**
 * The conversation screen's orchestration: loading the routed conversation (a late answer for another one is
 * ignored), sending (shown at once, restored on failure; 504 goes on over the relay), the relay socket and its
 * state, reloading when a reply finished or the socket joined again, and paging older messages.
 */
export function useConversation(
  appId: number,
  token: string | null,
  {
    api: injectedApi,
    connect,
    stateFetchDelayMs = STATE_FETCH_DELAY_MS,
    socketWait = SOCKET_WAIT,
  }: ConversationDependencies = {},
) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const consoleApi = useConversationApi();
  const api = injectedApi ?? consoleApi;

  const [conversation, setConversation] = useState<Conversation | null>(null);
  const [state, dispatch] = useReducer(conversationReducer, initialConversationState);
  const [relayState, setRelayState] = useState<unknown>(null);
  const [stateError, setStateError] = useState<string | null>(null);
  /** The server's message while sends are refused past the plan's requests or tokens (402 code 60). */
  const [usageLimit, setUsageLimit] = useState<string | null>(null);
  const [input, setInput] = useState('');
  const [creating, setCreating] = useState(false);
  const [loadingToken, setLoadingToken] = useState<string | null>(null);
  const [showAll, setShowAll] = useState(false);

  /** The token whose conversation is shown (set before routing to a conversation created here). */
  const loadedTokenRef = useRef<string | null>(null);
  const loadSeq = useRef(0);
  /** The token being fetched by the route effect. */
  const loadingTokenRef = useRef<string | null>(null);
  const stateRef = useRef(state);
  stateRef.current = state;
  const stateTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  const socket = useRelaySocket(
    token,
    conversation?.relay_url ?? null,
    {
      onMessage: (message) => dispatch({ type: 'relay', message, now: new Date().toISOString() }),
      onState: (next) => {
        setRelayState(next);
        setStateError(null);
      },
      onStateError: (error) => setStateError(error ?? ''),
      onRejoined: () => {
        dispatch({ type: 'rejoined' });
        if (loadedTokenRef.current) requestState(loadedTokenRef.current);
      },
    },
    { connect, socketWait },
  );
  const { requestState, waitForSocket } = socket;

  const addError = useCallback(
    (text: string) => dispatch({ type: 'error', message: localMessage('error', text) }),
    [],
  );

  /** About 1 s after a conversation is loaded, its state is fetched (docs/reference/console.md). */
  const scheduleStateFetch = useCallback(
    (target: string) => {
      clearTimeout(stateTimer.current);
      stateTimer.current = setTimeout(() => {
        if (loadedTokenRef.current === target) requestState(target);
      }, stateFetchDelayMs);
    },
    [requestState, stateFetchDelayMs],
  );
  useEffect(() => () => clearTimeout(stateTimer.current), []);

  const showConversation = useCallback((c: Conversation) => {
    setConversation(c);
    setRelayState(c.state ?? {});
    setStateError(null);
  }, []);

  // Route handling: no token → clear; another token than the loaded one → load it.
  useEffect(() => {
    if (!token) {
      loadSeq.current += 1;
      loadingTokenRef.current = null;
      setLoadingToken(null);
      if (loadedTokenRef.current !== null) {
        loadedTokenRef.current = null;
        clearTimeout(stateTimer.current);
        dispatch({ type: 'reset' });
        setConversation(null);
        setRelayState(null);
        setStateError(null);
      }
      return;
    }
    if (token === loadedTokenRef.current || token === loadingTokenRef.current) return;
    const seq = ++loadSeq.current;
    loadingTokenRef.current = token;
    loadedTokenRef.current = null;
    clearTimeout(stateTimer.current);
    dispatch({ type: 'reset' });
    setConversation(null);
    setRelayState(null);
    setStateError(null);
    setLoadingToken(token);
    api.load(token).then(
      (answer) => {
        if (seq !== loadSeq.current) return;
        loadingTokenRef.current = null;
        loadedTokenRef.current = token;
        setLoadingToken(null);
        showConversation(answer.conversation);
        dispatch({ type: 'loaded', messages: answer.data, cursor: answer.next_cursor });
        scheduleStateFetch(token);
      },
      (error: unknown) => {
        if (seq !== loadSeq.current) return;
        loadingTokenRef.current = null;
        setLoadingToken(null);
        addError(serverMessage(error) ?? t('conversations.errors.failedToLoad'));
        navigate(`/apps/${appId}/chat`, { replace: true });
      },
    );
  }, [token, appId, navigate, addError, showConversation, scheduleStateFetch, t, api.load]);

  // completion.finished: fetch the stored messages again.
  const lastReload = useRef(state.reloadRequests);
  useEffect(() => {
    if (state.reloadRequests === lastReload.current) return;
    lastReload.current = state.reloadRequests;
    const target = loadedTokenRef.current;
    if (!target) return;
    api.load(target).then(
      (answer) => {
        if (loadedTokenRef.current !== target) return;
        setConversation(answer.conversation);
        dispatch({ type: 'loaded', messages: answer.data, cursor: answer.next_cursor });
      },
      (error: unknown) => console.warn('[conversations] reloading the conversation failed', error),
    );
  }, [state.reloadRequests, api.load]);

  /** Scrolled to the top: the page before the oldest message shown (docs/adr/0026-messages-contract.md). */
  const loadOlder = useCallback(() => {
    const target = loadedTokenRef.current;
    const { olderCursor, loadingOlder } = stateRef.current;
    if (!target || !olderCursor || loadingOlder) return;
    dispatch({ type: 'olderRequested' });
    api.loadOlder(target, olderCursor).then(
      (page) => {
        if (loadedTokenRef.current !== target) return;
        dispatch({ type: 'olderLoaded', messages: page.data, cursor: page.next_cursor });
      },
      (error: unknown) => {
        console.warn('[conversations] loading older messages failed', error);
        if (loadedTokenRef.current === target) dispatch({ type: 'olderFailed' });
      },
    );
  }, [api.loadOlder]);

  /** Sends to the given (or the loaded) conversation: shown at once, restored on failure. */
  const send = useCallback(
    async (text: string, target: string | null = loadedTokenRef.current) => {
      if (!target) {
        addError(t('conversations.errors.noConversation'));
        return;
      }
      const restore = stateRef.current.messages;
      dispatch({ type: 'sendStarted', message: localMessage('user', text) });
      setInput('');
      const socketId = await waitForSocket(target);
      try {
        const answer = await api.send({ token: target, content: text, socketId });
        if (loadedTokenRef.current !== target) return;
        setUsageLimit(null);
        setConversation(answer.conversation);
        dispatch({ type: 'sendSucceeded', messages: answer.data });
      } catch (error) {
        if (loadedTokenRef.current !== target) return;
        if (error instanceof ApiError && error.status === 504) {
          // The reply goes on over the relay and is stored when done.
          dispatch({ type: 'sendTimedOut' });
          return;
        }
        if (isUsageLimit(error)) setUsageLimit(error.serverMessage ?? '');
        dispatch({
          type: 'sendFailed',
          restore,
          error: localMessage('error', serverMessage(error) ?? t('conversations.errors.failedToSend')),
        });
        setInput((current) => (current.trim() === '' ? text : current));
      }
    },
    [addError, waitForSocket, t, api.send],
  );

  /** No conversation yet: create one for the app, route to it, then send the typed text. */
  const start = useCallback(
    async (text: string) => {
      setCreating(true);
      setInput('');
      let created: ConversationCreated;
      try {
        created = await api.create(appId);
      } catch (error) {
        setCreating(false);
        setInput((current) => (current.trim() === '' ? text : current));
        // The plan is used up: the server opened no conversation and says why, as it does for a send.
        if (isUsageLimit(error)) setUsageLimit(error.serverMessage ?? '');
        addError(serverMessage(error) ?? t('conversations.errors.failedToCreate'));
        return;
      }
      setCreating(false);
      const { messages, ...rest } = created;
      loadSeq.current += 1;
      loadingTokenRef.current = null;
      loadedTokenRef.current = created.token;
      dispatch({ type: 'reset' });
      showConversation(rest);
      dispatch({ type: 'loaded', messages, cursor: null });
      events.emit('conversation-created', { conversation: created, appId });
      navigate(`/apps/${appId}/chat/${created.token}`);
      scheduleStateFetch(created.token);
      await send(text, created.token);
    },
    [appId, addError, navigate, send, showConversation, scheduleStateFetch, t, api.create],
  );

  const onSend = (raw: string) => {
    if (raw.trim() === '') {
      console.warn('[conversations] not sending a blank message');
      return;
    }
    if (creating) return;
    if (loadedTokenRef.current) void send(raw);
    else if (!token) void start(raw);
    else void send(raw, null);
  };

  const shown = useMemo(() => visibleMessages(state.messages, showAll), [state.messages, showAll]);

  return {
    state,
    /** The messages the Messages tab lists (all of them with "show all"). */
    shown,
    showAll,
    setShowAll,
    /** The routed conversation is being fetched. */
    loading: loadingToken !== null && loadingToken === token,
    hasConversation: conversation !== null || token !== null,
    creating,
    showInProgress: showInProgress(state) || creating,
    loadOlder,
    input,
    setInput,
    onSend,
    usageLimit,
    dismissUsageLimit: () => setUsageLimit(null),
    socketStatus: socket.status,
    /** While the relay is being reconnected, typing goes on and sending waits. */
    sendDisabled: socket.status === 'disconnected',
    relayState,
    stateError,
    dismissStateError: () => setStateError(null),
    refreshState: () => token && requestState(token),
    overrideState: socket.overrideState,
  };
}
