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

/** A growing textarea: Enter sends, Shift/Alt/Ctrl+Enter inserts a newline. */
export function Composer({ value, onChange, onSend, disabled = false, sendDisabled = false }: ComposerProps) {
  const { t } = useTranslation();

  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.nativeEvent.isComposing) return;
    if (isSendKey(e)) {
      e.preventDefault();
      if (!sendDisabled) onSend(value);
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
      />
      <ActionIcon
        size="lg"
        variant="filled"
        onClick={() => onSend(value)}
        disabled={disabled || sendDisabled}
        aria-label={t('conversations.composer.send')}
        data-testid="composer-send"
      >
        <IconSend size={18} />
      </ActionIcon>
    </Group>
  );
}
