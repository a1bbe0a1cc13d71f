import { List } from '@mantine/core';
import type { ReactNode } from 'react';

/** A field's error(s) for a Mantine `error` prop: one message as text, several as a list (docs/reference/rules.md). */
export function fieldError(messages: readonly string[]): ReactNode {
  if (messages.length === 0) return undefined;
  if (messages.length === 1) return messages[0];
  return (
    <List size="xs" c="inherit" spacing={2}>
      {messages.map((m) => (
        <List.Item key={m}>{m}</List.Item>
      ))}
    </List>
  );
}

/** data-testid for props that take plain element attributes (e.g. Mantine `errorProps`). */
export const testIdProps = (id: string) => ({ 'data-testid': id }) as Record<string, string>;
