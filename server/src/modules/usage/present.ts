import type { UsagePeriodStats, UsageStats } from '@llmor/contracts';
import { formatCount, formatMoney } from '../../platform/money';
import type { UsageSums, UsageTotals } from './repo';

function presentPeriod(sums: UsageSums, currency: string): UsagePeriodStats {
  return {
    tokens_prompt: sums.tokensPrompt,
    tokens_completion: sums.tokensCompletion,
    request_count: sums.requests,
    cost_minor: sums.costMinor,
    tokens_prompt_formatted: formatCount(sums.tokensPrompt),
    tokens_completion_formatted: formatCount(sums.tokensCompletion),
    request_count_formatted: formatCount(sums.requests),
    cost_formatted: formatMoney(sums.costMinor, currency),
  };
}

export function presentUsage(totals: UsageTotals, currency: string): UsageStats {
  return {
    today: presentPeriod(totals.today, currency),
    last_7_days: presentPeriod(totals.last7Days, currency),
    last_30_days: presentPeriod(totals.last30Days, currency),
    total: presentPeriod(totals.total, currency),
  };
}
