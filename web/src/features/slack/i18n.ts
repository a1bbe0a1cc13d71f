import { addFeatureMessages } from '../../i18n/feature';
import { type Messages, mapMessages } from '../../i18n/types';

/** Texts of App settings → Slack Integration (docs/reference/console.md "App settings: Slack integration"): `t('slack.…')`. */
const en_US = {
  title: 'Slack Integration',
  configured: 'Slack App configured',
  notConfigured: 'No Slack App',
  notConfiguredText: 'This app has no Slack bot yet. Name it below and create the Slack App.',
  installedIn: 'App {{appId}} · installed in {{team}}',
  notInstalled: 'App {{appId}} · not installed in a workspace yet: use Install In Slack.',
  details: 'Details',
  appId: 'App ID',
  clientId: 'Client ID',
  teamDomain: 'Team Domain',
  none: '—',
  install: 'Install In Slack',
  botName: 'Bot Name',
  botNamePlaceholder: 'e.g. Support Bot',
  botNameHint: 'The name the bot shows in Slack.',
  alwaysOnline: 'Keep bot always online',
  create: 'Create Slack App',
  update: 'Update Slack App',
  howTitle: 'How This Works',
  how: {
    create:
      'Name the bot and create the Slack App: it is created with your vendor’s Slack configuration token.',
    install: 'Click Install In Slack and allow the bot in your workspace.',
    talk: 'Mention the bot in a channel or send it a direct message: the app answers in the thread, and each thread is a conversation in the app’s history.',
  },
  vendorTitle: 'Vendor Configuration Required',
  vendorText: 'Set up the Slack integration token in the vendor settings before creating a Slack App.',
  vendorLink: 'Open the vendor’s Slack settings',
  saved: 'Data has been succesfully saved.',
  saveFailed: 'Saving the data failed: Unknown Error.',
  loadFailed: 'The Slack integration could not be loaded.',
};

export type SlackMessages = Messages<typeof en_US>;

const de_DE: SlackMessages = {
  title: 'Slack-Integration',
  configured: 'Slack-App eingerichtet',
  notConfigured: 'Keine Slack-App',
  notConfiguredText:
    'Diese App hat noch keinen Slack-Bot. Benennen Sie ihn unten und erstellen Sie die Slack-App.',
  installedIn: 'App {{appId}} · installiert in {{team}}',
  notInstalled: 'App {{appId}} · noch in keinem Workspace installiert: «In Slack installieren» verwenden.',
  details: 'Details',
  appId: 'App-ID',
  clientId: 'Client-ID',
  teamDomain: 'Team-Domain',
  none: '—',
  install: 'In Slack installieren',
  botName: 'Bot-Name',
  botNamePlaceholder: 'z. B. Support-Bot',
  botNameHint: 'Der Name, den der Bot in Slack zeigt.',
  alwaysOnline: 'Bot immer online halten',
  create: 'Slack-App erstellen',
  update: 'Slack-App aktualisieren',
  howTitle: 'So funktioniert es',
  how: {
    create:
      'Bot benennen und die Slack-App erstellen: Sie wird mit dem Slack-Konfigurationstoken Ihres Anbieters erstellt.',
    install: 'Auf «In Slack installieren» klicken und den Bot in Ihrem Workspace erlauben.',
    talk: 'Den Bot in einem Kanal erwähnen oder ihm direkt schreiben: Die App antwortet im Thread, und jeder Thread ist eine Unterhaltung im Verlauf der App.',
  },
  vendorTitle: 'Anbieter-Konfiguration erforderlich',
  vendorText:
    'Richten Sie das Slack-Integrationstoken in den Anbieter-Einstellungen ein, bevor Sie eine Slack-App erstellen.',
  vendorLink: 'Slack-Einstellungen des Anbieters öffnen',
  saved: 'Die Daten wurden erfolgreich gespeichert.',
  saveFailed: 'Speichern fehlgeschlagen: Unbekannter Fehler.',
  loadFailed: 'Die Slack-Integration konnte nicht geladen werden.',
};

const de_CH: SlackMessages = mapMessages(de_DE, (s) => s.replace(/ß/g, 'ss'));

