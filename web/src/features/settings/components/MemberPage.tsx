import { MEMBER_ROLES, type Member, type MemberUpdateBody, memberUpdateBody } from '@llmor/contracts';
import { Alert, Button, Group, Select, Skeleton, Stack, Switch, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { ConfirmDeleteModal } from '../../../components/ConfirmDeleteModal';
import { InviteLinkModal } from '../../../components/InviteLinkModal';
import { LoadError } from '../../../components/LoadError';
import { useUnsavedChanges } from '../../../components/UnsavedChanges';
import { isApiError } from '../../../lib/api/error';
import { submitErrors, toFormErrors, zodFormValidate } from '../../../lib/form';
import { notifySuccess } from '../../../lib/notify';
import { useMember } from '../api/getMember';
import { useRemoveMember } from '../api/removeMember';
import { useResendInvitation } from '../api/resendInvitation';
import { useUpdateMember } from '../api/updateMember';
import { MemberStatus } from './MembersPage';
import { SettingsLayout } from './SettingsLayout';

/** /settings/users/{id}: the membership (role, whether the person may work in the vendor); remove; resend. */
export function MemberPage({ vendorId, userId }: { vendorId: number; userId: number }) {
  const { t } = useTranslation();
  const member = useMember(vendorId, userId);
  const notFound = isApiError(member.error) && member.error.status === 404;
  const title = member.data ? member.data.data.email : t('settings.member.title');
  return (
    <SettingsLayout title={title} crumbs={[{ label: t('settings.nav.users'), to: '/settings/users' }]}>
      {notFound ? (
        <Alert color="gray" data-testid="member-not-found">
          {t('settings.member.notFound')}
        </Alert>
      ) : member.isError ? (
        <LoadError
          error={member.error}
          onRetry={member.refetch}
          testId="member-load-error"
          title={t('settings.loadFailed')}
        />
      ) : member.data ? (
        <MemberForm key={member.dataUpdatedAt} vendorId={vendorId} member={member.data.data} />
      ) : (
        <Skeleton height={200} />
      )}
    </SettingsLayout>
  );
}

function MemberForm({ vendorId, member }: { vendorId: number; member: Member }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const update = useUpdateMember(vendorId, member.id);
  const remove = useRemoveMember(vendorId, member.id);
  const resend = useResendInvitation(vendorId, member.id);
  const [confirming, setConfirming] = useState(false);
  const [link, setLink] = useState<string | null>(null);
  const form = useForm<MemberUpdateBody>({
    initialValues: { role: member.role, active: member.active },
    validate: zodFormValidate(memberUpdateBody, t),
  });
  const unsaved = useUnsavedChanges(form.isDirty());
  const onSave = async (values: MemberUpdateBody) => {
    try {
      await update.mutateAsync(values);
      form.resetDirty(values);
      notifySuccess(t('settings.saved'));
    } catch (error) {
      form.setErrors(toFormErrors(submitErrors(error, t('settings.saveFailed'))));
    }
  };
  const onRemove = async () => {
    try {
      await remove.mutateAsync();
      notifySuccess(t('settings.member.removed'));
      unsaved.allowNextNavigation();
      navigate('/settings/users', { replace: true });
    } catch (error) {
      setConfirming(false);
      submitErrors(error, t('settings.saveFailed'));
    }
  };
  const onResend = async () => {
    try {
      const answer = await resend.mutateAsync();
      if (answer.invite_url) setLink(answer.invite_url);
      else notifySuccess(t('settings.invite.sent'));
    } catch (error) {
      submitErrors(error, t('settings.saveFailed'));
    }
  };
  return (
    <form onSubmit={form.onSubmit((v) => void onSave(v))} noValidate data-testid="member-form">
      <Stack gap="md" maw={560}>
        <Group>
          <MemberStatus member={member} />
        </Group>
        {/* A person's names are their own (their account page): the vendor sees them, never edits them. */}
        <TextInput
          label={t('settings.users.name')}
          description={t('settings.member.namesOwn')}
          value={[member.firstname, member.lastname].filter(Boolean).join(' ')}
          readOnly
          data-testid="member-name"
        />
        <Select
          label={t('settings.users.role')}
          data={MEMBER_ROLES.map((r) => ({ value: r, label: t(`settings.users.roles.${r}`) }))}
          allowDeselect={false}
          {...form.getInputProps('role')}
          data-testid="member-role"
        />
        <Switch
          label={t('settings.member.active')}
          {...form.getInputProps('active', { type: 'checkbox' })}
          data-testid="member-active"
        />
        <Group justify="space-between">
          <Group>
            <Button
              variant="subtle"
              color="red"
              onClick={() => setConfirming(true)}
              data-testid="member-remove"
            >
              {t('settings.member.remove')}
            </Button>
            {member.invited && (
              <Button
                variant="subtle"
                loading={resend.isPending}
                onClick={() => void onResend()}
                data-testid="member-resend"
              >
                {t('settings.member.resend')}
              </Button>
            )}
          </Group>
          <Button type="submit" loading={update.isPending} data-testid="member-save">
            {t('settings.save')}
          </Button>
        </Group>
      </Stack>
      <ConfirmDeleteModal
        opened={confirming}
        onClose={() => setConfirming(false)}
        title={t('settings.member.remove')}
        text={t('settings.member.removeConfirm', { email: member.email })}
        cancelLabel={t('settings.member.cancel')}
        confirmLabel={t('settings.member.remove')}
        onConfirm={() => void onRemove()}
        loading={remove.isPending}
        testIds={{
          text: 'member-remove-text',
          cancel: 'member-remove-cancel',
          confirm: 'member-remove-confirm',
        }}
      />
      <InviteLinkModal url={link} email={member.email} onClose={() => setLink(null)} />
    </form>
  );
}
