import { USAGE_PERIODS, type UsagePeriod, type UsagePeriodStats, type UsageStats } from '@llmor/contracts';
import { Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import '../i18n';

/** What a block shows while loading or when there are no figures (docs/reference/console.md: '0' and '$0.00'). */
const ZERO_COUNT = '0';
const ZERO_COST = '$0.00';

function Figure({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <Group justify="space-between" wrap="nowrap" gap="xs">
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      <Text size="sm" fw={600} ta="right" data-testid={testId}>
        {value}
      </Text>
    </Group>
  );
}

function UsageBlock({ period, stats }: { period: UsagePeriod; stats?: UsagePeriodStats }) {
  const { t } = useTranslation();
  return (
    <Paper withBorder p="md" radius="md" data-testid={`usage-block-${period}`}>
      <Stack gap="xs">
        <Title order={4} size="h5">
          {t(`usage.periods.${period}`)}
        </Title>
        <Figure
          label={t('usage.promptTokens')}
          value={stats?.tokens_prompt_formatted ?? ZERO_COUNT}
          testId="usage-tokens-prompt"
        />
        <Figure
          label={t('usage.completionTokens')}
          value={stats?.tokens_completion_formatted ?? ZERO_COUNT}
          testId="usage-tokens-completion"
        />
        <Figure
          label={t('usage.requests')}
          value={stats?.request_count_formatted ?? ZERO_COUNT}
          testId="usage-requests"
        />
        <Figure label={t('usage.cost')} value={stats?.cost_formatted ?? ZERO_COST} testId="usage-cost" />
      </Stack>
    </Paper>
  );
}

/** Four blocks (Today, Last 7 days, Last 30 days, Total); without figures every value is its default. */
export function UsageBlocks({ stats }: { stats?: UsageStats }) {
  return (
    <SimpleGrid cols={{ base: 1, sm: 2, xl: 4 }} data-testid="usage-blocks">
      {USAGE_PERIODS.map((period) => (
        <UsageBlock key={period} period={period} stats={stats?.[period]} />
      ))}
    </SimpleGrid>
  );
}
