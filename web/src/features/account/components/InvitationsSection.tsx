import type { PendingInvitation } from '@llmor/contracts';
import { Badge, Button, Group, Paper, Stack, Table, Text } from '@mantine/core';
import { IconMailOpened } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { LoadError } from '../../../components/LoadError';
import { LoadingState } from '../../../components/LoadingState';
import { submitErrors } from '../../../lib/form';
import { formatDate } from '../../../lib/format/date';
import { notifySuccess } from '../../../lib/notify';
import { useAcceptInvitation } from '../api/acceptInvitation';
import { useDeclineInvitation } from '../api/declineInvitation';
import { useInvitations } from '../api/getInvitations';

/** The person's pending invitations: joining a vendor needs their consent (docs/adr/0023-identity-across-tenants.md). */
export function InvitationsSection() {
  const { t, i18n } = useTranslation();
  const invitations = useInvitations();
  const accept = useAcceptInvitation();
  const decline = useDeclineInvitation();
  const busy = accept.isPending || decline.isPending;

  if (invitations.isPending) {
    return <LoadingState text={t('account.invitations.loading')} testId="account-invitations-loading" />;
  }
  if (!invitations.data) {
    return (
      <LoadError
        error={invitations.error}
        onRetry={() => void invitations.refetch()}
        testId="account-invitations-error"
      />
    );
  }
  const rows = invitations.data.data;

  const answer = async (invitation: PendingInvitation, yes: boolean) => {
    const vendor = invitation.vendor_name;
    try {
      if (yes) {
        await accept.mutateAsync(invitation.vendor_id);
        notifySuccess(t('account.invitations.accepted', { vendor }));
      } else {
        await decline.mutateAsync(invitation.vendor_id);
        notifySuccess(t('account.invitations.declined', { vendor }));
      }
    } catch (error) {
      submitErrors(error, t('account.saveFailed'));
    }
  };

  if (rows.length === 0) {
    return (
      <Paper withBorder p="lg" radius="md" data-testid="account-invitations-empty">
        <Group gap="xs" justify="center">
          <IconMailOpened size={20} stroke={1.5} color="var(--mantine-color-dimmed)" />
          <Text c="dimmed" size="sm">
            {t('account.invitations.empty')}
          </Text>
        </Group>
      </Paper>
    );
  }

  return (
    <Table.ScrollContainer minWidth={420}>
      <Table verticalSpacing="xs" data-testid="account-invitations">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('account.invitations.vendor')}</Table.Th>
            <Table.Th>{t('account.invitations.role')}</Table.Th>
            <Table.Th>{t('account.invitations.invited')}</Table.Th>
            <Table.Th />
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((inv) => (
            <Table.Tr key={inv.vendor_id} data-testid={`account-invitation-${inv.vendor_id}`}>
              <Table.Td>
                <Text size="sm" fw={500} data-testid="account-invitation-vendor">
                  {inv.vendor_name}
                </Text>
              </Table.Td>
              <Table.Td>
                <Badge variant="light" color={inv.role === 'owner' ? 'blue' : 'gray'}>
                  {t(`account.invitations.roles.${inv.role}`)}
                </Badge>
              </Table.Td>
              <Table.Td>{formatDate(inv.created_at, i18n.language)}</Table.Td>
              <Table.Td>
                <Stack align="flex-end">
                  <Group gap="xs" wrap="nowrap">
                    <Button
                      size="xs"
                      variant="default"
                      disabled={busy}
                      onClick={() => void answer(inv, false)}
                      data-testid="account-invitation-decline"
                    >
                      {t('account.invitations.decline')}
                    </Button>
                    <Button
                      size="xs"
                      loading={accept.isPending && accept.variables === inv.vendor_id}
                      disabled={busy}
                      onClick={() => void answer(inv, true)}
                      data-testid="account-invitation-accept"
                    >
                      {t('account.invitations.accept')}
                    </Button>
                  </Group>
                </Stack>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
