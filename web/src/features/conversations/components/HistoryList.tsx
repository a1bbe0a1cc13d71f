import { CONVERSATION_TOKEN_TAIL, type ConversationChannel, HISTORY_PAGE_SIZE } from '@llmor/contracts';
import { Badge, Button, Center, Group, Loader, NavLink, Stack, Text, Title } from '@mantine/core';
import { IconMessagePlus } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { LoadError } from '../../../components/LoadError';
import { RelativeTime } from '../../../components/RelativeTime';
import { events } from '../../../lib/events';
import { useConversations } from '../api/listConversations';

/** '#' plus the last 6 characters of the token. */
const tokenTail = (token: string) => `#${token.slice(-CONVERSATION_TOKEN_TAIL)}`;

const CHANNEL_COLORS: Record<ConversationChannel, string> = {
  management: 'gray',
  api: 'blue',
  embed: 'teal',
  slack: 'grape',
};

/**
 * Conversation History: New button, newest first, 20 per page with Previous / Next, the open one
 * highlighted; a failed load says so with Try again. Returns to the first page when a conversation-created
 * event for this app arrives.
 */
export function HistoryList({
  appId,
  token,
  heading = true,
}: {
  appId: number;
  token: string | null;
  /** Whether to show the title (a drawer shows it in its own header). */
  heading?: boolean;
}) {
  const { t } = useTranslation();
  const [page, setPage] = useState(0);
  const list = useConversations(appId, page);

  useEffect(
    () =>
      // The creating call refreshes the list (useCreateConversation); here only the page returns to the newest.
      events.on('conversation-created', ({ appId: createdFor }) => {
        if (Number(createdFor) === appId) setPage(0);
      }),
    [appId],
  );

  const total = list.data?.filter_count ?? 0;
  const hasNext = (page + 1) * HISTORY_PAGE_SIZE < total;
  const items = list.data?.data ?? [];

  return (
    <Stack gap="xs" data-testid="conversation-history">
      <Group justify={heading ? 'space-between' : 'flex-end'} wrap="nowrap" align="flex-start" gap="xs">
        {heading && (
          <Title order={5} style={{ minWidth: 0 }} data-testid="conversation-history-title">
            {t('conversations.history.title')}
          </Title>
        )}
        <Button
          component={Link}
          to={`/apps/${appId}/chat`}
          size="xs"
          variant="light"
          leftSection={<IconMessagePlus size={16} />}
          style={{ flex: 'none' }}
          data-testid="conversation-new"
        >
          {t('conversations.history.new')}
        </Button>
      </Group>
      {list.isPending ? (
        <Center py="md">
          <Loader size="sm" aria-label={t('conversations.history.loading')} />
        </Center>
      ) : list.isError ? (
        <LoadError error={list.error} onRetry={list.refetch} testId="conversation-history-load-error" />
      ) : items.length === 0 ? (
        <Text size="sm" c="dimmed" data-testid="conversation-history-empty">
          {t('conversations.history.empty')}
        </Text>
      ) : (
        <Stack gap={2} data-testid="conversation-history-list">
          {items.map((item) => {
            const tail = tokenTail(item.token);
            const active = item.token === token;
            return (
              <NavLink
                key={item.id}
                component={Link}
                to={`/apps/${appId}/chat/${item.token}`}
                active={active}
                aria-current={active ? 'page' : undefined}
                aria-label={t('conversations.history.item', { tail: tail.slice(1) })}
                label={
                  <Text ff="monospace" size="sm">
                    {tail}
                  </Text>
                }
                description={<RelativeTime value={item.created_at} />}
                rightSection={
                  <Badge
                    size="xs"
                    variant="light"
                    color={CHANNEL_COLORS[item.channel]}
                    title={t('conversations.history.channel')}
                    data-testid="conversation-channel"
                  >
                    {t(`conversations.history.channels.${item.channel}`)}
                  </Badge>
                }
                data-channel={item.channel}
                data-testid="conversation-history-item"
                data-token={item.token}
                data-active={active || undefined}
              />
            );
          })}
        </Stack>
      )}
      <Group justify="space-between">
        <Button
          size="xs"
          variant="default"
          disabled={page === 0}
          onClick={() => setPage((p) => Math.max(0, p - 1))}
          data-testid="conversation-history-prev"
        >
          {t('conversations.history.previous')}
        </Button>
        <Button
          size="xs"
          variant="default"
          disabled={!hasNext}
          onClick={() => setPage((p) => p + 1)}
          data-testid="conversation-history-next"
        >
          {t('conversations.history.next')}
        </Button>
      </Group>
    </Stack>
  );
}
