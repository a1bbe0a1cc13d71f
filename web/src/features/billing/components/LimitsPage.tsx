import { Card, Skeleton, Stack, Table, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { LoadError } from '../../../components/LoadError';
import { useSubscriptionLimits } from '../api/getSubscriptionLimits';
import { formatCount, LIMIT_ORDER } from './format';

/** /settings/billing/limits: what the plan in force allows. */
export default function LimitsPage({ vendorId }: { vendorId: number }) {
  const { t, i18n } = useTranslation();
  const limits = useSubscriptionLimits(vendorId);
  if (limits.isError)
    return <LoadError error={limits.error} onRetry={limits.refetch} testId="billing-load-error" />;
  if (!limits.data) return <Skeleton height={200} data-testid="billing-loading" />;
  const state = limits.data.data;
  return (
    <Stack gap="md" maw={620}>
      <Text size="sm" c="dimmed">
        {state.plan ? `${state.plan.name}: ` : ''}
        {t('billing.limits.intro')}
      </Text>
      <Card withBorder padding={0} radius="md">
        <Table data-testid="billing-limits-table">
          <Table.Tbody>
            {LIMIT_ORDER.map((key) => {
              const limit = state.limits[key].limit;
              return (
                <Table.Tr key={key} data-testid={`billing-limit-${key}`}>
                  <Table.Td fw={600}>{t(`billing.limitNames.${key}`)}</Table.Td>
                  <Table.Td>
                    {limit === null ? t('billing.unlimited') : formatCount(limit, i18n.language)}
                  </Table.Td>
                  <Table.Td c="dimmed">
                    {key === 'requests' || key === 'tokens'
                      ? t('billing.limits.perPeriod')
                      : t('billing.limits.total')}
                  </Table.Td>
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      </Card>
    </Stack>
  );
}
