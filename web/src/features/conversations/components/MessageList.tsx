import { ScrollArea, Stack, Text } from '@mantine/core';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import type { InProgress } from '../model/conversation';
import { commitInProgress } from '../model/conversation';
import type { ChatMessage } from '../model/messages';
import { MessageItem } from './MessageItem';

/** Scroll delays (docs/reference/console.md): after new messages, and while a reply streams in. */
const SCROLL_DELAY_NEW_MS = 100;
const SCROLL_DELAY_STREAM_MS = 50;

export interface MessageListProps {
  messages: ChatMessage[];
  inProgress: InProgress | null;
  /** Show the in-progress reply (a reply is running or it has content). */
  showInProgress: boolean;
}

/** The visible messages and the reply being streamed; keeps the view scrolled to the bottom. */
export function MessageList({ messages, inProgress, showInProgress }: MessageListProps) {
  const { t } = useTranslation();
  const viewport = useRef<HTMLDivElement>(null);
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

  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on every new message
  useEffect(() => scrollSoon(SCROLL_DELAY_NEW_MS), [messages.length]);
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
      data-testid="message-list"
    >
      <Stack gap="sm" p="xs">
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
