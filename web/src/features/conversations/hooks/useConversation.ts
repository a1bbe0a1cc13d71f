import {
  type ConversationCreated,
  type ConversationPage,
  ErrorCode,
  type MessageSent,
  SOCKET_WAIT,
  STATE_FETCH_DELAY_MS,
} from '@llmor/contracts';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useReducer, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { ApiError } from '../../../lib/api/error';
import { events } from '../../../lib/events';
import { useCreateConversation } from '../api/createConversation';
import { conversationQueryOptions, getConversation, olderMessagesQueryOptions } from '../api/getConversation';
import { useSendMessage } from '../api/sendMessage';
import { conversationReducer, initialConversationState, showInProgress } from '../model/conversation';
import { localMessage, visibleMessages } from '../model/messages';
import { type ConnectRelay, useRelaySocket } from './useRelaySocket';

/** The calls the conversation screen makes. */
export interface ConversationApi {
  /** The newest page of a conversation. */
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
  const { mutateAsync: send } = useSendMessage();
  const { mutateAsync: create } = useCreateConversation();
  return useMemo(() => ({ load: getConversation, loadOlder: getConversation, send, create }), [send, create]);
}

/** The usage-limit banner's text when a call was refused past the plan's limits, else null. */
const usageLimitOf = (error: unknown) => (isUsageLimit(error) ? (error.serverMessage ?? '') : null);

