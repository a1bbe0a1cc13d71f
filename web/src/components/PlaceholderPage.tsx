import { Alert } from '@mantine/core';
import { IconTools } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { type Crumb, PageHeader } from './PageHeader';

export interface PlaceholderPageProps {
  title: string;
  subtitle?: string;
  breadcrumbs: Crumb[];
}

/** An honest stand-in for a screen that is not built yet. */
export function PlaceholderPage({ title, subtitle, breadcrumbs }: PlaceholderPageProps) {
  const { t } = useTranslation();
  return (
    <>
      <PageHeader title={title} subtitle={subtitle} breadcrumbs={breadcrumbs} />
      <Alert
        variant="light"
        color="blue"
        title={t('placeholder.title')}
        icon={<IconTools size={18} />}
        data-testid="placeholder-alert"
      >
        {t('placeholder.message')}
      </Alert>
    </>
  );
}
