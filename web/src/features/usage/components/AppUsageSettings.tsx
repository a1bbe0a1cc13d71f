import { Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { LoadError } from '../../../components/LoadError';
import { LoadingState } from '../../../components/LoadingState';
import { NoVendorSelected } from '../../../components/NoVendorSelected';
import { PageHeader } from '../../../components/PageHeader';
import { useCurrentVendor } from '../../../lib/appState';
import { useLogError } from '../../../lib/listState';
import { useAppUsage } from '../api/getUsage';
import { UsageBlocks } from './UsageBlocks';
import '../i18n';

/** App settings → Usage (docs/reference/console.md): the app's usage over today, 7 and 30 days and in total. */
export function AppUsageSettings({ vendorId, appId }: { vendorId?: number; appId: number | string }) {
  const { t } = useTranslation();
  const vendor = useCurrentVendor();
  const vid = vendorId ?? vendor?.id;
  if (!vid) return <NoVendorSelected />;
  return (
    <>
      <PageHeader sub title={t('usage.title')} titleTestId="settings-title" />
      <AppUsageLoader vendorId={vid} appId={String(appId)} />
      <Text size="xs" c="dimmed" mt="sm">
        {t('usage.utcHint')}
      </Text>
    </>
  );
}

function AppUsageLoader({ vendorId, appId }: { vendorId: number; appId: string }) {
  const { t } = useTranslation();
  const usage = useAppUsage(vendorId, appId);
  useLogError(usage.error, 'Loading the app usage failed');
  // Zeros are figures: while loading or after a failure none are shown.
  if (usage.isError)
    return <LoadError error={usage.error} onRetry={usage.refetch} testId="usage-load-error" />;
  if (!usage.data) return <LoadingState text={t('usage.loading')} testId="usage-loading" />;
  return <UsageBlocks stats={usage.data} />;
}
