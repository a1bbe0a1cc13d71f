import {
  type AdminVendorCreateBody,
  adminVendorCreateBody,
  CURRENCY_INPUT_DEFAULT,
  PAGE_SIZE_DEFAULT,
} from '@llmor/contracts';
import { Anchor, Badge, Button, Group, Modal, Stack, Table, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { ListFooter } from '../../../components/ListFooter';
import { ListTable } from '../../../components/ListTable';
import { PageHeader } from '../../../components/PageHeader';
import { RelativeTime } from '../../../components/RelativeTime';
import { SearchInput } from '../../../components/SearchInput';
import { submitErrors, toFormErrors, zodFormValidate } from '../../../lib/form';
import { useClampPage, useDebouncedSearch } from '../../../lib/listState';
import { notifySuccess } from '../../../lib/notify';
import { useCreateAdminVendor } from '../api/createAdminVendor';
import { useAdminVendors } from '../api/listAdminVendors';
import '../i18n';
import { InviteLinkModal } from '../../../components/InviteLinkModal';
import { useUnsavedChanges } from '../../../components/UnsavedChanges';
import { AdminNav } from './AdminNav';

/** /admin/vendors: every vendor with its counts; create a vendor and invite its owner. */
export function AdminVendorsPage() {
  const { t } = useTranslation();
  const [page, setPage] = useState(0);
  const { search, setSearch, debouncedSearch } = useDebouncedSearch();
  const [creating, setCreating] = useState(false);
  const query = useAdminVendors({ page, page_size: PAGE_SIZE_DEFAULT, search: debouncedSearch });
  useClampPage(query.data, query.isPlaceholderData, page, PAGE_SIZE_DEFAULT, setPage);
  const rows = query.data?.data ?? [];
  return (
    <>
      <PageHeader
        title={t('pages.admin.vendors')}
        breadcrumbs={[
          { label: t('pages.admin.title'), to: '/admin/vendors' },
          { label: t('pages.admin.vendors') },
        ]}
        actions={
          <Button
            leftSection={<IconPlus size={16} />}
            onClick={() => setCreating(true)}
            data-testid="admin-vendors-create"
          >
            {t('admin.create')}
          </Button>
        }
      />
      <AdminNav active="vendors" />
      <Stack gap="md">
        <SearchInput
          value={search}
          onSearch={(text) => {
            setSearch(text);
            setPage(0);
          }}
          placeholder={t('admin.search')}
          label={t('admin.search')}
          testId="admin-vendors-search"
          maw={360}
        />
        <ListTable
          load={query}
          testIdPrefix="admin-vendors"
          minWidth={760}
          columns={7}
          loading={query.isPending}
          loadingText={t('admin.loading')}
          empty={!query.isPending && rows.length === 0}
          emptyText={t('admin.empty')}
          head={
            <>
              <Table.Th>{t('admin.columns.name')}</Table.Th>
              <Table.Th>{t('admin.columns.key')}</Table.Th>
              <Table.Th>{t('admin.columns.currency')}</Table.Th>
              <Table.Th>{t('admin.columns.members')}</Table.Th>
              <Table.Th>{t('admin.columns.apps')}</Table.Th>
              <Table.Th>{t('admin.columns.status')}</Table.Th>
              <Table.Th>{t('admin.columns.created')}</Table.Th>
            </>
          }
        >
          {rows.map((v) => (
            <Table.Tr key={v.id} data-testid={`admin-vendor-row-${v.key}`}>
              <Table.Td>
                <Anchor component={Link} to={`/admin/vendors/${v.id}/details`}>
                  {v.name}
                </Anchor>
              </Table.Td>
              <Table.Td>{v.key}</Table.Td>
              <Table.Td>{v.currency}</Table.Td>
              <Table.Td>{v.member_count}</Table.Td>
              <Table.Td>{v.app_count}</Table.Td>
              <Table.Td>
                <Badge color={v.active ? 'green' : 'gray'} variant="light">
                  {v.active ? t('admin.active') : t('admin.inactive')}
                </Badge>
              </Table.Td>
              <Table.Td>
                <RelativeTime value={v.created_at} />
              </Table.Td>
            </Table.Tr>
          ))}
        </ListTable>
        {query.data && (
          <ListFooter page={page} pageSize={PAGE_SIZE_DEFAULT} counts={query.data} onPageChange={setPage} />
        )}
      </Stack>
      <CreateVendorModal opened={creating} onClose={() => setCreating(false)} />
    </>
  );
}

function CreateVendorModal({ opened, onClose }: { opened: boolean; onClose(): void }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const create = useCreateAdminVendor();
  const [invite, setInvite] = useState<{ url: string; email: string; vendorId: number } | null>(null);
  const form = useForm<AdminVendorCreateBody>({
    initialValues: { key: '', name: '', currency: CURRENCY_INPUT_DEFAULT, owner_email: '' },
    validate: zodFormValidate(adminVendorCreateBody, t),
  });
  const unsaved = useUnsavedChanges(opened && form.isDirty());
  const onSubmit = async (values: AdminVendorCreateBody) => {
    try {
      const answer = await create.mutateAsync(values);
      form.reset();
      onClose();
      notifySuccess(t('admin.form.created'));
      if (answer.invite_url)
        setInvite({ url: answer.invite_url, email: values.owner_email, vendorId: answer.data.id });
      else {
        unsaved.allowNextNavigation();
        navigate(`/admin/vendors/${answer.data.id}/details`);
      }
    } catch (error) {
      form.setErrors(toFormErrors(submitErrors(error, t('admin.form.saveFailed'))));
    }
  };
  return (
    <>
      <Modal
        opened={opened}
        onClose={onClose}
        title={t('admin.form.title')}
        data-testid="admin-vendor-create-modal"
      >
        <form onSubmit={form.onSubmit((v) => void onSubmit(v))} noValidate>
          <Stack gap="sm">
            <TextInput
              label={t('admin.form.name')}
              required
              data-autofocus
              {...form.getInputProps('name')}
              data-testid="admin-vendor-name"
            />
            <TextInput
              label={t('admin.form.key')}
              description={t('admin.form.keyHint')}
              required
              {...form.getInputProps('key')}
              data-testid="admin-vendor-key"
            />
            <TextInput
              label={t('admin.form.currency')}
              required
              maxLength={3}
              {...form.getInputProps('currency')}
              data-testid="admin-vendor-currency"
            />
            <TextInput
              label={t('admin.form.ownerEmail')}
              description={t('admin.form.ownerHint')}
              type="email"
              required
              {...form.getInputProps('owner_email')}
              data-testid="admin-vendor-owner-email"
            />
            <Group justify="flex-end">
              <Button type="submit" loading={create.isPending} data-testid="admin-vendor-submit">
                {t('admin.form.submit')}
              </Button>
            </Group>
          </Stack>
        </form>
      </Modal>
      <InviteLinkModal
        url={invite?.url ?? null}
        email={invite?.email ?? ''}
        onClose={() => {
          if (invite) navigate(`/admin/vendors/${invite.vendorId}/details`);
          setInvite(null);
        }}
      />
    </>
  );
}