const gsw_CH: SlackMessages = {
  ...de_CH,
  notConfiguredText: 'Die App het no kei Slack-Bot. Gib em unde en Name und erstell d Slack-App.',
  notInstalled: 'App {{appId}} · no in keim Workspace installiert: «In Slack installiere» bruuche.',
  install: 'In Slack installiere',
  botNameHint: 'De Name, wo de Bot in Slack zeigt.',
  alwaysOnline: 'Bot immer online ha',
  create: 'Slack-App erstelle',
  update: 'Slack-App aktualisiere',
  howTitle: 'So gaht das',
  how: {
    create:
      'Bot benenne und d Slack-App erstelle: Si wird mit em Slack-Konfigurationstoken vo dim Aabieter erstellt.',
    install: 'Uf «In Slack installiere» drücke und de Bot i dim Workspace erlaube.',
    talk: 'De Bot imne Kanal erwähne oder em direkt schriibe: D App antwortet im Thread, und jede Thread isch es Gspräch im Verlauf vo de App.',
  },
  vendorTitle: 'Aabieter-Konfiguration nötig',
  vendorText: 'Richt s Slack-Integrationstoken i de Aabieter-Iistellige ii, bevor du e Slack-App erstellsch.',
  vendorLink: 'Slack-Iistellige vom Aabieter öffne',
  saved: 'D Date sind erfolgriich gspeicheret worde.',
  saveFailed: 'Speichere fehlgschlage: Unbekannte Fehler.',
  loadFailed: 'D Slack-Integration het nöd chöne glade werde.',
};

const fr_FR: SlackMessages = {
  title: 'Intégration Slack',
  configured: 'App Slack configurée',
  notConfigured: 'Aucune app Slack',
  notConfiguredText: 'Cette app n’a pas encore de bot Slack. Nommez-le ci-dessous et créez l’app Slack.',
  installedIn: 'App {{appId}} · installée dans {{team}}',
  notInstalled:
    'App {{appId}} · pas encore installée dans un espace de travail : utilisez Installer dans Slack.',
  details: 'Détails',
  appId: 'ID de l’app',
  clientId: 'ID client',
  teamDomain: 'Domaine de l’équipe',
  none: '—',
  install: 'Installer dans Slack',
  botName: 'Nom du bot',
  botNamePlaceholder: 'p. ex. Bot d’assistance',
  botNameHint: 'Le nom que le bot affiche dans Slack.',
  alwaysOnline: 'Garder le bot toujours en ligne',
  create: 'Créer l’app Slack',
  update: 'Mettre à jour l’app Slack',
  howTitle: 'Comment ça marche',
  how: {
    create:
      'Nommez le bot et créez l’app Slack : elle est créée avec le jeton de configuration Slack de votre fournisseur.',
    install: 'Cliquez sur Installer dans Slack et autorisez le bot dans votre espace de travail.',
    talk: 'Mentionnez le bot dans un canal ou écrivez-lui directement : l’app répond dans le fil, et chaque fil est une conversation dans l’historique de l’app.',
  },
  vendorTitle: 'Configuration du fournisseur requise',
  vendorText:
    'Configurez le jeton d’intégration Slack dans les paramètres du fournisseur avant de créer une app Slack.',
  vendorLink: 'Ouvrir les paramètres Slack du fournisseur',
  saved: 'Les données ont été enregistrées.',
  saveFailed: 'L’enregistrement a échoué : erreur inconnue.',
  loadFailed: 'L’intégration Slack n’a pas pu être chargée.',
};

const it_IT: SlackMessages = {
  title: 'Integrazione Slack',
  configured: 'App Slack configurata',
  notConfigured: 'Nessuna app Slack',
  notConfiguredText: 'Questa app non ha ancora un bot Slack. Dagli un nome qui sotto e crea l’app Slack.',
  installedIn: 'App {{appId}} · installata in {{team}}',
  notInstalled: 'App {{appId}} · non ancora installata in un workspace: usa Installa in Slack.',
  details: 'Dettagli',
  appId: 'ID app',
  clientId: 'ID client',
  teamDomain: 'Dominio del team',
  none: '—',
  install: 'Installa in Slack',
  botName: 'Nome del bot',
  botNamePlaceholder: 'es. Bot di supporto',
  botNameHint: 'Il nome che il bot mostra in Slack.',
  alwaysOnline: 'Mantieni il bot sempre online',
  create: 'Crea app Slack',
  update: 'Aggiorna app Slack',
  howTitle: 'Come funziona',
  how: {
    create:
      'Dai un nome al bot e crea l’app Slack: viene creata con il token di configurazione Slack del tuo fornitore.',
    install: 'Clicca su Installa in Slack e autorizza il bot nel tuo workspace.',
    talk: 'Menziona il bot in un canale o scrivigli direttamente: l’app risponde nel thread, e ogni thread è una conversazione nella cronologia dell’app.',
  },
  vendorTitle: 'Configurazione del fornitore richiesta',
  vendorText:
    'Configura il token di integrazione Slack nelle impostazioni del fornitore prima di creare un’app Slack.',
  vendorLink: 'Apri le impostazioni Slack del fornitore',
  saved: 'I dati sono stati salvati.',
  saveFailed: 'Salvataggio non riuscito: errore sconosciuto.',
  loadFailed: 'Non è stato possibile caricare l’integrazione Slack.',
};

addFeatureMessages('slack', { en_US, de_DE, de_CH, gsw_CH, fr_FR, it_IT });
