import type { LimitUsage } from '@llmor/contracts';
import { Card, Group, Progress, Skeleton, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { LoadError } from '../../../components/LoadError';
import { formatDate } from '../../../lib/format/date';
import { useSubscriptionLimits } from '../api/getSubscriptionLimits';
import { formatCount, LIMIT_ORDER } from './format';

/** /settings/billing/usage: this period's use against each limit of the plan, as progress bars. */
export default function UsagePage({ vendorId }: { vendorId: number }) {
  const { t, i18n } = useTranslation();
  const limits = useSubscriptionLimits(vendorId);
  if (limits.isError)
    return <LoadError error={limits.error} onRetry={limits.refetch} testId="billing-load-error" />;
  if (!limits.data) return <Skeleton height={240} data-testid="billing-loading" />;
  const state = limits.data.data;
  return (
    <Stack gap="md" maw={720}>
      <Text c="dimmed" size="sm" data-testid="billing-usage-period">
        {t('billing.usage.period', {
          start: formatDate(state.period_start, i18n.language),
          end: formatDate(state.period_end, i18n.language),
        })}
      </Text>
      {LIMIT_ORDER.map((key) => (
        <UsageBar key={key} name={key} label={t(`billing.limitNames.${key}`)} usage={state.limits[key]} />
      ))}
    </Stack>
  );
}

function UsageBar({ name, label, usage }: { name: string; label: string; usage: LimitUsage }) {
  const { t, i18n } = useTranslation();
  const used = formatCount(usage.used, i18n.language);
  const reached = usage.limit !== null && usage.used >= usage.limit;
  const percent =
    usage.limit === null ? 0 : usage.limit === 0 ? 100 : Math.min(100, (usage.used / usage.limit) * 100);
  return (
    <Card withBorder radius="md" data-testid={`billing-usage-${name}`} data-reached={String(reached)}>
      <Group justify="space-between" mb={6}>
        <Text fw={600}>{label}</Text>
        <Text size="sm" c={reached ? 'red' : undefined} data-testid={`billing-usage-${name}-text`}>
          {usage.limit === null
            ? t('billing.usage.usedUnlimited', { used })
            : t('billing.usage.of', { used, limit: formatCount(usage.limit, i18n.language) })}
          {reached ? ` · ${t('billing.usage.reached')}` : ''}
        </Text>
      </Group>
      <Progress
        value={percent}
        color={reached ? 'red' : percent >= 80 ? 'yellow' : 'blue'}
        aria-label={label}
        striped={usage.limit === null}
      />
    </Card>
  );
}
