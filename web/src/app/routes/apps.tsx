import type { ReactNode } from 'react';
import { useParams } from 'react-router';
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
import { AppEmbedSettings, AppEmbedsSettings } from '../../features/embeds';
import { AppFunctionsSettings } from '../../features/functions';
import { AppSlackSettings } from '../../features/slack';
import { AppUsageSettings } from '../../features/usage';

export type { AppSettingsSection };

export function AppsRoute() {
  return <AppsListPage />;
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
  else if (section === 'embeds') content = <AppEmbedsSettings appId={id} />;
  else content = <AppEmbedSettings appId={id} embedId={embedId ?? '+'} />;
  return (
    <AppPage tab="settings">
      <AppSettingsLayout section={section}>{content}</AppSettingsLayout>
    </AppPage>
  );
}
