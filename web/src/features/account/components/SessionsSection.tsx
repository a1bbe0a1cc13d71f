import { Badge, Button, Group, Modal, Stack, Table, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LoadError } from '../../../components/LoadError';
import { LoadingState } from '../../../components/LoadingState';
import { RelativeTime } from '../../../components/RelativeTime';
import { submitErrors } from '../../../lib/form';
import { formatDateTime } from '../../../lib/format/date';
import { useSessions } from '../api/getSessions';
import { useSignOutOtherSessions } from '../api/signOutOtherSessions';
import { SessionsEndedAlert } from './SessionsEndedAlert';

/** The person's signed-in sessions, and signing out every other one. */
export function SessionsSection() {
  const { t, i18n } = useTranslation();
  const sessions = useSessions();
  const signOutOthers = useSignOutOtherSessions();
  const [confirming, setConfirming] = useState(false);
  const [ended, setEnded] = useState<number | null>(null);

  if (sessions.isPending)
    return <LoadingState text={t('account.sessions.loading')} testId="account-sessions-loading" />;
  if (!sessions.data) {
    return (
      <LoadError
        error={sessions.error}
        onRetry={() => void sessions.refetch()}
        testId="account-sessions-error"
      />
    );
  }
  const rows = sessions.data.data;
  const others = rows.filter((s) => !s.current).length;

  const onConfirm = async () => {
    try {
      const answer = await signOutOthers.mutateAsync();
      setEnded(answer.ended);
    } catch (error) {
      submitErrors(error, t('account.saveFailed'));
    }
    setConfirming(false);
  };

  return (
    <Stack gap="sm">
      {ended !== null && (
        <SessionsEndedAlert
          text={t('account.sessions.ended', { count: ended })}
          onClose={() => setEnded(null)}
          testId="account-sessions-ended"
        />
      )}
      {rows.length === 0 ? (
        <Text c="dimmed" size="sm" data-testid="account-sessions-empty">
          {t('account.sessions.empty')}
        </Text>
      ) : (
        <Table.ScrollContainer minWidth={420}>
          <Table verticalSpacing="xs" data-testid="account-sessions">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('account.sessions.opened')}</Table.Th>
                <Table.Th>{t('account.sessions.lastUsed')}</Table.Th>
                <Table.Th />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((s) => (
                <Table.Tr key={s.id} data-testid="account-session-row" data-current={s.current}>
                  <Table.Td>{formatDateTime(s.created_at, i18n.language)}</Table.Td>
                  <Table.Td>
                    <RelativeTime value={s.last_seen_at} />
                  </Table.Td>
                  <Table.Td>
                    {s.current && (
                      <Badge variant="light" data-testid="account-session-current">
                        {t('account.sessions.current')}
                      </Badge>
                    )}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      <Group>
        <Button
          variant="default"
          color="red"
          disabled={others === 0}
          onClick={() => setConfirming(true)}
          data-testid="account-sessions-signout-others"
        >
          {t('account.sessions.signOutOthers')}
        </Button>
      </Group>
      <Modal
        opened={confirming}
        onClose={() => !signOutOthers.isPending && setConfirming(false)}
        title={t('account.sessions.confirmTitle')}
        centered
        data-testid="account-sessions-confirm"
      >
        <Stack>
          <Text size="sm">{t('account.sessions.confirmText')}</Text>
          <Group justify="flex-end">
            <Button
              variant="default"
              disabled={signOutOthers.isPending}
              onClick={() => setConfirming(false)}
              data-testid="account-sessions-confirm-cancel"
            >
              {t('account.sessions.cancel')}
            </Button>
            <Button
              color="red"
              loading={signOutOthers.isPending}
              onClick={() => void onConfirm()}
              data-testid="account-sessions-confirm-submit"
            >
              {t('account.sessions.confirm')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}
