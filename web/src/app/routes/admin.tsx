import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { PlaceholderPage } from '../../components/PlaceholderPage';
import { useEntityLabel } from './useEntityLabel';

export function AdminVendorsRoute() {
  const { t } = useTranslation();
  return (
    <PlaceholderPage
      title={t('pages.admin.vendors')}
      breadcrumbs={[
        { label: t('pages.admin.title'), to: '/admin/vendors' },
        { label: t('pages.admin.vendors') },
      ]}
    />
  );
}

export function AdminVendorRoute({ section }: { section: 'details' | 'subscriptions' }) {
  const { t } = useTranslation();
  const label = useEntityLabel();
  const { id } = useParams();
  const vendor = `${t('pages.admin.vendor')} ${label(id)}`;
  return (
    <PlaceholderPage
      title={vendor}
      subtitle={t(`pages.admin.${section}`)}
      breadcrumbs={[
        { label: t('pages.admin.title'), to: '/admin/vendors' },
        { label: t('pages.admin.vendors'), to: '/admin/vendors' },
        { label: vendor },
      ]}
    />
  );
}

export function AdminQueueRoute() {
  const { t } = useTranslation();
  return (
    <PlaceholderPage
      title={t('pages.admin.queue')}
      breadcrumbs={[
        { label: t('pages.admin.title'), to: '/admin/vendors' },
        { label: t('pages.admin.queue') },
      ]}
    />
  );
}
