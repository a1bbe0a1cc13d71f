import { Alert, Badge, Button, Code, Group, JsonInput, Stack, Switch, Title } from '@mantine/core';
import { IconAlertTriangle, IconRefresh } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatJson } from './FunctionCallChip';

export interface StatePanelProps {
  state: unknown;
  /** state_err text; '' when the event carried none; null when there is no error. */
  error: string | null;
  /** The socket has joined this conversation. */
  connected: boolean;
  onRefresh(): void;
  onOverride(state: unknown): void;
  onDismissError(): void;
}

/** Parses the editor text; undefined when it is not JSON. */
function parseStateText(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

/**
 * State tab: the state as JSON, Refresh (get), State Editor with Override State (set) enabled only for
 * valid JSON. While the editor is open, incoming state does not overwrite its text. With the socket down
 * the buttons are disabled and a warning shows; state errors show in a dismissible panel.
 */
export function StatePanel({
  state,
  error,
  connected,
  onRefresh,
  onOverride,
  onDismissError,
}: StatePanelProps) {
  const { t } = useTranslation();
  const [editing, setEditing] = useState(false);
  const [text, setText] = useState(() => formatJson(state ?? {}));
  const parsed = parseStateText(text);

  // The editor text follows the state only while the editor is closed.
  useEffect(() => {
    if (!editing) setText(formatJson(state ?? {}));
  }, [state, editing]);

  const override = () => {
    const result = parseStateText(text);
    if (!result.ok) {
      console.warn('[state] not overriding: the text is not valid JSON');
      return;
    }
    onOverride(result.value);
  };

  return (
    <Stack gap="sm" data-testid="state-panel">
      {!connected && (
        <Alert color="yellow" icon={<IconAlertTriangle size={18} />} data-testid="state-socket-warning">
          {t('conversations.state.socketDown')}
        </Alert>
      )}
      {error !== null && (
        <Alert
          color="red"
          title={t('conversations.state.errorTitle')}
          withCloseButton
          closeButtonLabel={t('conversations.state.dismiss')}
          onClose={onDismissError}
          data-testid="state-error"
        >
          {error || t('conversations.state.unknownError')}
        </Alert>
      )}
      <Group justify="space-between">
        <Title order={5}>{t('conversations.state.title')}</Title>
        <Group gap="sm">
          <Switch
            label={t('conversations.state.editor')}
            checked={editing}
            onChange={(e) => setEditing(e.currentTarget.checked)}
            data-testid="state-editor-toggle"
          />
          <Button
            size="xs"
            variant="default"
            leftSection={<IconRefresh size={14} />}
            onClick={onRefresh}
            disabled={!connected}
            data-testid="state-refresh"
          >
            {t('conversations.state.refresh')}
          </Button>
        </Group>
      </Group>
      <Code block data-testid="state-json">
        {formatJson(state ?? {})}
      </Code>
      {editing && (
        <Stack gap="xs" data-testid="state-editor">
          <JsonInput
            label={t('conversations.state.editorLabel')}
            value={text}
            onChange={setText}
            autosize
            minRows={6}
            maxRows={20}
            styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
            error={!parsed.ok}
            data-testid="state-editor-input"
          />
          <Group justify="space-between">
            <Badge
              color={parsed.ok ? 'green' : 'red'}
              variant="light"
              data-testid="state-editor-validity"
              data-valid={parsed.ok}
            >
              {parsed.ok ? t('conversations.state.valid') : t('conversations.state.invalid')}
            </Badge>
            <Button
              size="xs"
              onClick={override}
              disabled={!connected || !parsed.ok}
              data-testid="state-override"
            >
              {t('conversations.state.override')}
            </Button>
          </Group>
        </Stack>
      )}
    </Stack>
  );
}
