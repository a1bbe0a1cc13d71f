import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../components/PageHeader';
import { DashboardIntro } from '../../features/dashboard';

export function DashboardRoute() {
  const { t } = useTranslation();
  return (
    <>
      <PageHeader title={t('dashboard.title')} hideBreadcrumbs titleTestId="dashboard-heading" />
      <DashboardIntro />
    </>
  );
}
