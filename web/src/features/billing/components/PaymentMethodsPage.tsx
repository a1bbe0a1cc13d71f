import { Alert, Button, Skeleton, Stack, Text } from '@mantine/core';
import { IconCreditCard } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { LoadError } from '../../../components/LoadError';
import { submitErrors } from '../../../lib/form';
import { usePaymentMethodPortal } from '../api/getPaymentMethodPortal';
import { useSubscriptionLimits } from '../api/getSubscriptionLimits';

/** /settings/billing/payment-methods: opens Stripe's billing portal (without Stripe: who assigns plans). */
export default function PaymentMethodsPage({ vendorId }: { vendorId: number }) {
  const { t } = useTranslation();
  const limits = useSubscriptionLimits(vendorId);
  const portal = usePaymentMethodPortal(vendorId);
  if (limits.isError)
    return <LoadError error={limits.error} onRetry={limits.refetch} testId="billing-load-error" />;
  if (!limits.data) return <Skeleton height={80} data-testid="billing-loading" />;
  if (!limits.data.data.stripe) {
    return (
      <Alert color="blue" variant="light" data-testid="billing-no-stripe">
        {t('billing.paymentMethods.noStripe')}
      </Alert>
    );
  }
  const open = async () => {
    try {
      window.location.assign((await portal.mutateAsync()).data.url);
    } catch (error) {
      submitErrors(error, t('billing.loadFailed'));
    }
  };
  return (
    <Stack gap="md" align="flex-start">
      <Text>{t('billing.paymentMethods.text')}</Text>
      <Button
        leftSection={<IconCreditCard size={16} />}
        onClick={() => void open()}
        loading={portal.isPending}
        data-testid="billing-open-portal"
      >
        {t('billing.paymentMethods.open')}
      </Button>
    </Stack>
  );
}
