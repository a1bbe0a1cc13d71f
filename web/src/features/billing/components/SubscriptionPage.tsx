import type { Plan, SubscriptionLimits } from '@llmor/contracts';
import { Alert, Badge, Button, Card, Group, SimpleGrid, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { ConfirmDeleteModal } from '../../../components/ConfirmDeleteModal';
import { LoadError } from '../../../components/LoadError';
import { submitErrors } from '../../../lib/form';
import { formatDate } from '../../../lib/format/date';
import { notifySuccess } from '../../../lib/notify';
import { useCancelSubscription } from '../api/cancelSubscription';
import { useCheckout } from '../api/checkout';
import { useAvailablePlans } from '../api/getAvailablePlans';
import { useSubscriptionLimits } from '../api/getSubscriptionLimits';
import { formatCount, formatPeriod, LIMIT_ORDER, planPrice } from './format';

/** /settings/subscription: the plan in force, its period, cancel at period end, and the plans to change to. */
export default function SubscriptionPage({ vendorId }: { vendorId: number }) {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const limits = useSubscriptionLimits(vendorId);
  const plans = useAvailablePlans(vendorId);
  const checkout = params.get('checkout');
  if (limits.isError)
    return <LoadError error={limits.error} onRetry={limits.refetch} testId="billing-load-error" />;
  if (!limits.data) return <Skeleton height={200} data-testid="billing-loading" />;
  const state = limits.data.data;
  return (
    <Stack gap="lg">
      {checkout === 'success' || checkout === 'cancelled' ? (
        <Alert color={checkout === 'success' ? 'green' : 'gray'} data-testid={`checkout-${checkout}`}>
          {t(
            checkout === 'success'
              ? 'billing.subscription.checkoutSuccess'
              : 'billing.subscription.checkoutCancelled',
          )}
        </Alert>
      ) : null}
      <CurrentPlan vendorId={vendorId} state={state} />
      <Title order={4}>{t('billing.subscription.plans')}</Title>
      {!state.stripe ? (
        <Alert color="blue" variant="light" data-testid="billing-ask-operator">
          {t('billing.subscription.askOperator')}
        </Alert>
      ) : null}
      {plans.isError ? (
        <LoadError error={plans.error} onRetry={plans.refetch} testId="billing-load-error" />
      ) : !plans.data ? (
        <Skeleton height={120} />
      ) : plans.data.data.length === 0 ? (
        <Text c="dimmed">{t('billing.subscription.noPlans')}</Text>
      ) : (
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
          {plans.data.data.map((plan) => (
            <PlanCard
              key={plan.id}
              vendorId={vendorId}
              plan={plan}
              current={state.plan?.id === plan.id}
              stripe={state.stripe}
            />
          ))}
        </SimpleGrid>
      )}
    </Stack>
  );
}

function CurrentPlan({ vendorId, state }: { vendorId: number; state: SubscriptionLimits }) {
  const { t, i18n } = useTranslation();
  const cancel = useCancelSubscription(vendorId);
  const sub = state.subscription;
  const end = formatDate(state.period_end, i18n.language);
  const [confirming, setConfirming] = useState(false);
  const onCancel = async () => {
    try {
      await cancel.mutateAsync({ subscription_id: sub!.id });
      notifySuccess(t('billing.subscription.cancelled'));
    } catch (error) {
      submitErrors(error, t('billing.loadFailed'));
    }
    setConfirming(false);
  };
  return (
    <Card withBorder radius="md" data-testid="billing-current-plan">
      <Stack gap="xs">
        <Text size="sm" c="dimmed">
          {t('billing.subscription.current')}
        </Text>
        {state.plan ? (
          <Group gap="sm">
            <Title order={3} data-testid="billing-current-plan-name">
              {state.plan.name}
            </Title>
            {sub ? (
              <Badge
                color={sub.status === 'active' ? 'green' : 'yellow'}
                data-testid="billing-current-status"
              >
                {t(`billing.statuses.${sub.status}`)}
              </Badge>
            ) : (
              <Badge color="gray">{t('billing.subscription.defaultPlan')}</Badge>
            )}
          </Group>
        ) : (
          <Text data-testid="billing-no-plan">{t('billing.subscription.noPlan')}</Text>
        )}
        {state.plan ? (
          <Text size="sm">{planPrice(state.plan, t(`billing.perInterval.${state.plan.interval}`))}</Text>
        ) : null}
        <Text size="sm">
          {t('billing.subscription.period')}:{' '}
          {formatPeriod(state.period_start, state.period_end, i18n.language)}
        </Text>
        {sub && sub.quantity > 1 ? (
          <Text size="sm">
            {t('billing.subscription.quantity')}: {sub.quantity}
          </Text>
        ) : null}
        {sub?.cancel_at_period_end ? (
          <Alert color="yellow" variant="light" data-testid="billing-ends">
            {t('billing.subscription.endsAt', { date: end })}
          </Alert>
        ) : sub ? (
          <Group>
            <Button
              variant="light"
              color="red"
              onClick={() => setConfirming(true)}
              data-testid="billing-cancel"
            >
              {t('billing.subscription.cancel')}
            </Button>
          </Group>
        ) : null}
        <ConfirmDeleteModal
          opened={confirming}
          onClose={() => setConfirming(false)}
          title={t('billing.subscription.cancel')}
          text={t('billing.subscription.cancelConfirm', { date: end })}
          cancelLabel={t('billing.subscription.keep')}
          confirmLabel={t('billing.subscription.cancel')}
          onConfirm={() => void onCancel()}
          loading={cancel.isPending}
          testIds={{
            text: 'billing-cancel-text',
            cancel: 'billing-cancel-keep',
            confirm: 'billing-cancel-confirm',
          }}
        />
      </Stack>
    </Card>
  );
}

function PlanCard({
  vendorId,
  plan,
  current,
  stripe,
}: {
  vendorId: number;
  plan: Plan;
  current: boolean;
  stripe: boolean;
}) {
  const { t, i18n } = useTranslation();
  const checkout = useCheckout(vendorId);
  const onChoose = async () => {
    try {
      const answer = await checkout.mutateAsync({ subscription_id: plan.id, quantity: 1 });
      window.location.assign(answer.data.url);
    } catch (error) {
      submitErrors(error, t('billing.loadFailed'));
    }
  };
  return (
    <Card withBorder radius="md" data-testid={`billing-plan-${plan.id}`}>
      <Stack gap="xs">
        <Group justify="space-between">
          <Title order={5}>{plan.name}</Title>
          {current ? <Badge>{t('billing.subscription.currentBadge')}</Badge> : null}
        </Group>
        <Text fw={600}>{planPrice(plan, t(`billing.perInterval.${plan.interval}`))}</Text>
        {plan.description ? (
          <Text size="sm" c="dimmed">
            {plan.description}
          </Text>
        ) : null}
        {LIMIT_ORDER.map((key) => (
          <Text key={key} size="sm">
            {t(`billing.limitNames.${key}`)}:{' '}
            {plan.limits[key] === null
              ? t('billing.unlimited')
              : formatCount(plan.limits[key], i18n.language)}
          </Text>
        ))}
        {current ? null : stripe && plan.purchasable ? (
          <Button
            onClick={() => void onChoose()}
            loading={checkout.isPending}
            data-testid={`billing-choose-${plan.id}`}
          >
            {t('billing.subscription.choose')}
          </Button>
        ) : (
          <Text size="sm" c="dimmed">
            {t('billing.subscription.notOnline')}
          </Text>
        )}
      </Stack>
    </Card>
  );
}
