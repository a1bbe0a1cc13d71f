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
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { type ConversationDependencies, useConversation } from '../hooks/useConversation';
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

export interface ConversationsPageProps extends ConversationsViewProps {
  /** Fakes for the calls, the relay socket and the waits (tests); the console's own ones when absent. */
  dependencies?: ConversationDependencies;
}

type Tab = 'messages' | 'debug' | 'relay' | 'state';

/** On a phone the tabs stay on one row (narrower, scrolling sideways if they must). */
const COMPACT_TABS = {
  list: { flexWrap: 'nowrap', overflowX: 'auto', overflowY: 'hidden' },
  tab: { flexShrink: 0, paddingInline: 'var(--mantine-spacing-xs)' },
} as const;

/**
 * The Conversations page (docs/reference/console.md): history on the left; Messages, Debug, Relay and State tabs; the
 * relay socket; the composer. Routes with react-router to /apps/{appId}/chat[/{token}]; what happens lives in
 * `useConversation`, this renders it.
 */
export function ConversationsPage({ appId, token: routeToken, dependencies }: ConversationsPageProps) {
  const { t } = useTranslation();
  const token = routeToken || null;
  const chat = useConversation(appId, token, dependencies);
  const { state, shown } = chat;
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
                  <SocketStatus status={chat.socketStatus} />
                </Group>
              )}
            </Tabs.List>

            <Tabs.Panel value="messages" pt="sm">
              <Stack gap="sm">
                <Group justify={wide ? 'flex-end' : 'space-between'}>
                  {!wide && <SocketStatus status={chat.socketStatus} />}
                  <Switch
                    size="xs"
                    label={t('conversations.messages.showAll')}
                    checked={state.showAll}
                    onChange={(e) => chat.setShowAll(e.currentTarget.checked)}
                    data-testid="conversation-show-all"
                  />
                </Group>
                {chat.loading ? (
                  <Center mih={280}>
                    <Loader aria-label={t('conversations.messages.loading')} />
                  </Center>
                ) : !chat.hasConversation && shown.length === 0 && !state.creating ? (
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
                    showInProgress={chat.showInProgress}
                    older={{
                      available: state.olderCursor !== null,
                      loading: chat.loadingOlder,
                      load: chat.loadOlder,
                    }}
                  />
                )}
                {state.usageLimit !== null ? (
                  <Alert
                    color="orange"
                    variant="light"
                    title={t('conversations.errors.usageLimitTitle')}
                    withCloseButton
                    onClose={chat.dismissUsageLimit}
                    data-testid="usage-limit-banner"
                  >
                    {state.usageLimit}{' '}
                    <Anchor component={Link} to="/settings/subscription" data-testid="usage-limit-upgrade">
                      {t('conversations.errors.upgrade')}
                    </Anchor>
                  </Alert>
                ) : null}
                {chat.sendDisabled && (
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
                  value={state.input}
                  onChange={chat.setInput}
                  onSend={chat.onSend}
                  sendDisabled={chat.sendDisabled}
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
                state={state.relayState}
                error={state.stateError}
                connected={chat.socketStatus === 'connected'}
                onRefresh={chat.refreshState}
                onOverride={chat.overrideState}
                onDismissError={chat.dismissStateError}
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
