import { Alert } from '@mantine/core';
import { IconTools } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { PageHeader, type PageHeaderProps } from './PageHeader';

export interface PlaceholderPageProps extends PageHeaderProps {
  title: string;
}

/**
 * An honest stand-in for a screen that is not built yet: its page header (or, with `sub`, a section's
 * sub-header) and the "not built yet" alert.
 */
export function PlaceholderPage(props: PlaceholderPageProps) {
  const { t } = useTranslation();
  return (
    <>
      <PageHeader {...props} />
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
