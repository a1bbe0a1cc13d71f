import {
  type AdminPlan,
  LIMIT_KEYS,
  PLAN_INTERVALS,
  type PlanBody,
  type PlanInterval,
  planBody,
} from '@llmor/contracts';
import {
  Badge,
  Button,
  Group,
  Modal,
  NumberInput,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  Table,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconPlus } from '@tabler/icons-react';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ListFooter } from '../../../components/ListFooter';
import { ListTable } from '../../../components/ListTable';
import { LoadError } from '../../../components/LoadError';
import { PageHeader } from '../../../components/PageHeader';
import { submitErrors, toFormErrors, zodFormValidate } from '../../../lib/form';
import { notifySuccess } from '../../../lib/notify';
import { useAdminPlans } from '../api/listAdminPlans';
import { useSavePlan } from '../api/savePlan';
import { amountInput, formatMinor, parseAmount } from '../money';
import { formatCount, LIMIT_ORDER } from './format';
import '../i18n';
import { useUnsavedChanges } from '../../../components/UnsavedChanges';

const PAGE_SIZE = 20;

/** /admin/plans: the plans vendors can be on (superuser); `nav` is the admin area's sub-navigation. */
export function AdminPlansPage({ nav }: { nav: ReactNode }) {
  const { t, i18n } = useTranslation();
  const [page, setPage] = useState(0);
  const [editing, setEditing] = useState<AdminPlan | 'new' | null>(null);
  const plans = useAdminPlans({ page, page_size: PAGE_SIZE, order: 'price_minor' });
  const rows = plans.data?.data ?? [];
  const limitsText = (plan: AdminPlan) =>
    LIMIT_ORDER.map(
      (k) =>
        `${t(`billing.limitNames.${k}`)} ${plan.limits[k] === null ? '∞' : formatCount(plan.limits[k], i18n.language)}`,
    ).join(' · ');
  return (
    <>
      <PageHeader
        title={t('pages.admin.plans')}
        breadcrumbs={[
          { label: t('pages.admin.title'), to: '/admin/vendors' },
          { label: t('pages.admin.plans') },
        ]}
        actions={
          <Button
            leftSection={<IconPlus size={16} />}
            onClick={() => setEditing('new')}
            data-testid="admin-plan-create"
          >
            {t('billing.admin.plans.create')}
          </Button>
        }
      />
      {nav}
      {plans.isError ? (
        <LoadError error={plans.error} onRetry={plans.refetch} testId="billing-load-error" />
      ) : (
        <>
          <ListTable
            load={plans}
            testIdPrefix="admin-plans"
            minWidth={760}
            columns={5}
            loading={!plans.data}
            loadingText={t('billing.admin.plans.loading')}
            empty={rows.length === 0}
            emptyText={t('billing.admin.plans.empty')}
            head={
              <>
                <Table.Th>{t('billing.admin.plans.columns.name')}</Table.Th>
                <Table.Th>{t('billing.admin.plans.columns.price')}</Table.Th>
                <Table.Th>{t('billing.admin.plans.columns.limits')}</Table.Th>
                <Table.Th>{t('billing.admin.plans.columns.status')}</Table.Th>
                <Table.Th>{t('billing.admin.plans.columns.default')}</Table.Th>
              </>
            }
          >
            {rows.map((plan) => (
              <Table.Tr
                key={plan.id}
                style={{ cursor: 'pointer' }}
                onClick={() => setEditing(plan)}
                data-testid="admin-plan-row"
              >
                <Table.Td fw={600}>{plan.name}</Table.Td>
                <Table.Td>
                  {formatMinor(plan.price_minor, plan.currency)} {t(`billing.perInterval.${plan.interval}`)}
                </Table.Td>
                <Table.Td>
                  <Text size="sm">{limitsText(plan)}</Text>
                </Table.Td>
                <Table.Td>
                  <Badge color={plan.active ? 'green' : 'gray'} variant="light">
                    {plan.active ? t('billing.admin.plans.active') : t('billing.admin.plans.inactive')}
                  </Badge>
                </Table.Td>
                <Table.Td>{plan.default ? '✓' : ''}</Table.Td>
              </Table.Tr>
            ))}
          </ListTable>
          <ListFooter page={page} pageSize={PAGE_SIZE} counts={plans.data} onPageChange={setPage} />
        </>
      )}
      <Modal
        opened={editing !== null}
        onClose={() => setEditing(null)}
        title={editing === 'new' ? t('billing.admin.plans.create') : t('billing.admin.plans.edit')}
        size="lg"
      >
        {editing !== null ? (
          <PlanForm plan={editing === 'new' ? null : editing} onDone={() => setEditing(null)} />
        ) : null}
      </Modal>
    </>
  );
}

