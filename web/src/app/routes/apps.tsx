import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { PlaceholderPage } from '../../components/PlaceholderPage';
import {
  AppDetailsForm,
  AppPage,
  AppParametersForm,
  AppSettingsLayout,
  type AppSettingsSection,
  AppsListPage,
} from '../../features/apps';
import { AppClientSettings, AppClientsSettings } from '../../features/clients';
import { ConversationsView } from '../../features/conversations';
import { AppDatastoresSettings } from '../../features/datastores';
import { AppFunctionsSettings } from '../../features/functions';
import { AppSlackSettings } from '../../features/slack';
import { AppUsageSettings } from '../../features/usage';
import { useEntityLabel } from './useEntityLabel';

export type { AppSettingsSection };

export function AppsRoute() {
  return <AppsListPage />;
}

/** A section of the app page that is not built yet: sub-header and the "not built yet" alert. */
function SectionPlaceholder({ title }: { title: string }) {
  return <PlaceholderPage sub title={title} titleTestId="settings-title" />;
}

export function AppConversationsRoute() {
  const { id, token } = useParams();
  return (
    <AppPage tab="conversations">
      <ConversationsView appId={Number(id)} token={token} />
    </AppPage>
  );
}

export function AppSettingsRoute({ section }: { section: AppSettingsSection }) {
  const { t } = useTranslation();
  const label = useEntityLabel();
  const { id = '', clientId, embedId } = useParams();
  let content: ReactNode;
  if (section === 'details') content = <AppDetailsForm />;
  else if (section === 'parameters') content = <AppParametersForm />;
  else if (section === 'functions') content = <AppFunctionsSettings appId={id} />;
  else if (section === 'usage') content = <AppUsageSettings appId={id} />;
  else if (section === 'datastores') content = <AppDatastoresSettings appId={id} />;
  else if (section === 'slack') content = <AppSlackSettings appId={id} />;
  else if (section === 'clients') content = <AppClientsSettings appId={id} />;
  else if (section === 'client') content = <AppClientSettings appId={id} clientId={clientId ?? '+'} />;
  else if (section === 'embed')
    content = <SectionPlaceholder title={`${t('pages.app.embed')} ${label(embedId)}`} />;
  else content = <SectionPlaceholder title={t(`pages.app.${section}`)} />;
  return (
    <AppPage tab="settings">
      <AppSettingsLayout section={section}>{content}</AppSettingsLayout>
    </AppPage>
  );
}
