import { Alert, Anchor } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { PageHeader } from '../../components/PageHeader';

export function NotFoundRoute() {
  const { t } = useTranslation();
  return (
    <>
      <PageHeader title={t('notFound.title')} breadcrumbs={[{ label: t('notFound.title') }]} />
      <Alert color="gray" variant="light" data-testid="not-found">
        {t('notFound.message')}{' '}
        <Anchor component={Link} to="/">
          {t('notFound.back')}
        </Anchor>
      </Alert>
    </>
  );
}
