import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import type { Crumb } from '../../components/PageHeader';
import { PlaceholderPage } from '../../components/PlaceholderPage';
import { useEntityLabel } from './useEntityLabel';

export function AppsRoute() {
  const { t } = useTranslation();
  return (
    <PlaceholderPage
      title={t('pages.apps.title')}
      subtitle={t('pages.apps.subtitle')}
      breadcrumbs={[{ label: t('pages.apps.title') }]}
    />
  );
}

export function AppConversationsRoute() {
  const { t } = useTranslation();
  const label = useEntityLabel();
  const { id } = useParams();
  // The app name is not repeated in the breadcrumb on the conversations tab (spec 01 §2).
  return (
    <PlaceholderPage
      title={`${t('pages.app.title')} ${label(id)}`}
      subtitle={t('pages.app.conversations')}
      breadcrumbs={[{ label: t('pages.apps.title'), to: '/apps' }]}
    />
  );
}

export type AppSettingsSection =
  | 'details'
  | 'parameters'
  | 'functions'
  | 'usage'
  | 'datastores'
  | 'clients'
  | 'client'
  | 'embeds'
  | 'embed'
  | 'slack';

export function AppSettingsRoute({ section }: { section: AppSettingsSection }) {
  const { t } = useTranslation();
  const label = useEntityLabel();
  const { id, clientId, embedId } = useParams();
  const base = `/apps/${id}`;
  const crumbs: Crumb[] = [
    { label: t('pages.apps.title'), to: '/apps' },
    { label: `${t('pages.app.title')} ${label(id)}`, to: `${base}/chat` },
    { label: t('pages.app.settings'), to: `${base}/settings/details` },
  ];
  let title = t(`pages.app.${section === 'details' ? 'detailsTitle' : section}`);
  if (section === 'client') {
    crumbs.push({ label: t('pages.app.clients'), to: `${base}/settings/clients` });
    title = `${t('pages.app.client')} ${label(clientId)}`;
  } else if (section === 'embed') {
    crumbs.push({ label: t('pages.app.embeds'), to: `${base}/settings/embeds` });
    title = `${t('pages.app.embed')} ${label(embedId)}`;
  }
  crumbs.push({ label: title });
  return <PlaceholderPage title={title} breadcrumbs={crumbs} />;
}
