import { Badge, Button, Card, Group, NumberInput, Select, Stack, Table, Text, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import { ListTable } from '../../../components/ListTable';
import { LoadError } from '../../../components/LoadError';
import { submitErrors, toFormErrors } from '../../../lib/form';
import { formatDate } from '../../../lib/format/date';
import { notifySuccess } from '../../../lib/notify';
import { useAssignSubscription } from '../api/assignSubscription';
import { useAdminPlans } from '../api/listAdminPlans';
import { useVendorSubscriptions } from '../api/listVendorSubscriptions';
import { formatPeriod } from './format';
import '../i18n';
import { useUnsavedChanges } from '../../../components/UnsavedChanges';

/** Admin → vendor → Subscriptions: the vendor's subscriptions, newest first, and assigning a plan now. */
export function VendorSubscriptions({ vendorId }: { vendorId: number }) {
  const { t, i18n } = useTranslation();
  const subscriptions = useVendorSubscriptions(vendorId);
  if (subscriptions.isError)
    return (
      <LoadError error={subscriptions.error} onRetry={subscriptions.refetch} testId="billing-load-error" />
    );
  const rows = subscriptions.data?.data ?? [];
  return (
    <Stack gap="lg">
      <ListTable
        load={subscriptions}
        testIdPrefix="admin-subscriptions"
        minWidth={640}
        columns={5}
        loading={!subscriptions.data}
        loadingText={t('billing.admin.subscriptions.loading')}
        empty={rows.length === 0}
        emptyText={t('billing.admin.subscriptions.empty')}
        head={
          <>
            <Table.Th>{t('billing.admin.subscriptions.columns.plan')}</Table.Th>
            <Table.Th>{t('billing.admin.subscriptions.columns.status')}</Table.Th>
            <Table.Th>{t('billing.admin.subscriptions.columns.quantity')}</Table.Th>
            <Table.Th>{t('billing.admin.subscriptions.columns.period')}</Table.Th>
            <Table.Th>{t('billing.admin.subscriptions.columns.managedBy')}</Table.Th>
          </>
        }
      >
        {rows.map((s) => (
          <Table.Tr key={s.id} data-testid="admin-subscription-row">
            <Table.Td fw={600}>{s.plan}</Table.Td>
            <Table.Td>
              <Badge color={s.status === 'active' ? 'green' : 'gray'} variant="light">
                {t(`billing.statuses.${s.status}`)}
              </Badge>
              {s.cancel_at_period_end && s.current_period_end ? (
                <Text size="xs" c="orange" mt={4} data-testid="admin-subscription-ends">
                  {t('billing.subscription.endsAt', {
                    date: formatDate(s.current_period_end, i18n.language),
                  })}
                </Text>
              ) : null}
            </Table.Td>
            <Table.Td>{s.quantity}</Table.Td>
            <Table.Td>{formatPeriod(s.current_period_start, s.current_period_end, i18n.language)}</Table.Td>
            <Table.Td>{t(`billing.admin.subscriptions.managedBy.${s.managed_by}`)}</Table.Td>
          </Table.Tr>
        ))}
      </ListTable>
      <AssignForm vendorId={vendorId} />
    </Stack>
  );
}

function AssignForm({ vendorId }: { vendorId: number }) {
  const { t } = useTranslation();
  const plans = useAdminPlans({ page: 0, page_size: 100, order: 'price_minor' });
  const assign = useAssignSubscription(vendorId);
  const form = useForm<{ plan_id: string | null; quantity: number }>({
    initialValues: { plan_id: null, quantity: 1 },
    validate: { plan_id: (v) => (v ? null : t('form.required')) },
  });
  useUnsavedChanges(form.isDirty());
  const onAssign = async (values: { plan_id: string | null; quantity: number }) => {
    try {
      await assign.mutateAsync({ plan_id: Number(values.plan_id), quantity: values.quantity });
      notifySuccess(t('billing.admin.subscriptions.assigned'));
      form.reset();
    } catch (error) {
      form.setErrors(toFormErrors(submitErrors(error, t('billing.admin.plans.form.saveFailed'))));
    }
  };
  const options = (plans.data?.data ?? []).map((p) => ({ value: String(p.id), label: p.name }));
  return (
    <Card withBorder radius="md" maw={620}>
      <form onSubmit={form.onSubmit((v) => void onAssign(v))} noValidate data-testid="admin-assign-form">
        <Stack gap="sm">
          <Title order={5}>{t('billing.admin.subscriptions.assignTitle')}</Title>
          {plans.data && options.length === 0 ? (
            <Text c="dimmed" size="sm">
              {t('billing.admin.subscriptions.noPlans')}
            </Text>
          ) : null}
          <Group align="flex-end" grow>
            <Select
              label={t('billing.admin.subscriptions.plan')}
              data={options}
              required
              {...form.getInputProps('plan_id')}
              data-testid="admin-assign-plan"
            />
            <NumberInput
              label={t('billing.admin.subscriptions.quantity')}
              min={1}
              allowDecimal={false}
              {...form.getInputProps('quantity')}
              data-testid="admin-assign-quantity"
            />
          </Group>
          <Group justify="flex-end">
            <Button type="submit" loading={assign.isPending} data-testid="admin-assign-submit">
              {t('billing.admin.subscriptions.assign')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Card>
  );
}