/**
 * The conversation screen's orchestration around its reducer (`model/conversation.ts`, which holds all of the
 * screen's state): the routed conversation's pages through the query cache (a late answer for another one is
 * ignored), sending (shown at once, restored on failure; 504 goes on over the relay), creating a conversation
 * for the first message, the relay socket and its state, reloading when a reply finished or the socket joined
 * again, and paging older messages.
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
  const [state, dispatch] = useReducer(conversationReducer, initialConversationState);
  /** The routed conversation once it is shown (loaded, or created here). */
  const shownToken = state.conversation && state.token;

  // One action per route change; it comes before the pages below, which are for the new route.
  useEffect(() => dispatch({ type: 'routed', token }), [token]);

  // The newest page is fetched when a conversation is opened, not again for one created here (its answer
  // carried it), and after that only when asked to (reloads below).
  const newest = useQuery({
    ...conversationQueryOptions(token ?? '', api.load),
    enabled: token !== null && token !== shownToken,
  });
  useEffect(() => {
    if (token && newest.data) dispatch({ type: 'loaded', token, page: newest.data });
  }, [token, newest.data]);
  useEffect(() => {
    if (!newest.error) return;
    if (shownToken) {
      console.warn('[conversations] reloading the conversation failed', newest.error);
      return;
    }
    dispatch({
      type: 'error',
      message: localMessage('error', serverMessage(newest.error) ?? t('conversations.errors.failedToLoad')),
    });
    navigate(`/apps/${appId}/chat`, { replace: true });
  }, [newest.error, shownToken, appId, navigate, t]);

  const older = useInfiniteQuery(olderMessagesQueryOptions(token ?? '', state.olderCursor, api.loadOlder));
  useEffect(() => {
    const page = older.data?.pages.at(-1);
    if (token && page) dispatch({ type: 'olderLoaded', token, page });
  }, [token, older.data]);
  useEffect(() => {
    if (older.error) console.warn('[conversations] loading older messages failed', older.error);
  }, [older.error]);

  const socket = useRelaySocket(
    token,
    state.conversation?.relay_url ?? null,
    {
      onMessage: (message) => dispatch({ type: 'relay', message, now: new Date().toISOString() }),
      onState: (next) => dispatch({ type: 'relayState', state: next }),
      onStateError: (error) => dispatch({ type: 'stateError', error }),
      onRejoined: () => {
        dispatch({ type: 'rejoined' });
        if (shownToken) requestState(shownToken);
      },
    },
    { connect, socketWait },
  );
  const { requestState, waitForSocket } = socket;

  /** About 1 s after a conversation is shown, its state is fetched (docs/reference/console.md). */
  useEffect(() => {
    if (!shownToken) return;
    const timer = setTimeout(() => requestState(shownToken), stateFetchDelayMs);
    return () => clearTimeout(timer);
  }, [shownToken, requestState, stateFetchDelayMs]);

  // completion.finished or a rejoin: fetch the stored messages again.
  const lastReload = useRef(state.reloadRequests);
  const { refetch } = newest;
  useEffect(() => {
    if (state.reloadRequests === lastReload.current) return;
    lastReload.current = state.reloadRequests;
    if (shownToken) void refetch();
  }, [state.reloadRequests, shownToken, refetch]);

  /** Scrolled to the top: the page before the oldest message shown (docs/adr/0026-messages-contract.md). */
  const { fetchNextPage, isFetching: fetchingOlder } = older;
  const loadOlder = useCallback(() => {
    if (shownToken && state.olderCursor && !fetchingOlder) void fetchNextPage();
  }, [shownToken, state.olderCursor, fetchingOlder, fetchNextPage]);

  /** Sends to the conversation shown: at once in the list, restored on failure. */
  const send = useCallback(
    async (text: string, target: string) => {
      dispatch({ type: 'sendStarted', token: target, message: localMessage('user', text) });
      const socketId = await waitForSocket(target);
      try {
        const answer = await api.send({ token: target, content: text, socketId });
        dispatch({ type: 'sendSucceeded', token: target, answer });
      } catch (error) {
        if (error instanceof ApiError && error.status === 504) {
          // The reply goes on over the relay and is stored when done.
          dispatch({ type: 'sendTimedOut', token: target });
          return;
        }
        dispatch({
          type: 'sendFailed',
          token: target,
          text,
          error: localMessage('error', serverMessage(error) ?? t('conversations.errors.failedToSend')),
          usageLimit: usageLimitOf(error),
        });
      }
    },
    [waitForSocket, t, api.send],
  );

  /** No conversation yet: create one for the app, route to it, then send the typed text. */
  const start = useCallback(
    async (text: string) => {
      dispatch({ type: 'createStarted' });
      let created: ConversationCreated;
      try {
        created = await api.create(appId);
      } catch (error) {
        // The plan is used up: the server opened no conversation and says why, as it does for a send.
        dispatch({
          type: 'createFailed',
          text,
          error: localMessage('error', serverMessage(error) ?? t('conversations.errors.failedToCreate')),
          usageLimit: usageLimitOf(error),
        });
        return;
      }
      dispatch({ type: 'created', created });
      events.emit('conversation-created', { conversation: created, appId });
      navigate(`/apps/${appId}/chat/${created.token}`);
      await send(text, created.token);
    },
    [appId, navigate, send, t, api.create],
  );

  const onSend = (raw: string) => {
    if (raw.trim() === '') {
      console.warn('[conversations] not sending a blank message');
      return;
    }
    if (state.creating) return;
    if (shownToken) void send(raw, shownToken);
    else if (!token) void start(raw);
    else
      dispatch({ type: 'error', message: localMessage('error', t('conversations.errors.noConversation')) });
  };

  const shown = useMemo(
    () => visibleMessages(state.messages, state.showAll),
    [state.messages, state.showAll],
  );

  return {
    state,
    /** The messages the Messages tab lists (all of them with "show all"). */
    shown,
    setShowAll: (value: boolean) => dispatch({ type: 'showAll', value }),
    /** The routed conversation is being fetched. */
    loading: token !== null && newest.isLoading,
    hasConversation: state.conversation !== null || token !== null,
    showInProgress: showInProgress(state) || state.creating,
    loadOlder,
    /** An older page is being fetched. */
    loadingOlder: older.isFetchingNextPage,
    setInput: (text: string) => dispatch({ type: 'typed', text }),
    onSend,
    dismissUsageLimit: () => dispatch({ type: 'usageLimitDismissed' }),
    socketStatus: socket.status,
    /** While the relay is being reconnected, typing goes on and sending waits. */
    sendDisabled: socket.status === 'disconnected',
    dismissStateError: () => dispatch({ type: 'stateErrorDismissed' }),
    refreshState: () => token && requestState(token),
    overrideState: socket.overrideState,
  };
}
