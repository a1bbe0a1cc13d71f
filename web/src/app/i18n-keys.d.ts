// Typed translation keys: `t('missing.key')` is a type error. The resources are the core texts plus each
// feature's texts under its area key (features/<area>/i18n.ts adds them at runtime).
import 'i18next';
import type { EditorMessages } from '../components/editorMessages';
import type { AccountMessages } from '../features/account';
import type { AdminMessages } from '../features/admin';
import type { ApiReferenceMessages } from '../features/api-reference';
import type { AppsMessages } from '../features/apps';
import type { BillingMessages } from '../features/billing';
import type { ClientsMessages } from '../features/clients';
import type { ConversationsMessages } from '../features/conversations';
import type { DatastoresMessages } from '../features/datastores';
import type { EmbedsMessages } from '../features/embeds';
import type { FunctionsMessages } from '../features/functions';
import type { ModelsMessages } from '../features/models';
import type { SettingsMessages } from '../features/settings';
import type { SlackMessages } from '../features/slack';
import type { UsageMessages } from '../features/usage';
import type { en_US } from '../i18n/locales/en_US';

declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    resources: {
      translation: typeof en_US & {
        account: AccountMessages;
        admin: AdminMessages;
        apiReference: ApiReferenceMessages;
        apps: AppsMessages;
        clients: ClientsMessages;
        billing: BillingMessages;
        conversations: ConversationsMessages;
        datastores: DatastoresMessages;
        embeds: EmbedsMessages;
        functions: FunctionsMessages;
        models: ModelsMessages;
        settings: SettingsMessages;
        slack: SlackMessages;
        usage: UsageMessages;
        editors: EditorMessages;
        schemaForm: { selectPlaceholder: string; loadFailed: string; reload: string };
      };
    };
  }
}
