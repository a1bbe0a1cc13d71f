import { Badge } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** 'Prepaid' or 'Pay-as-you-go' (docs/reference/console.md, Models list). */
export function BillingBadge({ prepaid, testId }: { prepaid: boolean; testId?: string }) {
  const { t } = useTranslation();
  return (
    <Badge
      variant="light"
      color={prepaid ? 'grape' : 'teal'}
      // Never cut the label short (a table cell may size it to a fraction of a pixel too narrow).
      styles={{ root: { minWidth: 'max-content' }, label: { overflow: 'visible' } }}
      data-testid={testId}
      data-prepaid={String(prepaid)}
    >
      {prepaid ? t('models.prepaid') : t('models.payAsYouGo')}
    </Badge>
  );
}
