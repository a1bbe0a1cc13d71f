import {
  MEMBER_ROLES,
  type Member,
  type MemberInviteBody,
  memberInviteBody,
  PAGE_SIZE_DEFAULT,
} from '@llmor/contracts';
import { Anchor, Badge, Button, Group, Modal, Select, Stack, Table, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconUserPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { InviteLinkModal } from '../../../components/InviteLinkModal';
import { ListFooter } from '../../../components/ListFooter';
import { ListTable } from '../../../components/ListTable';
import { LoadError } from '../../../components/LoadError';
import { RelativeTime } from '../../../components/RelativeTime';
import { SearchInput } from '../../../components/SearchInput';
import { useUnsavedChanges } from '../../../components/UnsavedChanges';
import { submitErrors, toFormErrors, zodFormValidate } from '../../../lib/form';
import { useClampPage, useDebouncedSearch } from '../../../lib/listState';
import { notifySuccess } from '../../../lib/notify';
import { useMembers } from '../api/getMembers';
import { useInviteMember } from '../api/inviteMember';
import { SettingsLayout } from './SettingsLayout';

export function MemberStatus({ member }: { member: Member }) {
  const { t } = useTranslation();
  const status = member.invited ? 'invited' : member.active ? 'active' : 'inactive';
  const color = { invited: 'yellow', active: 'green', inactive: 'gray' }[status];
  return (
    <Badge color={color} variant="light" data-testid="member-status" data-status={status}>
      {t(`settings.users.statuses.${status}`)}
    </Badge>
  );
}

/** /settings/users: the vendor's people (owners), search, paging, invite. */
export function MembersPage({ vendorId }: { vendorId: number }) {
  const { t } = useTranslation();
  const [page, setPage] = useState(0);
  const { search, setSearch, debouncedSearch } = useDebouncedSearch();
  const [inviting, setInviting] = useState(false);
  const query = useMembers(vendorId, {
    page,
    page_size: PAGE_SIZE_DEFAULT,
    order: 'email',
    search: debouncedSearch,
  });
  useClampPage(query.data, query.isPlaceholderData, page, PAGE_SIZE_DEFAULT, setPage);
  const rows = query.data?.data ?? [];
  return (
    <SettingsLayout title={t('settings.nav.users')}>
      <Stack gap="md">
        <Group justify="space-between">
          <SearchInput
            value={search}
            onSearch={(text) => {
              setSearch(text);
              setPage(0);
            }}
            placeholder={t('settings.users.search')}
            label={t('settings.users.search')}
            testId="members-search"
            // Wide enough for the longest locale's placeholder (fr_FR), and the row's room on a phone.
            style={{ flex: '0 1 300px' }}
          />
          <Button
            leftSection={<IconUserPlus size={16} />}
            onClick={() => setInviting(true)}
            data-testid="members-invite"
          >
            {t('settings.users.invite')}
          </Button>
        </Group>
        {query.isError ? (
          <LoadError
            error={query.error}
            onRetry={query.refetch}
            testId="members-load-error"
            title={t('settings.loadFailed')}
          />
        ) : (
          <ListTable
            load={query}
            testIdPrefix="members"
            minWidth={640}
            columns={5}
            loading={query.isPending}
            loadingText={t('settings.users.loading')}
            empty={rows.length === 0}
            emptyText={t('settings.users.empty')}
            head={
              <>
                <Table.Th>{t('settings.users.name')}</Table.Th>
                <Table.Th>{t('settings.users.email')}</Table.Th>
                <Table.Th>{t('settings.users.role')}</Table.Th>
                <Table.Th>{t('settings.users.status')}</Table.Th>
                <Table.Th>{t('settings.users.lastLogin')}</Table.Th>
              </>
            }
          >
            {rows.map((m) => (
              <Table.Tr key={m.id} data-testid={`member-row-${m.email}`}>
                <Table.Td>
                  <Anchor component={Link} to={`/settings/users/${m.id}`} data-testid="member-link">
                    {`${m.firstname} ${m.lastname}`.trim() || m.email}
                  </Anchor>
                </Table.Td>
                <Table.Td>{m.email}</Table.Td>
                <Table.Td>{t(`settings.users.roles.${m.role}`)}</Table.Td>
                <Table.Td>
                  <MemberStatus member={m} />
                </Table.Td>
                <Table.Td>
                  {m.last_login ? <RelativeTime value={m.last_login} /> : t('settings.users.never')}
                </Table.Td>
              </Table.Tr>
            ))}
          </ListTable>
        )}
        {query.data && (
          <ListFooter page={page} pageSize={PAGE_SIZE_DEFAULT} counts={query.data} onPageChange={setPage} />
        )}
      </Stack>
      <InviteModal vendorId={vendorId} opened={inviting} onClose={() => setInviting(false)} />
    </SettingsLayout>
  );
}

function InviteModal({ vendorId, opened, onClose }: { vendorId: number; opened: boolean; onClose(): void }) {
  const { t } = useTranslation();
  const invite = useInviteMember(vendorId);
  const [link, setLink] = useState<{ url: string; email: string } | null>(null);
  const form = useForm<MemberInviteBody>({
    initialValues: { email: '', firstname: '', lastname: '', role: 'member' },
    validate: zodFormValidate(memberInviteBody, t),
  });
  // A closed dialog keeps what was typed for its next opening; only an open one has input to lose.
  useUnsavedChanges(opened && form.isDirty());
  const onSubmit = async (values: MemberInviteBody) => {
    try {
      const answer = await invite.mutateAsync(values);
      form.reset();
      onClose();
      if (answer.invite_url) setLink({ url: answer.invite_url, email: answer.data.email });
      else notifySuccess(t('settings.invite.sent'));
    } catch (error) {
      form.setErrors(toFormErrors(submitErrors(error, t('settings.saveFailed'))));
    }
  };
  return (
    <>
      <Modal opened={opened} onClose={onClose} title={t('settings.invite.title')} data-testid="invite-modal">
        <form onSubmit={form.onSubmit((v) => void onSubmit(v))} noValidate>
          <Stack gap="sm">
            <TextInput
              label={t('settings.invite.email')}
              type="email"
              required
              data-autofocus
              {...form.getInputProps('email')}
              data-testid="invite-email"
            />
            <Group grow>
              <TextInput
                label={t('settings.invite.firstname')}
                {...form.getInputProps('firstname')}
                data-testid="invite-firstname"
              />
              <TextInput
                label={t('settings.invite.lastname')}
                {...form.getInputProps('lastname')}
                data-testid="invite-lastname"
              />
            </Group>
            <Select
              label={t('settings.invite.role')}
              data={MEMBER_ROLES.map((r) => ({ value: r, label: t(`settings.users.roles.${r}`) }))}
              allowDeselect={false}
              {...form.getInputProps('role')}
              data-testid="invite-role"
            />
            <Group justify="flex-end">
              <Button type="submit" loading={invite.isPending} data-testid="invite-submit">
                {t('settings.invite.submit')}
              </Button>
            </Group>
          </Stack>
        </form>
      </Modal>
      <InviteLinkModal url={link?.url ?? null} email={link?.email ?? ''} onClose={() => setLink(null)} />
    </>
  );
}