type PlanFormValues = Omit<PlanBody, 'price_minor' | 'limits' | 'stripe_price_id'> & {
  /** The price as typed (docs/reference/rules.md: digits, comma, apostrophe, dot); sent as minor units. */
  price: string;
  limits: Record<(typeof LIMIT_KEYS)[number], number | ''>;
  stripe_price_id: string;
};

function PlanForm({ plan, onDone }: { plan: AdminPlan | null; onDone(): void }) {
  const { t } = useTranslation();
  const save = useSavePlan();
  const toBody = (v: PlanFormValues): PlanBody => ({
    name: v.name,
    description: v.description,
    price_minor: parseAmount(v.price) ?? Number.NaN,
    currency: v.currency,
    interval: v.interval,
    limits: Object.fromEntries(LIMIT_KEYS.map((k) => [k, v.limits[k] === '' ? null : v.limits[k]])),
    active: v.active,
    default: v.default,
    stripe_price_id: v.stripe_price_id.trim() || null,
  });
  const validateBody = zodFormValidate(planBody, t);
  const form = useForm<PlanFormValues>({
    initialValues: {
      name: plan?.name ?? '',
      description: plan?.description ?? '',
      price: plan ? (plan.price_minor / 100).toFixed(2) : '',
      currency: plan?.currency ?? 'EUR',
      interval: plan?.interval ?? 'month',
      limits: Object.fromEntries(
        LIMIT_KEYS.map((k) => [k, plan?.limits[k] ?? '']),
      ) as PlanFormValues['limits'],
      active: plan?.active ?? true,
      default: plan?.default ?? false,
      stripe_price_id: plan?.stripe_price_id ?? '',
    },
    validate: (values) => {
      const { price_minor: price, ...errors } = validateBody(toBody(values));
      return price ? { ...errors, price } : errors;
    },
  });
  useUnsavedChanges(form.isDirty());
  const onSave = async (values: PlanFormValues) => {
    try {
      await save.mutateAsync({ id: plan?.id ?? null, body: toBody(values) });
      notifySuccess(t('billing.admin.plans.form.saved'));
      onDone();
    } catch (error) {
      const { price_minor: price, ...errors } = toFormErrors(
        submitErrors(error, t('billing.admin.plans.form.saveFailed')),
      );
      form.setErrors(price ? { ...errors, price } : errors);
    }
  };
  return (
    <form onSubmit={form.onSubmit((v) => void onSave(v))} noValidate data-testid="admin-plan-form">
      <Stack gap="sm">
        <TextInput
          label={t('billing.admin.plans.form.name')}
          required
          {...form.getInputProps('name')}
          data-testid="admin-plan-name"
        />
        <Textarea
          label={t('billing.admin.plans.form.description')}
          autosize
          {...form.getInputProps('description')}
        />
        <SimpleGrid cols={3}>
          <TextInput
            label={t('billing.admin.plans.form.price')}
            description={t('billing.admin.plans.form.priceHint')}
            required
            {...form.getInputProps('price')}
            onChange={(e) => form.setFieldValue('price', amountInput(e.currentTarget.value))}
            data-testid="admin-plan-price"
          />
          <TextInput
            label={t('billing.admin.plans.form.currency')}
            required
            maxLength={3}
            {...form.getInputProps('currency')}
            onChange={(e) => form.setFieldValue('currency', e.currentTarget.value.toUpperCase())}
            data-testid="admin-plan-currency"
          />
          <Select
            label={t('billing.admin.plans.form.interval')}
            data={PLAN_INTERVALS.map((i: PlanInterval) => ({
              value: i,
              label: t(`billing.admin.plans.form.intervals.${i}`),
            }))}
            allowDeselect={false}
            {...form.getInputProps('interval')}
          />
        </SimpleGrid>
        <Text fw={600} size="sm">
          {t('billing.admin.plans.form.limitsTitle')}
        </Text>
        <SimpleGrid cols={{ base: 2, sm: 4 }}>
          {LIMIT_KEYS.map((k) => (
            <NumberInput
              key={k}
              label={t(`billing.limitNames.${k}`)}
              min={0}
              allowDecimal={false}
              allowNegative={false}
              placeholder="∞"
              {...form.getInputProps(`limits.${k}`)}
              data-testid={`admin-plan-limit-${k}`}
            />
          ))}
        </SimpleGrid>
        <TextInput
          label={t('billing.admin.plans.form.stripePrice')}
          description={t('billing.admin.plans.form.stripePriceHint')}
          {...form.getInputProps('stripe_price_id')}
        />
        <Switch
          label={t('billing.admin.plans.form.active')}
          {...form.getInputProps('active', { type: 'checkbox' })}
        />
        <Switch
          label={t('billing.admin.plans.form.default')}
          {...form.getInputProps('default', { type: 'checkbox' })}
          data-testid="admin-plan-default"
        />
        <Group justify="flex-end">
          <Button type="submit" loading={save.isPending} data-testid="admin-plan-save">
            {t('billing.admin.plans.form.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
