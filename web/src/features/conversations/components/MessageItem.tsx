import { Group, Loader, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { RelativeTime } from '../../../components/RelativeTime';
import type { ChatMessage } from '../model/messages';
import classes from './Conversations.module.css';
import { FunctionCallChip } from './FunctionCallChip';
import { Markdown } from './Markdown';
import { MessageSources } from './MessageSources';

const LABELLED_ROLES = ['assistant', 'error', 'user', 'system'] as const;
const isLabelled = (role: string): role is (typeof LABELLED_ROLES)[number] =>
  (LABELLED_ROLES as readonly string[]).includes(role);

/** Role label: Assistant, Error, User, System (docs/reference/console.md names the first two), or the raw role. */
function useRoleLabel() {
  const { t } = useTranslation();
  return (role: string) => (isLabelled(role) ? t(`conversations.messages.${role}`) : role);
}

/**
 * One message: role label, time, Markdown text ('[no message]' when empty), function call chips, and the
 * sources an answer was given (collapsed).
 */
export function MessageItem({ message, streaming = false }: { message: ChatMessage; streaming?: boolean }) {
  const { t } = useTranslation();
  const roleLabel = useRoleLabel();
  const text = message.message ?? '';
  const hasCalls = message.function_calls.length > 0;
  return (
    <Stack
      gap={4}
      className={classes.message}
      data-role={message.role}
      data-testid="message"
      data-streaming={streaming || undefined}
      data-message-id={message.id ?? undefined}
    >
      <Group gap="xs" justify="space-between" wrap="nowrap">
        <Text size="xs" fw={700} data-testid="message-role">
          {roleLabel(message.role)}
        </Text>
        <Text size="xs" c="dimmed" data-testid="message-time">
          <RelativeTime value={message.created_at} />
        </Text>
      </Group>
      {text.trim() !== '' ? (
        <div data-testid="message-text">
          <Markdown text={text} />
        </div>
      ) : streaming ? (
        !hasCalls && (
          <Group gap="xs" data-testid="message-typing">
            <Loader type="dots" size="sm" />
            <Text size="xs" c="dimmed">
              {t('conversations.messages.typing')}
            </Text>
          </Group>
        )
      ) : (
        !hasCalls && (
          <Text size="sm" c="dimmed" fs="italic" data-testid="message-text">
            {t('conversations.messages.noMessage')}
          </Text>
        )
      )}
      {hasCalls && (
        <Stack gap={6} data-testid="message-calls">
          {message.function_calls.map((call) => (
            <FunctionCallChip key={call.id} call={call} />
          ))}
        </Stack>
      )}
      {message.sources.length > 0 && <MessageSources sources={message.sources} />}
    </Stack>
  );
}
