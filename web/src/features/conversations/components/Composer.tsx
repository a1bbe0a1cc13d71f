import { MESSAGE_MAX_CHARS } from '@llmor/contracts';
import { ActionIcon, Group, Textarea } from '@mantine/core';
import { IconSend } from '@tabler/icons-react';
import type { KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { isNewlineKey, isSendKey } from '../model/keys';

export interface ComposerProps {
  value: string;
  onChange(value: string): void;
  /** Called with the text when Enter alone is pressed or the send button clicked. */
  onSend(text: string): void;
  disabled?: boolean;
  /** Typing goes on, sending does not (e.g. while the connection is being restored). */
  sendDisabled?: boolean;
}

/** The composer counts characters once a message comes this close to the limit. */
const COUNT_FROM = MESSAGE_MAX_CHARS * 0.9;

/**
 * A growing textarea: Enter sends, Shift/Alt/Ctrl+Enter inserts a newline. Near the message limit it counts
 * the characters; past it, it says so and does not send (no request, no conversation opened for nothing).
 */
export function Composer({ value, onChange, onSend, disabled = false, sendDisabled = false }: ComposerProps) {
  const { t, i18n } = useTranslation();
  const tooLong = value.length > MESSAGE_MAX_CHARS;
  const blocked = sendDisabled || tooLong;
  const number = new Intl.NumberFormat(i18n.language.replace('_', '-'));
  const limit = number.format(MESSAGE_MAX_CHARS);

  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.nativeEvent.isComposing) return;
    if (isSendKey(e)) {
      e.preventDefault();
      if (!blocked) onSend(value);
      return;
    }
    // Alt/Ctrl+Enter do not insert a newline by themselves: insert it here (Shift+Enter does natively).
    if (isNewlineKey(e) && !e.shiftKey) {
      e.preventDefault();
      const el = e.currentTarget;
      const start = el.selectionStart;
      const end = el.selectionEnd;
      const next = `${value.slice(0, start)}\n${value.slice(end)}`;
      onChange(next);
      requestAnimationFrame(() => el.setSelectionRange(start + 1, start + 1));
    }
  };

  return (
    <Group align="flex-end" gap="xs" wrap="nowrap" data-testid="composer">
      <Textarea
        aria-label={t('conversations.composer.label')}
        placeholder={t('conversations.composer.placeholder')}
        value={value}
        onChange={(e) => onChange(e.currentTarget.value)}
        onKeyDown={onKeyDown}
        disabled={disabled}
        autosize
        minRows={1}
        maxRows={10}
        style={{ flex: 1 }}
        data-testid="composer-input"
        description={
          value.length > COUNT_FROM && !tooLong
            ? t('conversations.composer.count', { length: number.format(value.length), limit })
            : undefined
        }
        error={tooLong ? t('conversations.composer.tooLong', { limit }) : undefined}
      />
      <ActionIcon
        size="lg"
        variant="filled"
        onClick={() => onSend(value)}
        disabled={disabled || blocked}
        aria-label={t('conversations.composer.send')}
        data-testid="composer-send"
      >
        <IconSend size={18} />
      </ActionIcon>
    </Group>
  );
}
