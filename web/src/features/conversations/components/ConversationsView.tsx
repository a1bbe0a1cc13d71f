import { type Conversation, ErrorCode, STATE_FETCH_DELAY_MS } from '@llmor/contracts';
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Center,
  Drawer,
  Grid,
  Group,
  Loader,
  Paper,
  Stack,
  Switch,
  Tabs,
  Text,
  ThemeIcon,
  Title,
  useMantineTheme,
} from '@mantine/core';
import { useDisclosure, useMediaQuery } from '@mantine/hooks';
import {
  IconBug,
  IconHistory,
  IconMessages,
  IconPlugConnected,
  IconSparkles,
  IconStack2,
} from '@tabler/icons-react';
import { useCallback, useEffect, useMemo, useReducer, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { ApiError } from '../../../lib/api/error';
import { events } from '../../../lib/events';
import { useCreateConversation } from '../api/createConversation';
import { getConversation, useLoadConversation } from '../api/getConversation';
import { useSendMessage } from '../api/sendMessage';
import { useRelaySocket } from '../hooks/useRelaySocket';
import { conversationReducer, initialConversationState, showInProgress } from '../model/conversation';
import { localMessage, visibleMessages } from '../model/messages';
import '../i18n';
import { Composer } from './Composer';
import { DebugPanel } from './DebugPanel';
import { HistoryList } from './HistoryList';
import { MessageList } from './MessageList';
import { RelayPanel } from './RelayPanel';
import { SocketStatus } from './SocketStatus';
import { StatePanel } from './StatePanel';

export interface ConversationsViewProps {
  appId: number;
  /** The conversation token from the route (`/apps/{appId}/chat/{token}`), if any. */
  token?: string;
}

type Tab = 'messages' | 'debug' | 'relay' | 'state';

/** On a phone the tabs stay on one row (narrower, scrolling sideways if they must). */
const COMPACT_TABS = {
  list: { flexWrap: 'nowrap', overflowX: 'auto', overflowY: 'hidden' },
  tab: { flexShrink: 0, paddingInline: 'var(--mantine-spacing-xs)' },
} as const;

/** The server's message of a failed call, if it sent one. */
function serverMessage(error: unknown): string | undefined {
  return error instanceof ApiError ? error.serverMessage : undefined;
}

/**
 * The Conversations page (docs/reference/console.md): history on the left; Messages, Debug, Relay and State tabs; the
 * relay socket; the composer. Routes with react-router to /apps/{appId}/chat[/{token}].
 */
export function ConversationsPage({ appId, token: routeToken }: ConversationsViewProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const token = routeToken || null;

  const [conversation, setConversation] = useState<Conversation | null>(null);
  const [state, dispatch] = useReducer(conversationReducer, initialConversationState);
  const loadConversation = useLoadConversation();
  const sendMutation = useSendMessage();
  const createMutation = useCreateConversation();
  const [relayState, setRelayState] = useState<unknown>(null);
  const [stateError, setStateError] = useState<string | null>(null);
  /** The server's message while sends are refused past the plan's requests or tokens (402 code 60). */
  const [usageLimit, setUsageLimit] = useState<string | null>(null);
  const [input, setInput] = useState('');
  const [creating, setCreating] = useState(false);
  const [loadingToken, setLoadingToken] = useState<string | null>(null);
  const [showAll, setShowAll] = useState(false);
  const [tab, setTab] = useState<Tab>('messages');
  // Below the md breakpoint the chat comes first and the history opens as a drawer.
  const theme = useMantineTheme();
  const wide = useMediaQuery(`(min-width: ${theme.breakpoints.md})`, true, {
    getInitialValueInEffect: false,
  });
  const [historyOpen, historyDrawer] = useDisclosure(false);
  // Opening a conversation (or New) from the drawer closes it.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the route's conversation changes
  useEffect(() => historyDrawer.close(), [token]);

  /** The token whose conversation is shown (set before routing to a conversation created here). */
  const loadedTokenRef = useRef<string | null>(null);
  const loadSeq = useRef(0);
  /** The token being fetched by the route effect. */
  const loadingTokenRef = useRef<string | null>(null);
  const stateRef = useRef(state);
  stateRef.current = state;
  const stateTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  const socket = useRelaySocket(token, conversation?.relay_url ?? null, {
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
  });
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
      }, STATE_FETCH_DELAY_MS);
    },
    [requestState],
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
    loadConversation(token).then(
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
  }, [token, appId, navigate, addError, showConversation, scheduleStateFetch, t, loadConversation]);

  // completion.finished: fetch the stored messages again.
  const lastReload = useRef(state.reloadRequests);
  useEffect(() => {
    if (state.reloadRequests === lastReload.current) return;
    lastReload.current = state.reloadRequests;
    const target = loadedTokenRef.current;
    if (!target) return;
    loadConversation(target).then(
      (answer) => {
        if (loadedTokenRef.current !== target) return;
        setConversation(answer.conversation);
        dispatch({ type: 'loaded', messages: answer.data, cursor: answer.next_cursor });
      },
      (error: unknown) => console.warn('[conversations] reloading the conversation failed', error),
    );
  }, [state.reloadRequests, loadConversation]);

  /** Scrolled to the top: the page before the oldest message shown (docs/adr/0026-messages-contract.md). */
  const loadOlder = useCallback(() => {
    const target = loadedTokenRef.current;
    const { olderCursor, loadingOlder } = stateRef.current;
    if (!target || !olderCursor || loadingOlder) return;
    dispatch({ type: 'olderRequested' });
    getConversation(target, olderCursor).then(
      (page) => {
        if (loadedTokenRef.current !== target) return;
        dispatch({ type: 'olderLoaded', messages: page.data, cursor: page.next_cursor });
      },
      (error: unknown) => {
        console.warn('[conversations] loading older messages failed', error);
        if (loadedTokenRef.current === target) dispatch({ type: 'olderFailed' });
      },
    );
  }, []);

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
        const answer = await sendMutation.mutateAsync({ token: target, content: text, socketId });
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
        if (error instanceof ApiError && error.body?.code === ErrorCode.USAGE_LIMIT_REACHED) {
          setUsageLimit(error.serverMessage ?? '');
        }
        dispatch({
          type: 'sendFailed',
          restore,
          error: localMessage('error', serverMessage(error) ?? t('conversations.errors.failedToSend')),
        });
        setInput((current) => (current.trim() === '' ? text : current));
      }
    },
    [addError, waitForSocket, t, sendMutation.mutateAsync],
  );

  /** No conversation yet: create one for the app, route to it, then send the typed text. */
  const start = useCallback(
    async (text: string) => {
      setCreating(true);
      setInput('');
      let created: Awaited<ReturnType<typeof createMutation.mutateAsync>>;
      try {
        created = await createMutation.mutateAsync(appId);
      } catch (error) {
        setCreating(false);
        setInput((current) => (current.trim() === '' ? text : current));
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
    [appId, addError, navigate, send, showConversation, scheduleStateFetch, t, createMutation.mutateAsync],
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
  const loading = loadingToken !== null && loadingToken === token;
  const hasConversation = conversation !== null || token !== null;

  return (
    <Grid gap="md" data-testid="conversations-view" data-layout={wide ? 'wide' : 'compact'}>
      {wide ? (
        <Grid.Col span={{ md: 4, xl: 3 }}>
          <Paper withBorder p="sm">
            <HistoryList appId={appId} token={token} />
          </Paper>
        </Grid.Col>
      ) : (
        <Drawer
          opened={historyOpen}
          onClose={historyDrawer.close}
          title={t('conversations.history.title')}
          size="xs"
          data-testid="conversation-history-drawer"
        >
          <HistoryList appId={appId} token={token} heading={false} />
        </Drawer>
      )}
      <Grid.Col span={{ base: 12, md: 8, xl: 9 }}>
        {!wide && (
          <Button
            variant="default"
            size="xs"
            mb="xs"
            leftSection={<IconHistory size={16} />}
            onClick={historyDrawer.open}
            data-testid="conversation-history-open"
          >
            {t('conversations.history.title')}
          </Button>
        )}
        <Paper withBorder p="sm">
          <Tabs
            value={tab}
            onChange={(v) => v && setTab(v as Tab)}
            keepMounted={false}
            styles={wide ? undefined : COMPACT_TABS}
          >
            <Tabs.List aria-label={t('conversations.tabs.label')}>
              <Tabs.Tab
                value="messages"
                leftSection={wide && <IconMessages size={16} />}
                rightSection={
                  <Badge size="sm" variant="light" data-testid="conversation-messages-count">
                    {shown.length}
                  </Badge>
                }
                data-testid="tab-messages"
              >
                {t('conversations.tabs.messages')}
              </Tabs.Tab>
              <Tabs.Tab value="debug" leftSection={wide && <IconBug size={16} />} data-testid="tab-debug">
                {t('conversations.tabs.debug')}
              </Tabs.Tab>
              <Tabs.Tab
                value="relay"
                leftSection={wide && <IconPlugConnected size={16} />}
                rightSection={
                  <Badge size="sm" variant="light" data-testid="conversation-relay-count">
                    {state.relayLog.length}
                  </Badge>
                }
                data-testid="tab-relay"
              >
                {t('conversations.tabs.relay')}
              </Tabs.Tab>
              <Tabs.Tab value="state" leftSection={wide && <IconStack2 size={16} />} data-testid="tab-state">
                {t('conversations.tabs.state')}
              </Tabs.Tab>
              {wide && (
                <Group ml="auto" px="xs">
                  <SocketStatus status={socket.status} />
                </Group>
              )}
            </Tabs.List>

            <Tabs.Panel value="messages" pt="sm">
              <Stack gap="sm">
                <Group justify={wide ? 'flex-end' : 'space-between'}>
                  {!wide && <SocketStatus status={socket.status} />}
                  <Switch
                    size="xs"
                    label={t('conversations.messages.showAll')}
                    checked={showAll}
                    onChange={(e) => setShowAll(e.currentTarget.checked)}
                    data-testid="conversation-show-all"
                  />
                </Group>
                {loading ? (
                  <Center mih={280}>
                    <Loader aria-label={t('conversations.messages.loading')} />
                  </Center>
                ) : !hasConversation && shown.length === 0 && !creating ? (
                  <Center mih={280} data-testid="conversation-empty">
                    <Stack align="center" gap="xs" maw={420}>
                      <ThemeIcon size={48} radius="xl" variant="light">
                        <IconSparkles size={28} />
                      </ThemeIcon>
                      <Title order={4}>{t('conversations.empty.title')}</Title>
                      <Text c="dimmed" size="sm" ta="center">
                        {t('conversations.empty.text')}
                      </Text>
                    </Stack>
                  </Center>
                ) : (
                  <MessageList
                    messages={shown}
                    inProgress={state.inProgress}
                    showInProgress={showInProgress(state) || creating}
                    older={{
                      available: state.olderCursor !== null,
                      loading: state.loadingOlder,
                      load: loadOlder,
                    }}
                  />
                )}
                {usageLimit !== null ? (
                  <Alert
                    color="orange"
                    variant="light"
                    title={t('conversations.errors.usageLimitTitle')}
                    withCloseButton
                    onClose={() => setUsageLimit(null)}
                    data-testid="usage-limit-banner"
                  >
                    {usageLimit}{' '}
                    <Anchor component={Link} to="/settings/subscription" data-testid="usage-limit-upgrade">
                      {t('conversations.errors.upgrade')}
                    </Anchor>
                  </Alert>
                ) : null}
                {socket.status === 'disconnected' && (
                  <Alert
                    color="orange"
                    variant="light"
                    icon={<Loader size={16} color="orange" />}
                    role="alert"
                    data-testid="socket-reconnecting"
                  >
                    {t('conversations.socket.reconnecting')}
                  </Alert>
                )}
                <Composer
                  value={input}
                  onChange={setInput}
                  onSend={onSend}
                  sendDisabled={socket.status === 'disconnected'}
                />
              </Stack>
            </Tabs.Panel>
            <Tabs.Panel value="debug" pt="sm">
              <DebugPanel data={state.debug} />
            </Tabs.Panel>
            <Tabs.Panel value="relay" pt="sm">
              <RelayPanel log={state.relayLog} />
            </Tabs.Panel>
            <Tabs.Panel value="state" pt="sm">
              <StatePanel
                state={relayState}
                error={stateError}
                connected={socket.status === 'connected'}
                onRefresh={() => token && requestState(token)}
                onOverride={(next) => socket.overrideState(next)}
                onDismissError={() => setStateError(null)}
              />
            </Tabs.Panel>
          </Tabs>
        </Paper>
      </Grid.Col>
    </Grid>
  );
}

/** The Conversations tab of an app page; a fresh page (socket, state) per app. */
export function ConversationsView(props: ConversationsViewProps) {
  return <ConversationsPage key={props.appId} {...props} />;
}
