import { Group, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { SocketStatus as Status } from '../hooks/useRelaySocket';
import classes from './Conversations.module.css';

const COLORS: Record<Status, string> = {
  connected: 'var(--mantine-color-green-6)',
  other: 'var(--mantine-color-yellow-5)',
  disconnected: 'var(--mantine-color-red-6)',
  none: 'var(--mantine-color-gray-5)',
  connecting: 'var(--mantine-color-gray-5)',
};

/** Status dot and label: connected (green), other conversation (yellow), disconnected (red), none (grey). */
export function SocketStatus({ status }: { status: Status }) {
  const { t } = useTranslation();
  return (
    <Group
      gap={6}
      wrap="nowrap"
      role="status"
      aria-label={t('conversations.socket.label')}
      data-testid="socket-status"
      data-status={status}
    >
      <span className={classes.dot} style={{ background: COLORS[status] }} aria-hidden />
      <Text size="sm" c="dimmed" data-testid="socket-status-label">
        {t(`conversations.socket.${status}`)}
      </Text>
    </Group>
  );
}
