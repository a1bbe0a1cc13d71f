import { Button, Center, Loader, ScrollArea, Stack, Text } from '@mantine/core';
import { useEffect, useLayoutEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import type { InProgress } from '../model/conversation';
import { commitInProgress } from '../model/conversation';
import type { ChatMessage } from '../model/messages';
import { MessageItem } from './MessageItem';

/** Scroll delays (docs/reference/console.md): after new messages, and while a reply streams in. */
const SCROLL_DELAY_NEW_MS = 100;
const SCROLL_DELAY_STREAM_MS = 50;
/** How close to the top (px) scrolling loads the older page. */
const OLDER_THRESHOLD_PX = 40;

export interface MessageListProps {
  messages: ChatMessage[];
  inProgress: InProgress | null;
  /** Show the in-progress reply (a reply is running or it has content). */
  showInProgress: boolean;
  /** Older messages than the first shown: whether there are, whether they are loading, how to load them. */
  older: { available: boolean; loading: boolean; load(): void };
}

/**
 * The visible messages and the reply being streamed; keeps the view scrolled to the bottom as messages
 * arrive, and loads the older page when scrolled to the top (keeping what was in view in place).
 */
export function MessageList({ messages, inProgress, showInProgress, older }: MessageListProps) {
  const { t } = useTranslation();
  const viewport = useRef<HTMLDivElement>(null);
  const firstKey = messages[0]?.key;
  const lastKey = messages[messages.length - 1]?.key;
  const seen = useRef({ firstKey, lastKey, height: 0 });
  const streamedLength = showInProgress
    ? (inProgress?.text.length ?? 0) + (inProgress?.calls.length ?? 0)
    : -1;

  const scrollSoon = (delay: number) => {
    const timer = setTimeout(() => {
      const el = viewport.current;
      if (el) el.scrollTo({ top: el.scrollHeight });
    }, delay);
    return () => clearTimeout(timer);
  };

  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when a message is added at the end
  useEffect(() => scrollSoon(SCROLL_DELAY_NEW_MS), [lastKey]);
  // An older page went in above: keep the messages that were in view where they were.
  useLayoutEffect(() => {
    const el = viewport.current;
    if (!el) return;
    const before = seen.current;
    if (before.firstKey !== firstKey && before.lastKey === lastKey && before.height > 0) {
      el.scrollTop += el.scrollHeight - before.height;
    }
    seen.current = { firstKey, lastKey, height: el.scrollHeight };
  });
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on every streamed chunk
  useEffect(() => scrollSoon(SCROLL_DELAY_STREAM_MS), [streamedLength]);

  const pending = showInProgress
    ? commitInProgress(
        inProgress ?? { key: 'pending', text: '', calls: [], started_at: new Date().toISOString() },
      )
    : null;

  return (
    <ScrollArea
      viewportRef={viewport}
      h="calc(100dvh - 420px)"
      mih={280}
      offsetScrollbars
      onScrollPositionChange={({ y }) => {
        if (y < OLDER_THRESHOLD_PX && older.available && !older.loading) older.load();
      }}
      data-testid="message-list"
    >
      <Stack gap="sm" p="xs">
        {older.loading ? (
          <Center>
            <Loader
              size="sm"
              aria-label={t('conversations.messages.loadingOlder')}
              data-testid="messages-older-loading"
            />
          </Center>
        ) : older.available ? (
          <Center>
            <Button variant="subtle" size="xs" onClick={older.load} data-testid="messages-older">
              {t('conversations.messages.older')}
            </Button>
          </Center>
        ) : null}
        {messages.length === 0 && !pending && (
          <Text c="dimmed" size="sm" ta="center" py="lg" data-testid="message-list-empty">
            {t('conversations.messages.none')}
          </Text>
        )}
        {messages.map((m) => (
          <MessageItem key={m.key} message={m} />
        ))}
        {pending && <MessageItem key={pending.key} message={pending} streaming />}
      </Stack>
    </ScrollArea>
  );
}
