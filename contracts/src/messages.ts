import { LOCALE_FALLBACKS, type Locale } from './constants';
import { bcp47, formatDay } from './formats';
import { ENGLISH, fillTemplate, type MessageParams, PARAM } from './messages-en';
import { SERVER_ENGLISH } from './messages-server-en';

/** Every English template: the schemas' and constants' (`messages-en.ts`), then the server's own. */
const ALL_ENGLISH = /* @__PURE__ */ allEnglish();
function allEnglish(): typeof ENGLISH & typeof SERVER_ENGLISH {
  return { ...ENGLISH, ...SERVER_ENGLISH };
}
export type MessageCode = keyof typeof ALL_ENGLISH;

/**
 * The texts the server answers that a person reads, in every console locale (docs/adr/0030). Each entry
 * has a stable code and its English template; `{name}` marks a parameter. The API answers in the request's
 * locale; the English template is the wire text without one, and what `localize` recognises, so the same
 * catalogue also translates the schemas' field messages in the console.
 * Locales missing from an entry fall back along LOCALE_FALLBACKS (gsw_CH → de_CH → de_DE → en_US).
 * Parameters named `date` are ISO days shown in the locale's date pattern, `count`/`limit` numbers
 * grouped the locale's way, `reason` and `provider` translated in turn when they are catalogue texts.
 */
type Translations = Partial<Record<Exclude<Locale, 'en_US'>, string>>;
type Entry = { en_US: string } & Translations;

/** The other locales of each text (`messages-en.ts` and `messages-server-en.ts` hold the English). */
const TRANSLATIONS = {
  // Sign-in, links, account
  invalidCredentials: {
    de_DE: 'E-Mail-Adresse oder Passwort ist falsch',
    gsw_CH: 'E-Mail-Adrässe oder Passwort isch falsch',
    fr_FR: 'Adresse e-mail ou mot de passe incorrect',
    it_IT: 'Indirizzo e-mail o password non validi',
  },
  userInactive: {
    de_DE: 'Dieser Benutzer ist nicht aktiv.',
    gsw_CH: 'Dä Benutzer isch nöd aktiv.',
    fr_FR: 'Cet utilisateur n’est pas actif.',
    it_IT: 'Questo utente non è attivo.',
  },
  signinWaitSeconds: {
    de_DE: 'Zu viele fehlgeschlagene Anmeldungen. Versuchen Sie es in {count} Sekunden erneut.',
    gsw_CH: 'Z vill fählgschlageni Aamäldige. Probiered Sie s i {count} Sekunde nomal.',
    fr_FR: 'Trop de connexions échouées. Réessayez dans {count} secondes.',
    it_IT: 'Troppi accessi non riusciti. Riprova tra {count} secondi.',
  },
  signinWaitMinutes: {
    de_DE: 'Zu viele fehlgeschlagene Anmeldungen. Versuchen Sie es in {count} Minuten erneut.',
    gsw_CH: 'Z vill fählgschlageni Aamäldige. Probiered Sie s i {count} Minute nomal.',
    fr_FR: 'Trop de connexions échouées. Réessayez dans {count} minutes.',
    it_IT: 'Troppi accessi non riusciti. Riprova tra {count} minuti.',
  },
  signInRequired: {
    de_DE: 'Anmeldung erforderlich: Bitte melden Sie sich an.',
    gsw_CH: 'Aamäldig nötig: Bitte mälded Sie sich aa.',
    fr_FR: 'Authentification requise : veuillez vous connecter.',
    it_IT: 'Autenticazione richiesta: effettua l’accesso.',
  },
  linkInvalid: {
    de_DE: 'Dieser Link ist ungültig oder abgelaufen.',
    gsw_CH: 'Dä Link isch ungültig oder abgloffe.',
    fr_FR: 'Ce lien n’est pas valide ou a expiré.',
    it_IT: 'Questo link non è valido o è scaduto.',
  },
  invitationSignIn: {
    de_DE: 'Melden Sie sich als eingeladene Person an, um diese Einladung anzunehmen.',
    gsw_CH: 'Mälded Sie sich als iiglaadeni Person aa, zum die Iiladig aaznäh.',
    fr_FR: 'Connectez-vous en tant que personne invitée pour accepter cette invitation.',
    it_IT: 'Accedi come la persona invitata per accettare questo invito.',
  },
  resetRequested: {
    de_DE:
      'Falls diese Adresse zu einem Konto gehört, ist ein Link zum Zurücksetzen des Passworts unterwegs.',
    gsw_CH: 'Falls die Adrässe zu somene Konto ghört, isch en Link zum s Passwort zrüggsetze unterwägs.',
    fr_FR:
      'Si cette adresse correspond à un compte, un lien pour réinitialiser le mot de passe est en route.',
    it_IT: 'Se questo indirizzo appartiene a un account, è in arrivo un link per reimpostare la password.',
  },
  currentPasswordWrong: {
    de_DE: 'Das aktuelle Passwort stimmt nicht.',
    gsw_CH: 'S aktuelle Passwort stimmt nöd.',
    fr_FR: 'Le mot de passe actuel n’est pas correct.',
    it_IT: 'La password attuale non è corretta.',
  },
  // Members and vendors
  alreadyMember: {
    de_DE: 'Diese Person ist bereits Mitglied oder eingeladen.',
    gsw_CH: 'Die Person isch scho Mitglied oder iiglade.',
    fr_FR: 'Cette personne est déjà membre ou invitée.',
    it_IT: 'Questa persona è già membro o è stata invitata.',
  },
  alreadyAccepted: {
    de_DE: 'Diese Person hat die Einladung bereits angenommen.',
    gsw_CH: 'Die Person het d Iiladig scho aagnoh.',
    fr_FR: 'Cette personne a déjà accepté l’invitation.',
    it_IT: 'Questa persona ha già accettato l’invito.',
  },
  lastOwner: {
    de_DE: 'Ein Anbieter braucht mindestens einen aktiven Inhaber.',
    gsw_CH: 'En Aabieter bruucht mindestens en aktive Inhaber.',
    fr_FR: 'Un fournisseur a besoin d’au moins un propriétaire actif.',
    it_IT: 'Un fornitore ha bisogno di almeno un proprietario attivo.',
  },
  keyTaken: {
    de_DE: 'Dieser Schlüssel ist vergeben.',
    gsw_CH: 'Dä Schlüssel isch vergäh.',
    fr_FR: 'Cette clé est déjà prise.',
    it_IT: 'Questa chiave è già in uso.',
  },
  // Mail settings
  smtpNotSet: {
    de_DE: 'Legen Sie zuerst den SMTP-Host und die Absenderadresse fest.',
    gsw_CH: 'Legged Sie zerscht de SMTP-Host und d Absänderadrässe fescht.',
    fr_FR: 'Définissez d’abord l’hôte SMTP et l’adresse de l’expéditeur.',
    it_IT: 'Imposta prima l’host SMTP e l’indirizzo del mittente.',
  },
  smtpRefused: {
    de_DE: 'Der Mailserver hat die Testmail abgelehnt: {reason}',
    gsw_CH: 'De Mailserver het s Testmail abglehnt: {reason}',
    fr_FR: 'Le serveur de messagerie a refusé l’e-mail de test : {reason}',
    it_IT: 'Il server di posta ha rifiutato l’e-mail di prova: {reason}',
  },
  smtpUnreachable: {
    de_DE: 'Mit {host} war keine SMTP-Verbindung möglich.',
    gsw_CH: 'Mit {host} isch kei SMTP-Verbindig möglich gsi.',
    fr_FR: 'Aucun échange SMTP avec {host} n’a été possible.',
    it_IT: 'Nessuna comunicazione SMTP con {host} è stata possibile.',
  },
  smtpTestSent: {
    de_DE: 'Eine Testmail wurde an {to} gesendet.',
    gsw_CH: 'Es Testmail isch a {to} gschickt worde.',
    fr_FR: 'Un e-mail de test a été envoyé à {to}.',
    it_IT: 'Un’e-mail di prova è stata inviata a {to}.',
  },
  // Plans and billing
  usedUpRequests: {
    de_DE:
      'Die {count} Anfragen des Plans für diesen Zeitraum sind aufgebraucht (der Zeitraum endet am {date}). Wechseln Sie zu einem grösseren Plan, um mehr zu senden.',
    gsw_CH:
      'Di {count} Aafroge vom Plan für dä Zitruum sind ufbruucht (de Zitruum endet am {date}). Wächsled Sie zu emne grössere Plan, zum meh schicke.',
    fr_FR:
      'Les {count} requêtes du forfait pour cette période sont épuisées (la période se termine le {date}). Passez à un forfait supérieur pour envoyer davantage.',
    it_IT:
      'Le {count} richieste del piano per questo periodo sono esaurite (il periodo termina il {date}). Passa a un piano superiore per inviarne altre.',
  },
  usedUpTokens: {
    de_DE:
      'Die {count} Tokens des Plans für diesen Zeitraum sind aufgebraucht (der Zeitraum endet am {date}). Wechseln Sie zu einem grösseren Plan, um mehr zu senden.',
    gsw_CH:
      'Di {count} Tokens vom Plan für dä Zitruum sind ufbruucht (de Zitruum endet am {date}). Wächsled Sie zu emne grössere Plan, zum meh schicke.',
    fr_FR:
      'Les {count} jetons du forfait pour cette période sont épuisés (la période se termine le {date}). Passez à un forfait supérieur pour envoyer davantage.',
    it_IT:
      'I {count} token del piano per questo periodo sono esauriti (il periodo termina il {date}). Passa a un piano superiore per inviarne altri.',
  },
  planAllowsOneApp: {
    de_DE: 'Der Plan erlaubt 1 App. Wechseln Sie zu einem grösseren Plan, um mehr Apps zu erstellen.',
    gsw_CH: 'De Plan erlaubt 1 App. Wächsled Sie zu emne grössere Plan, zum meh Apps z mache.',
    fr_FR: 'Le forfait permet 1 app. Passez à un forfait supérieur pour créer plus d’apps.',
    it_IT: 'Il piano consente 1 app. Passa a un piano superiore per creare altre app.',
  },
  planAllowsApps: {
    de_DE: 'Der Plan erlaubt {limit} Apps. Wechseln Sie zu einem grösseren Plan, um mehr Apps zu erstellen.',
    gsw_CH: 'De Plan erlaubt {limit} Apps. Wächsled Sie zu emne grössere Plan, zum meh Apps z mache.',
    fr_FR: 'Le forfait permet {limit} apps. Passez à un forfait supérieur pour créer plus d’apps.',
    it_IT: 'Il piano consente {limit} app. Passa a un piano superiore per creare altre app.',
  },
  planAllowsOneMember: {
    de_DE: 'Der Plan erlaubt 1 Mitglied. Wechseln Sie zu einem grösseren Plan, um mehr Personen einzuladen.',
    gsw_CH: 'De Plan erlaubt 1 Mitglied. Wächsled Sie zu emne grössere Plan, zum meh Lüt iizlade.',
    fr_FR: 'Le forfait permet 1 membre. Passez à un forfait supérieur pour inviter plus de personnes.',
    it_IT: 'Il piano consente 1 membro. Passa a un piano superiore per invitare altre persone.',
  },
  planAllowsMembers: {
    de_DE:
      'Der Plan erlaubt {limit} Mitglieder. Wechseln Sie zu einem grösseren Plan, um mehr Personen einzuladen.',
    gsw_CH: 'De Plan erlaubt {limit} Mitglieder. Wächsled Sie zu emne grössere Plan, zum meh Lüt iizlade.',
    fr_FR: 'Le forfait permet {limit} membres. Passez à un forfait supérieur pour inviter plus de personnes.',
    it_IT: 'Il piano consente {limit} membri. Passa a un piano superiore per invitare altre persone.',
  },
  billingNotConfigured: {
    de_DE: 'Online-Zahlung ist auf dieser Instanz nicht eingerichtet: Pläne weist der Betreiber zu.',
    gsw_CH: 'Online-Zahlig isch uf dere Instanz nöd iigrichtet: Plän teilt de Betriiber zue.',
    fr_FR: 'Le paiement en ligne n’est pas configuré sur cette instance : l’opérateur attribue les forfaits.',
    it_IT: 'Il pagamento online non è configurato su questa istanza: i piani li assegna l’operatore.',
  },
  stripeUnreachable: {
    de_DE: 'Stripe war nicht erreichbar.',
    gsw_CH: 'Stripe isch nöd erreichbar gsi.',
    fr_FR: 'Impossible de joindre Stripe.',
    it_IT: 'Impossibile raggiungere Stripe.',
  },
  subscriptionEnded: {
    de_DE: 'Dieses Abonnement ist bereits beendet.',
    gsw_CH: 'Das Abonnement isch scho beändet.',
    fr_FR: 'Cet abonnement a déjà pris fin.',
    it_IT: 'Questo abbonamento è già terminato.',
  },
  planNotOnline: {
    de_DE: 'Dieser Plan kann nicht online gekauft werden; der Betreiber weist ihn zu.',
    gsw_CH: 'De Plan chan mer nöd online chaufe; de Betriiber teilt en zue.',
    fr_FR: 'Ce forfait ne peut pas être acheté en ligne ; l’opérateur l’attribue.',
    it_IT: 'Questo piano non può essere acquistato online; lo assegna l’operatore.',
  },
  // Slack
  slackConfigRequired: {
    de_DE:
      'Anbieterkonfiguration erforderlich: Richten Sie zuerst das Slack-Integrationstoken in den Anbietereinstellungen ein (Einstellungen → Integrationen → Slack).',
    gsw_CH:
      'Aabieterkonfiguration nötig: Richted Sie zerscht s Slack-Integrationstoken i de Aabieteriistellige ii (Iistellige → Integratione → Slack).',
    fr_FR:
      'Configuration du fournisseur requise : configurez d’abord le jeton d’intégration Slack dans les paramètres du fournisseur (Paramètres → Intégrations → Slack).',
    it_IT:
      'Configurazione del fornitore richiesta: imposta prima il token di integrazione Slack nelle impostazioni del fornitore (Impostazioni → Integrazioni → Slack).',
  },
  slackExists: {
    de_DE: 'Diese App hat bereits eine Slack-App; aktualisieren Sie diese stattdessen.',
    gsw_CH: 'Die App het scho e Slack-App; aktualisiered Sie die statt dem.',
    fr_FR: 'Cette app a déjà une app Slack ; mettez-la plutôt à jour.',
    it_IT: 'Questa app ha già un’app Slack; aggiornala invece.',
  },
  slackUnreachable: {
    de_DE: 'Slack war nicht erreichbar. Versuchen Sie es später erneut.',
    gsw_CH: 'Slack isch nöd erreichbar gsi. Probiered Sie s spöter nomal.',
    fr_FR: 'Impossible de joindre Slack. Réessayez plus tard.',
    it_IT: 'Impossibile raggiungere Slack. Riprova più tardi.',
  },
  // Model lists at install (ADR 0039)
  modelListUnsupported: {
    de_DE: 'Der Anbieter dieses Modells listet seine Modelle nicht; geben Sie den Modellnamen ein.',
    gsw_CH: 'Dä Aabieter vo dem Modell listet sini Modell nöd; gänd Sie dä Modellname ii.',
    fr_FR: 'Le fournisseur de ce modèle ne liste pas ses modèles ; saisissez le nom du modèle.',
    it_IT: 'Il fornitore di questo modello non elenca i suoi modelli; inserisci il nome del modello.',
  },
  modelListNeedsBaseUrl: {
    de_DE: 'Geben Sie zuerst die Basis-URL des Servers ein (http:// oder https://).',
    gsw_CH: 'Gänd Sie zerscht d Basis-URL vom Server ii (http:// oder https://).',
    fr_FR: 'Saisissez d’abord l’URL de base du serveur (http:// ou https://).',
    it_IT: 'Inserisci prima l’URL di base del server (http:// o https://).',
  },
  modelListNeedsAzure: {
    de_DE: 'Geben Sie zuerst den Ressourcennamen (oder die Basis-URL) und den API-Schlüssel ein.',
    gsw_CH: 'Gänd Sie zerscht dä Ressourcename (oder d Basis-URL) und dä API-Schlüssel ii.',
    fr_FR: 'Saisissez d’abord le nom de la ressource (ou l’URL de base) et la clé API.',
    it_IT: 'Inserisci prima il nome della risorsa (o l’URL di base) e la chiave API.',
  },
  modelListNeedsAws: {
    de_DE:
      'Geben Sie zuerst die AWS-Region, die Zugriffsschlüssel-ID und den geheimen Zugriffsschlüssel ein.',
    gsw_CH: 'Gänd Sie zerscht d AWS-Region, d Zuegriffsschlüssel-ID und dä gheime Zuegriffsschlüssel ii.',
    fr_FR: 'Saisissez d’abord la région AWS, l’ID de clé d’accès et la clé d’accès secrète.',
    it_IT: 'Inserisci prima la regione AWS, l’ID della chiave di accesso e la chiave di accesso segreta.',
  },
  modelListUnreachable: {
    de_DE: '{url} war nicht erreichbar.',
    gsw_CH: '{url} isch nöd erreichbar gsi.',
    fr_FR: 'Impossible de joindre {url}.',
    it_IT: 'Impossibile raggiungere {url}.',
  },
  modelListTimeout: {
    de_DE: '{url} hat nicht innerhalb von {count} Sekunden geantwortet.',
    gsw_CH: '{url} hät nöd innerhalb vo {count} Sekunde gantwortet.',
    fr_FR: '{url} n’a pas répondu en {count} secondes.',
    it_IT: '{url} non ha risposto entro {count} secondi.',
  },
  modelListRefused: {
    de_DE: '{url} antwortete mit HTTP {status}: {reason}',
    gsw_CH: '{url} hät mit HTTP {status} gantwortet: {reason}',
    fr_FR: '{url} a répondu HTTP {status} : {reason}',
    it_IT: '{url} ha risposto HTTP {status}: {reason}',
  },
  modelListRefusedBare: {
    de_DE: '{url} antwortete mit HTTP {status} ohne Fehlermeldung.',
    gsw_CH: '{url} hät mit HTTP {status} ohni Fählermäldig gantwortet.',
    fr_FR: '{url} a répondu HTTP {status} sans message d’erreur.',
    it_IT: '{url} ha risposto HTTP {status} senza messaggio di errore.',
  },
  modelListUnreadable: {
    de_DE: '{url} hat keine Liste von Modellen geliefert.',
    gsw_CH: '{url} hät kei Lischte vo Modell gliferet.',
    fr_FR: '{url} n’a pas renvoyé de liste de modèles.',
    it_IT: '{url} non ha restituito un elenco di modelli.',
  },
  // Requests in general
  requestInvalid: {
    de_DE: 'Die Anfrage ist ungültig.',
    gsw_CH: 'D Aafrog isch ungültig.',
    fr_FR: 'La requête n’est pas valide.',
    it_IT: 'La richiesta non è valida.',
  },
  tooManyRequests: {
    de_DE: 'Zu viele Anfragen. Bitte versuchen Sie es später erneut.',
    gsw_CH: 'Z vill Aafroge. Bitte probiered Sie s spöter nomal.',
    fr_FR: 'Trop de requêtes. Veuillez réessayer plus tard.',
    it_IT: 'Troppe richieste. Riprova più tardi.',
  },
  databaseUnavailable: {
    de_DE: 'Die Datenbank ist gerade nicht erreichbar. Bitte versuchen Sie es gleich noch einmal.',
    gsw_CH: 'D Datebank isch grad nöd erreichbar. Bitte probiered Sie s grad nomal.',
    fr_FR: 'La base de données n’est pas disponible pour le moment. Veuillez réessayer dans un instant.',
    it_IT: 'Il database non è disponibile al momento. Riprova tra poco.',
  },
  serverStopping: {
    de_DE: 'Der Server startet neu. Bitte versuchen Sie es gleich noch einmal.',
    gsw_CH: 'De Server startet neu. Bitte probiered Sie s grad nomal.',
    fr_FR: 'Le serveur redémarre. Veuillez réessayer dans un instant.',
    it_IT: 'Il server si sta riavviando. Riprova tra poco.',
  },
  diskFull: {
    de_DE:
      'Der Datenträger des Servers ist voll: nichts wurde gespeichert. Bitte versuchen Sie es später erneut.',
    gsw_CH:
      'D Festplatte vom Server isch voll: nüt isch gspicheret worde. Bitte probiered Sie s spöter nomal.',
    fr_FR: 'Le disque du serveur est plein : rien n’a été enregistré. Veuillez réessayer plus tard.',
    it_IT: 'Il disco del server è pieno: non è stato salvato nulla. Riprova più tardi.',
  },
  // Mails
  invitationSubject: {
    de_DE: 'Sie sind zu {vendor} auf llmor eingeladen',
    gsw_CH: 'Sie sind zu {vendor} uf llmor iiglade',
    fr_FR: 'Vous êtes invité·e à rejoindre {vendor} sur llmor',
    it_IT: 'Sei invitato/a in {vendor} su llmor',
  },
  invitationText: {
    de_DE:
      'Sie wurden eingeladen, {vendor} auf llmor beizutreten.\n\nÖffnen Sie diesen Link innerhalb von 7 Tagen, um anzunehmen:\n{url}\n\nFalls Sie diese Einladung nicht erwartet haben, ignorieren Sie diese Mail.',
    gsw_CH:
      'Sie sind iiglade worde, bi {vendor} uf llmor mitzmache.\n\nÖffned Sie dä Link innert 7 Täg, zum aaznäh:\n{url}\n\nFalls Sie die Iiladig nöd erwartet händ, ignoriered Sie das Mail.',
    fr_FR:
      'Vous avez été invité·e à rejoindre {vendor} sur llmor.\n\nOuvrez ce lien dans les 7 jours pour accepter :\n{url}\n\nSi vous n’attendiez pas cette invitation, ignorez cet e-mail.',
    it_IT:
      'Sei stato/a invitato/a a unirti a {vendor} su llmor.\n\nApri questo link entro 7 giorni per accettare:\n{url}\n\nSe non ti aspettavi questo invito, ignora questa e-mail.',
  },
  messageTooLong: {
    de_DE: 'Eine Nachricht darf höchstens {limit} Zeichen haben.',
    gsw_CH: 'E Nachricht dörf höchschtens {limit} Zeiche ha.',
    fr_FR: 'Un message peut contenir au plus {limit} caractères.',
    it_IT: 'Un messaggio può avere al massimo {limit} caratteri.',
  },
  // Field messages of the schemas
  required: {
    de_DE: 'Erforderlich',
    gsw_CH: 'Nötig',
    fr_FR: 'Obligatoire',
    it_IT: 'Obbligatorio',
  },
  atMostCharacters: {
    de_DE: 'Höchstens {limit} Zeichen',
    gsw_CH: 'Höchschtens {limit} Zeiche',
    fr_FR: '{limit} caractères au maximum',
    it_IT: 'Al massimo {limit} caratteri',
  },
  validEmail: {
    de_DE: 'Geben Sie eine gültige E-Mail-Adresse ein',
    gsw_CH: 'Gäbed Sie e gültigi E-Mail-Adrässe ii',
    fr_FR: 'Saisissez une adresse e-mail valide',
    it_IT: 'Inserisci un indirizzo e-mail valido',
  },
  currencyCode: {
    de_DE: 'Verwenden Sie einen dreibuchstabigen ISO-Währungscode, z. B. CHF',
    gsw_CH: 'Bruuched Sie en ISO-Währigscode mit drü Buechstabe, z. B. CHF',
    fr_FR: 'Utilisez un code de devise ISO à trois lettres, p. ex. CHF',
    it_IT: 'Usa un codice valuta ISO di tre lettere, ad es. CHF',
  },
  vendorKeyShape: {
    de_DE: 'Verwenden Sie 2–50 Kleinbuchstaben, Ziffern, - und _',
    gsw_CH: 'Bruuched Sie 2–50 Chliibuechstabe, Ziffere, - und _',
    fr_FR: 'Utilisez 2 à 50 lettres minuscules, chiffres, - et _',
    it_IT: 'Usa da 2 a 50 lettere minuscole, cifre, - e _',
  },
  countryCode: {
    de_DE: 'Wählen Sie ein Land',
    gsw_CH: 'Wähled Sie es Land',
    fr_FR: 'Choisissez un pays',
    it_IT: 'Scegli un paese',
  },
  chooseRole: {
    de_DE: 'Wählen Sie Inhaber oder Mitglied',
    gsw_CH: 'Wähled Sie Inhaber oder Mitglied',
    fr_FR: 'Choisissez propriétaire ou membre',
    it_IT: 'Scegli proprietario o membro',
  },
  unknownLocale: {
    de_DE: 'Unbekannte Sprache',
    gsw_CH: 'Unbekannti Sprach',
    fr_FR: 'Langue inconnue',
    it_IT: 'Lingua sconosciuta',
  },
  // Not found: one text per kind of thing, so each reads right in every language
  appNotFound: {
    de_DE: 'App nicht gefunden',
    gsw_CH: 'App nöd gfunde',
    fr_FR: 'App introuvable',
    it_IT: 'App non trovata',
  },
  clientNotFound: {
    de_DE: 'API-Client nicht gefunden',
    gsw_CH: 'API-Client nöd gfunde',
    fr_FR: 'Client API introuvable',
    it_IT: 'Client API non trovato',
  },
  conversationNotFound: {
    de_DE: 'Unterhaltung nicht gefunden',
    gsw_CH: 'Unterhaltig nöd gfunde',
    fr_FR: 'Conversation introuvable',
    it_IT: 'Conversazione non trovata',
  },
  datastoreNotFound: {
    de_DE: 'Datenspeicher nicht gefunden',
    gsw_CH: 'Datespeicher nöd gfunde',
    fr_FR: 'Magasin de données introuvable',
    it_IT: 'Archivio dati non trovato',
  },
  documentNotFound: {
    de_DE: 'Dokument nicht gefunden',
    gsw_CH: 'Dokumänt nöd gfunde',
    fr_FR: 'Document introuvable',
    it_IT: 'Documento non trovato',
  },
  embedNotFound: {
    de_DE: 'Einbettung nicht gefunden',
    gsw_CH: 'Iibettig nöd gfunde',
    fr_FR: 'Intégration introuvable',
    it_IT: 'Incorporamento non trovato',
  },
  functionNotFound: {
    de_DE: 'Funktion nicht gefunden',
    gsw_CH: 'Funktion nöd gfunde',
    fr_FR: 'Fonction introuvable',
    it_IT: 'Funzione non trovata',
  },
  iconNotFound: {
    de_DE: 'Symbol nicht gefunden',
    gsw_CH: 'Symbol nöd gfunde',
    fr_FR: 'Icône introuvable',
    it_IT: 'Icona non trovata',
  },
  invitationNotFound: {
    de_DE: 'Einladung nicht gefunden',
    gsw_CH: 'Iiladig nöd gfunde',
    fr_FR: 'Invitation introuvable',
    it_IT: 'Invito non trovato',
  },
  modelNotFound: {
    de_DE: 'Modell nicht gefunden',
    gsw_CH: 'Modell nöd gfunde',
    fr_FR: 'Modèle introuvable',
    it_IT: 'Modello non trovato',
  },
  planNotFound: {
    de_DE: 'Plan nicht gefunden',
    gsw_CH: 'Plan nöd gfunde',
    fr_FR: 'Forfait introuvable',
    it_IT: 'Piano non trovato',
  },
  routeNotFound: {
    de_DE: 'Seite nicht gefunden',
    gsw_CH: 'Siite nöd gfunde',
    fr_FR: 'Page introuvable',
    it_IT: 'Pagina non trovata',
  },
  runNotFound: {
    de_DE: 'Ausführung nicht gefunden',
    gsw_CH: 'Uusfüehrig nöd gfunde',
    fr_FR: 'Exécution introuvable',
    it_IT: 'Esecuzione non trovata',
  },
  slackIntegrationNotFound: {
    de_DE: 'Slack-Integration nicht gefunden',
    gsw_CH: 'Slack-Integration nöd gfunde',
    fr_FR: 'Intégration Slack introuvable',
    it_IT: 'Integrazione Slack non trovata',
  },
  subscriptionNotFound: {
    de_DE: 'Abonnement nicht gefunden',
    gsw_CH: 'Abonnement nöd gfunde',
    fr_FR: 'Abonnement introuvable',
    it_IT: 'Abbonamento non trovato',
  },
  userNotFound: {
    de_DE: 'Benutzer nicht gefunden',
    gsw_CH: 'Benutzer nöd gfunde',
    fr_FR: 'Utilisateur introuvable',
    it_IT: 'Utente non trovato',
  },
  vendorNotFound: {
    de_DE: 'Anbieter nicht gefunden',
    gsw_CH: 'Aabieter nöd gfunde',
    fr_FR: 'Fournisseur introuvable',
    it_IT: 'Fornitore non trovato',
  },
  resourceNotFound: {
    de_DE: 'Nicht gefunden',
    gsw_CH: 'Nöd gfunde',
    fr_FR: 'Introuvable',
    it_IT: 'Non trovato',
  },
  requestNotJson: {
    de_DE: 'Der Inhalt der Anfrage ist kein gültiges JSON.',
    gsw_CH: 'De Inhalt vo de Aafrog isch kei gültigs JSON.',
    fr_FR: 'Le corps de la requête n’est pas du JSON valide.',
    it_IT: 'Il corpo della richiesta non è JSON valido.',
  },
  requestTooLarge: {
    de_DE: 'Der Inhalt der Anfrage ist zu gross.',
    gsw_CH: 'De Inhalt vo de Aafrog isch z gross.',
    fr_FR: 'Le corps de la requête est trop volumineux.',
    it_IT: 'Il corpo della richiesta è troppo grande.',
  },
  requestTooLargeAtMost: {
    de_DE: 'Der Inhalt der Anfrage ist zu gross: höchstens {size} pro Anfrage.',
    gsw_CH: 'De Inhalt vo de Aafrog isch z gross: höchstens {size} pro Aafrog.',
    fr_FR: 'Le corps de la requête est trop volumineux : {size} au plus par requête.',
    it_IT: 'Il corpo della richiesta è troppo grande: al massimo {size} per richiesta.',
  },
  vendorHeaderRequired: {
    de_DE: 'Der Header X-Vendor ist erforderlich.',
    gsw_CH: 'De Header X-Vendor bruucht s.',
    fr_FR: 'L’en-tête X-Vendor est obligatoire.',
    it_IT: 'L’intestazione X-Vendor è obbligatoria.',
  },
  noOutsideCallers: {
    de_DE: 'Dieser Server nimmt keine Aufrufe von aussen an.',
    gsw_CH: 'De Server nimmt kei Uufrüef vo usse aa.',
    fr_FR: 'Ce serveur n’accepte aucun appel extérieur.',
    it_IT: 'Questo server non accetta chiamate esterne.',
  },
  routeUnknown: {
    de_DE: '{route} nicht gefunden',
    gsw_CH: '{route} nöd gfunde',
    fr_FR: '{route} introuvable',
    it_IT: '{route} non trovato',
  },
  // Replies and model providers (`{reason}` is translated when it is a catalogue text; a provider's own message stays as it said it)
  replyBusy: {
    de_DE: 'In dieser Unterhaltung wird noch eine Antwort erzeugt. Warten Sie, bis sie fertig ist.',
    gsw_CH: 'I dere Unterhaltig wird no e Antwort gmacht. Warted Sie, bis si fertig isch.',
    fr_FR: 'Une réponse est encore en cours dans cette conversation. Attendez qu’elle se termine.',
    it_IT: 'In questa conversazione si sta ancora generando una risposta. Attendi che finisca.',
  },
  replyUnexpected: {
    de_DE: 'Die Antwort konnte wegen eines unerwarteten Fehlers nicht abgeschlossen werden.',
    gsw_CH: 'D Antwort het wäge emne unerwartete Fähler nöd chöne fertig gmacht wärde.',
    fr_FR: 'La réponse n’a pas pu être terminée à cause d’une erreur inattendue.',
    it_IT: 'La risposta non è stata completata a causa di un errore imprevisto.',
  },
  replyInterrupted: {
    de_DE: 'Die Antwort wurde unterbrochen (der Server wurde angehalten).',
    gsw_CH: 'D Antwort isch unterbroche worde (de Server isch gstoppt worde).',
    fr_FR: 'La réponse a été interrompue (le serveur s’est arrêté).',
    it_IT: 'La risposta è stata interrotta (il server si è fermato).',
  },
  providerServerAt: {
    de_DE: 'der Server unter {url}',
    gsw_CH: 'de Server under {url}',
    fr_FR: 'le serveur à l’adresse {url}',
    it_IT: 'il server all’indirizzo {url}',
  },
  modelCouldNotAnswer: {
    de_DE: 'Das Modell konnte nicht antworten: {reason}',
    gsw_CH: 'S Modell het nöd chöne antworte: {reason}',
    fr_FR: 'Le modèle n’a pas pu répondre : {reason}',
    it_IT: 'Il modello non ha potuto rispondere: {reason}',
  },
  embeddingCouldNotAnswer: {
    de_DE: 'Das Embedding-Modell konnte nicht antworten: {reason}',
    gsw_CH: 'S Embedding-Modell het nöd chöne antworte: {reason}',
    fr_FR: 'Le modèle d’embedding n’a pas pu répondre : {reason}',
    it_IT: 'Il modello di embedding non ha potuto rispondere: {reason}',
  },
  providerKeyRejected: {
    de_DE: '{provider} hat den API-Schlüssel abgelehnt (HTTP {status}): {reason}',
    gsw_CH: '{provider} het de API-Schlüssel abglehnt (HTTP {status}): {reason}',
    fr_FR: '{provider} a refusé la clé d’API (HTTP {status}) : {reason}',
    it_IT: '{provider} ha rifiutato la chiave API (HTTP {status}): {reason}',
  },
  providerKeyRejectedSilently: {
    de_DE:
      '{provider} hat den API-Schlüssel abgelehnt (HTTP {status}). Der Anbieter antwortete HTTP {status} ohne Fehlermeldung.',
    gsw_CH:
      '{provider} het de API-Schlüssel abglehnt (HTTP {status}). De Aabieter het HTTP {status} ohni Fählermäldig gantwortet.',
    fr_FR:
      '{provider} a refusé la clé d’API (HTTP {status}). Le fournisseur a répondu HTTP {status} sans message d’erreur.',
    it_IT:
      '{provider} ha rifiutato la chiave API (HTTP {status}). Il fornitore ha risposto HTTP {status} senza messaggio di errore.',
  },
  providerStoppedAnswer: {
    de_DE: '{provider} hat die Antwort abgebrochen: {reason}',
    gsw_CH: '{provider} het d Antwort abbroche: {reason}',
    fr_FR: '{provider} a interrompu la réponse : {reason}',
    it_IT: '{provider} ha interrotto la risposta: {reason}',
  },
  slackBusy: {
    de_DE:
      'Ich beantworte in diesem Thread noch eine frühere Nachricht. Senden Sie diese erneut, wenn die Antwort da ist.',
    gsw_CH:
      'Ich beantworte i dem Thread no e früeneri Nachricht. Schicked Sie die nomal, wenn d Antwort da isch.',
    fr_FR:
      'Je réponds encore à un message précédent de ce fil. Renvoyez celui-ci quand cette réponse sera arrivée.',
    it_IT:
      'Sto ancora rispondendo a un messaggio precedente in questo thread. Invia di nuovo questo quando quella risposta è arrivata.',
  },
  slackNoAnswer: {
    de_DE: 'Die App hat auf diese Nachricht keine Antwort gegeben.',
    gsw_CH: 'D App het uf die Nachricht kei Antwort geh.',
    fr_FR: 'L’application n’a donné aucune réponse à ce message.',
    it_IT: 'L’app non ha dato alcuna risposta a questo messaggio.',
  },
  providerRateLimited: {
    de_DE: '{provider} begrenzt die Anfragen: {reason}',
    gsw_CH: '{provider} begränzt d Aafroge: {reason}',
    fr_FR: '{provider} limite le nombre de requêtes : {reason}',
    it_IT: '{provider} sta limitando le richieste: {reason}',
  },
  providerRateLimitedSilently: {
    de_DE: '{provider} begrenzt die Anfragen. Der Anbieter antwortete HTTP {status} ohne Fehlermeldung.',
    gsw_CH: '{provider} begränzt d Aafroge. De Aabieter het HTTP {status} ohni Fählermäldig gantwortet.',
    fr_FR:
      '{provider} limite le nombre de requêtes. Le fournisseur a répondu HTTP {status} sans message d’erreur.',
    it_IT:
      '{provider} sta limitando le richieste. Il fornitore ha risposto HTTP {status} senza messaggio di errore.',
  },
  providerUnavailable: {
    de_DE: '{provider} ist nicht verfügbar (HTTP {status}): {reason}',
    gsw_CH: '{provider} isch nöd verfüegbar (HTTP {status}): {reason}',
    fr_FR: '{provider} n’est pas disponible (HTTP {status}) : {reason}',
    it_IT: '{provider} non è disponibile (HTTP {status}): {reason}',
  },
  providerUnavailableSilently: {
    de_DE:
      '{provider} ist nicht verfügbar (HTTP {status}). Der Anbieter antwortete HTTP {status} ohne Fehlermeldung.',
    gsw_CH:
      '{provider} isch nöd verfüegbar (HTTP {status}). De Aabieter het HTTP {status} ohni Fählermäldig gantwortet.',
    fr_FR:
      '{provider} n’est pas disponible (HTTP {status}). Le fournisseur a répondu HTTP {status} sans message d’erreur.',
    it_IT:
      '{provider} non è disponibile (HTTP {status}). Il fornitore ha risposto HTTP {status} senza messaggio di errore.',
  },
  providerRefused: {
    de_DE: '{provider} hat die Anfrage abgelehnt (HTTP {status}): {reason}',
    gsw_CH: '{provider} het d Aafrog abglehnt (HTTP {status}): {reason}',
    fr_FR: '{provider} a refusé la requête (HTTP {status}) : {reason}',
    it_IT: '{provider} ha rifiutato la richiesta (HTTP {status}): {reason}',
  },
  providerRefusedSilently: {
    de_DE:
      '{provider} hat die Anfrage abgelehnt (HTTP {status}). Der Anbieter antwortete HTTP {status} ohne Fehlermeldung.',
    gsw_CH:
      '{provider} het d Aafrog abglehnt (HTTP {status}). De Aabieter het HTTP {status} ohni Fählermäldig gantwortet.',
    fr_FR:
      '{provider} a refusé la requête (HTTP {status}). Le fournisseur a répondu HTTP {status} sans message d’erreur.',
    it_IT:
      '{provider} ha rifiutato la richiesta (HTTP {status}). Il fornitore ha risposto HTTP {status} senza messaggio di errore.',
  },
  providerUnreachableCode: {
    de_DE: '{provider} war nicht erreichbar ({code}).',
    gsw_CH: '{provider} isch nöd erreichbar gsi ({code}).',
    fr_FR: 'Impossible de joindre {provider} ({code}).',
    it_IT: 'Impossibile raggiungere {provider} ({code}).',
  },
  providerUnreachable: {
    de_DE: '{provider} war nicht erreichbar.',
    gsw_CH: '{provider} isch nöd erreichbar gsi.',
    fr_FR: 'Impossible de joindre {provider}.',
    it_IT: 'Impossibile raggiungere {provider}.',
  },
  providerUnreadable: {
    de_DE: '{provider} hat eine Antwort gesendet, die nicht gelesen werden konnte.',
    gsw_CH: '{provider} het e Antwort gschickt, wo mer nöd het chöne läse.',
    fr_FR: '{provider} a envoyé une réponse illisible.',
    it_IT: '{provider} ha inviato una risposta illeggibile.',
  },
  providerTimeout: {
    de_DE: '{provider} hat nicht innerhalb von {seconds} s geantwortet.',
    gsw_CH: '{provider} het nöd innert {seconds} s gantwortet.',
    fr_FR: '{provider} n’a pas répondu dans les {seconds} s.',
    it_IT: '{provider} non ha risposto entro {seconds} s.',
  },
  providerStreamFailed: {
    de_DE: '{provider} hat den Stream mit einem Fehler beendet.',
    gsw_CH: '{provider} het de Stream mit emne Fähler beändet.',
    fr_FR: '{provider} a terminé le flux par une erreur.',
    it_IT: '{provider} ha terminato il flusso con un errore.',
  },
  providerStreamUnfinished: {
    de_DE: '{provider} hat den Stream vorzeitig beendet.',
    gsw_CH: '{provider} het de Stream vorzitig beändet.',
    fr_FR: '{provider} a interrompu le flux avant la fin.',
    it_IT: '{provider} ha interrotto il flusso prima della fine.',
  },
  providerDimensions: {
    de_DE:
      '{provider} hat Vektoren mit {found} Dimensionen geliefert; das Modell ist für {expected} eingerichtet.',
    gsw_CH:
      '{provider} het Vektore mit {found} Dimensione gliferet; s Modell isch für {expected} iigrichtet.',
    fr_FR:
      '{provider} a renvoyé des vecteurs de {found} dimensions ; le modèle est configuré pour {expected}.',
    it_IT: '{provider} ha restituito vettori di {found} dimensioni; il modello è configurato per {expected}.',
  },
  modelGone: {
    de_DE: 'Das Modell „{model}“ ist nicht mehr im Katalog.',
    gsw_CH: 'S Modell «{model}» isch nümme im Katalog.',
    fr_FR: 'Le modèle « {model} » n’est plus au catalogue.',
    it_IT: 'Il modello «{model}» non è più nel catalogo.',
  },
  modelKeyUnreadable: {
    de_DE:
      'Der gespeicherte API-Schlüssel von „{model}“ kann nicht entschlüsselt werden; installieren Sie das Modell erneut.',
    gsw_CH:
      'De gspeichereti API-Schlüssel vo «{model}» cha nöd entschlüsslet wärde; installiered Sie s Modell nomal.',
    fr_FR:
      'La clé d’API enregistrée de « {model} » ne peut pas être déchiffrée ; installez à nouveau le modèle.',
    it_IT: 'La chiave API salvata di «{model}» non può essere decifrata; installa di nuovo il modello.',
  },
  outboundRefused: {
    de_DE:
      '{destination} liegt in einem privaten oder lokalen Netz; der Betreiber kann es mit OUTBOUND_ALLOW erlauben.',
    gsw_CH:
      '{destination} isch imene private oder lokale Netz; de Betriiber chas mit OUTBOUND_ALLOW erlaube.',
    fr_FR:
      '{destination} est sur un réseau privé ou local ; l’opérateur peut l’autoriser avec OUTBOUND_ALLOW.',
    it_IT:
      '{destination} si trova in una rete privata o locale; l’operatore può consentirlo con OUTBOUND_ALLOW.',
  },
  // Stripe (its own message stays as it said it)
  stripeRefused: {
    de_DE: 'Stripe hat die Anfrage abgelehnt: {reason}',
    gsw_CH: 'Stripe het d Aafrog abglehnt: {reason}',
    fr_FR: 'Stripe a refusé la requête : {reason}',
    it_IT: 'Stripe ha rifiutato la richiesta: {reason}',
  },
  stripeNoCheckoutUrl: {
    de_DE: 'Stripe hat eine Checkout-Sitzung ohne URL geliefert.',
    gsw_CH: 'Stripe het e Checkout-Sitzig ohni URL gliferet.',
    fr_FR: 'Stripe a renvoyé une session de paiement sans URL.',
    it_IT: 'Stripe ha restituito una sessione di pagamento senza URL.',
  },
  // Rate limits
  embedOpeningsLimited: {
    de_DE:
      'Zu viele Unterhaltungen hier geöffnet: höchstens {limit} pro Stunde. Versuchen Sie es in {count} s erneut.',
    gsw_CH:
      'Z vill Unterhaltige da göffnet: höchschtens {limit} pro Stund. Probiered Sie s i {count} s nomal.',
    fr_FR: 'Trop de conversations ouvertes ici : {limit} par heure au maximum. Réessayez dans {count} s.',
    it_IT: 'Troppe conversazioni aperte qui: al massimo {limit} all’ora. Riprova tra {count} s.',
  },
  clientRateLimited: {
    de_DE:
      'Dieser API-Client darf {limit} Anfragen pro {seconds} s stellen. Versuchen Sie es in {count} s erneut.',
    gsw_CH: 'Dä API-Client dörf {limit} Aafroge pro {seconds} s mache. Probiered Sie s i {count} s nomal.',
    fr_FR: 'Ce client API peut faire {limit} requêtes par {seconds} s. Réessayez dans {count} s.',
    it_IT: 'Questo client API può fare {limit} richieste ogni {seconds} s. Riprova tra {count} s.',
  },
  // The relay (`state_err`)
  relayUnknownConversation: {
    de_DE: 'Unbekannte Unterhaltung',
    gsw_CH: 'Unbekannti Unterhaltig',
    fr_FR: 'Conversation inconnue',
    it_IT: 'Conversazione sconosciuta',
  },
  relayJoinFirst: {
    de_DE: 'Treten Sie zuerst einer Unterhaltung bei.',
    gsw_CH: 'Träted Sie zerscht ere Unterhaltig bi.',
    fr_FR: 'Rejoignez d’abord une conversation.',
    it_IT: 'Entra prima in una conversazione.',
  },
  relayWhoUnchecked: {
    de_DE: 'Das Relay konnte nicht prüfen, wer Sie sind.',
    gsw_CH: 'S Relay het nöd chöne prüefe, wer Sie sind.',
    fr_FR: 'Le relais n’a pas pu vérifier qui vous êtes.',
    it_IT: 'Il relay non ha potuto verificare chi sei.',
  },
  relayFailed: {
    de_DE: 'Das Relay konnte diese Anfrage nicht bearbeiten.',
    gsw_CH: 'S Relay het die Aafrog nöd chöne bearbeite.',
    fr_FR: 'Le relais n’a pas pu traiter cette requête.',
    it_IT: 'Il relay non ha potuto gestire questa richiesta.',
  },
  stateChangesLimited: {
    de_DE: 'Zu viele Zustandsänderungen: höchstens {limit} pro Minute. Versuchen Sie es in {count} s erneut.',
    gsw_CH: 'Z vill Zuestandsänderige: höchschtens {limit} pro Minute. Probiered Sie s i {count} s nomal.',
    fr_FR: 'Trop de changements d’état : {limit} par minute au maximum. Réessayez dans {count} s.',
    it_IT: 'Troppe modifiche di stato: al massimo {limit} al minuto. Riprova tra {count} s.',
  },
  stateNotObject: {
    de_DE: 'Der Zustand muss ein JSON-Objekt sein.',
    gsw_CH: 'De Zuestand muess es JSON-Objekt sii.',
    fr_FR: 'L’état doit être un objet JSON.',
    it_IT: 'Lo stato deve essere un oggetto JSON.',
  },
  stateNotJson: {
    de_DE: 'Der Zustand darf nur JSON-Werte enthalten.',
    gsw_CH: 'De Zuestand dörf nur JSON-Wärt ha.',
    fr_FR: 'L’état ne doit contenir que des valeurs JSON.',
    it_IT: 'Lo stato deve contenere solo valori JSON.',
  },
  stateTooLarge: {
    de_DE: 'Der Zustand darf {size} nicht überschreiten.',
    gsw_CH: 'De Zuestand dörf nöd grösser als {size} sii.',
    fr_FR: 'L’état ne doit pas dépasser {size}.',
    it_IT: 'Lo stato non deve superare {size}.',
  },
  patchesNotArray: {
    de_DE: 'Patches müssen ein Array von JSON-Patch-Operationen (RFC 6902) sein.',
    gsw_CH: 'Patches müend es Array vo JSON-Patch-Operatione (RFC 6902) sii.',
    fr_FR: 'Les patchs doivent être un tableau d’opérations JSON Patch (RFC 6902).',
    it_IT: 'Le patch devono essere un array di operazioni JSON Patch (RFC 6902).',
  },
  patchInvalid: {
    de_DE: 'Ungültiger Patch: {reason}',
    gsw_CH: 'Ungültige Patch: {reason}',
    fr_FR: 'Patch non valide : {reason}',
    it_IT: 'Patch non valida: {reason}',
  },
  // Conversations, models, datastores, functions
  parametersTooLarge: {
    de_DE: 'Höchstens {limit} Bytes als JSON.',
    gsw_CH: 'Höchschtens {limit} Bytes als JSON.',
    fr_FR: '{limit} octets au maximum en JSON.',
    it_IT: 'Al massimo {limit} byte come JSON.',
  },
  channelNotAllowed: {
    de_DE: 'Dieser Aufrufer darf Unterhaltungen nur hier öffnen: {channels}.',
    gsw_CH: 'Dä Uufrüefer dörf Unterhaltige nur da öffne: {channels}.',
    fr_FR: 'Cet appelant ne peut ouvrir des conversations que sur : {channels}.',
    it_IT: 'Questo chiamante può aprire conversazioni solo su: {channels}.',
  },
  modelParametersInvalid: {
    de_DE: 'Die Modellparameter sind ungültig.',
    gsw_CH: 'D Modellparameter sind ungültig.',
    fr_FR: 'Les paramètres du modèle ne sont pas valides.',
    it_IT: 'I parametri del modello non sono validi.',
  },
  chooseEmbeddingModel: {
    de_DE: 'Wählen Sie eines Ihrer installierten Embedding-Modelle.',
    gsw_CH: 'Wähled Sie eis vo Ihrne installierte Embedding-Modell.',
    fr_FR: 'Choisissez l’un de vos modèles d’embedding installés.',
    it_IT: 'Scegli uno dei tuoi modelli di embedding installati.',
  },
  datastoreNameExists: {
    de_DE: 'Diese App hat bereits einen Datenspeicher mit diesem Namen.',
    gsw_CH: 'Die App het scho en Datespeicher mit dem Name.',
    fr_FR: 'Cette app a déjà un magasin de données portant ce nom.',
    it_IT: 'Questa app ha già un archivio dati con questo nome.',
  },
  functionKeyExists: {
    de_DE: 'Dieser Funktionsschlüssel existiert bereits.',
    gsw_CH: 'Dä Funktionsschlüssel gits scho.',
    fr_FR: 'Cette clé de fonction existe déjà.',
    it_IT: 'Questa chiave di funzione esiste già.',
  },
  unknownApp: {
    de_DE: 'Unbekannte App',
    gsw_CH: 'Unbekannti App',
    fr_FR: 'App inconnue',
    it_IT: 'App sconosciuta',
  },
  // Datastore imports
  fileNotJson: {
    de_DE: 'Die Datei ist kein gültiges JSON: {reason}',
    gsw_CH: 'D Datei isch kei gültigs JSON: {reason}',
    fr_FR: 'Le fichier n’est pas un JSON valide : {reason}',
    it_IT: 'Il file non è un JSON valido: {reason}',
  },
  qaNotArray: {
    de_DE: 'Ein QA-Import ist ein JSON-Array aus {"Q": …, "A": …}-Objekten.',
    gsw_CH: 'En QA-Import isch es JSON-Array us {"Q": …, "A": …}-Objekt.',
    fr_FR: 'Un import QA est un tableau JSON d’objets {"Q": …, "A": …}.',
    it_IT: 'Un’importazione QA è un array JSON di oggetti {"Q": …, "A": …}.',
  },
  qaItemShape: {
    de_DE: 'Eintrag {item}: erwartet wird ein Objekt mit den Textfeldern „Q“ und „A“.',
    gsw_CH: 'Iitrag {item}: erwartet wird es Objekt mit de Textfälder «Q» und «A».',
    fr_FR: 'Élément {item} : un objet avec les champs texte « Q » et « A » est attendu.',
    it_IT: 'Elemento {item}: è atteso un oggetto con i campi di testo «Q» e «A».',
  },
  csvRow: {
    de_DE: 'Zeile {row}: {reason}',
    gsw_CH: 'Ziile {row}: {reason}',
    fr_FR: 'Ligne {row} : {reason}',
    it_IT: 'Riga {row}: {reason}',
  },
  itemTooLarge: {
    de_DE: 'Eintrag {item} hat {bytes} Bytes; ein Dokument darf höchstens {max} Bytes haben.',
    gsw_CH: 'Iitrag {item} het {bytes} Bytes; es Dokumänt darf höchstens {max} Bytes ha.',
    fr_FR: 'L’élément {item} fait {bytes} octets ; un document peut en avoir {max} au plus.',
    it_IT: 'L’elemento {item} è di {bytes} byte; un documento può averne al massimo {max}.',
  },
  documentTooLarge: {
    de_DE: 'Das Dokument hat {bytes} Bytes; ein Dokument darf höchstens {max} Bytes haben.',
    gsw_CH: 'S Dokumänt het {bytes} Bytes; es Dokumänt darf höchstens {max} Bytes ha.',
    fr_FR: 'Le document fait {bytes} octets ; un document peut en avoir {max} au plus.',
    it_IT: 'Il documento è di {bytes} byte; un documento può averne al massimo {max}.',
  },
  qaItemEmpty: {
    de_DE: 'Eintrag {item}: „Q“ und „A“ dürfen nicht leer sein.',
    gsw_CH: 'Iitrag {item}: «Q» und «A» dörfed nöd läär sii.',
    fr_FR: 'Élément {item} : « Q » et « A » ne doivent pas être vides.',
    it_IT: 'Elemento {item}: «Q» e «A» non devono essere vuoti.',
  },
  jsonItemShape: {
    de_DE: 'Eintrag {item}: erwartet wird ein JSON-Objekt.',
    gsw_CH: 'Iitrag {item}: erwartet wird es JSON-Objekt.',
    fr_FR: 'Élément {item} : un objet JSON est attendu.',
    it_IT: 'Elemento {item}: è atteso un oggetto JSON.',
  },
  csvNoRows: {
    de_DE: 'Die CSV-Datei hat eine Kopfzeile, aber keine Datenzeilen.',
    gsw_CH: 'D CSV-Datei het e Chopfzile, aber kei Datezile.',
    fr_FR: 'Le fichier CSV a une ligne d’en-tête mais aucune ligne de données.',
    it_IT: 'Il file CSV ha una riga di intestazione ma nessuna riga di dati.',
  },
  textEmpty: {
    de_DE: 'Der Text ist leer.',
    gsw_CH: 'De Text isch läär.',
    fr_FR: 'Le texte est vide.',
    it_IT: 'Il testo è vuoto.',
  },
  fileNoText: {
    de_DE: 'Die Datei enthält keinen Text zum Importieren.',
    gsw_CH: 'D Datei het kei Text zum Importiere.',
    fr_FR: 'Le fichier ne contient aucun texte à importer.',
    it_IT: 'Il file non contiene testo da importare.',
  },
  importTooMany: {
    de_DE: 'Ein Import darf höchstens {limit} Dokumente hinzufügen; teilen Sie die Datei auf.',
    gsw_CH: 'En Import dörf höchschtens {limit} Dokumänt dezuefüege; teiled Sie d Datei uf.',
    fr_FR: 'Un import peut ajouter au plus {limit} documents ; divisez le fichier.',
    it_IT: 'Un’importazione può aggiungere al massimo {limit} documenti; dividi il file.',
  },
  notUtf8: {
    de_DE: 'Die Datei ist kein UTF-8-Text; speichern Sie sie als UTF-8 und importieren Sie sie erneut.',
    gsw_CH: 'D Datei isch kei UTF-8-Text; speichered Sie si als UTF-8 und importiered Sie si nomal.',
    fr_FR: 'Le fichier n’est pas du texte UTF-8 ; enregistrez-le en UTF-8 et importez-le à nouveau.',
    it_IT: 'Il file non è testo UTF-8; salvalo come UTF-8 e importalo di nuovo.',
  },
  pdfUnreadable: {
    de_DE: 'Die Datei ist kein lesbares PDF: {reason}',
    gsw_CH: 'D Datei isch kei läsbars PDF: {reason}',
    fr_FR: 'Le fichier n’est pas un PDF lisible : {reason}',
    it_IT: 'Il file non è un PDF leggibile: {reason}',
  },
  docxUnreadable: {
    de_DE: 'Die Datei ist kein lesbares Word-Dokument (.docx): {reason}',
    gsw_CH: 'D Datei isch kei läsbars Word-Dokumänt (.docx): {reason}',
    fr_FR: 'Le fichier n’est pas un document Word lisible (.docx) : {reason}',
    it_IT: 'Il file non è un documento Word leggibile (.docx): {reason}',
  },
} as const satisfies Record<MessageCode, Translations>;

/** Every text in every locale: the English templates with their translations. */
export const MESSAGES: Record<MessageCode, Entry> = /* @__PURE__ */ catalogue();

function catalogue(): Record<MessageCode, Entry> {
  const codes = Object.keys(ALL_ENGLISH) as MessageCode[];
  return Object.fromEntries(
    codes.map((code) => [code, { ...TRANSLATIONS[code], en_US: ALL_ENGLISH[code] }]),
  ) as Record<MessageCode, Entry>;
}

function presentParam(name: string, value: string, locale: Locale): string {
  if (name === 'date') return formatDay(value, locale);
  // A reason or a provider may itself be a catalogue text (a provider's failure inside "The model could not
  // answer: …", "the server at …"); one the catalogue does not know (the provider's or Stripe's own message,
  // "OpenAI") stays as it was said.
  if (name === 'reason' || name === 'provider') return localize(value, locale);
  if ((name === 'count' || name === 'limit') && /^\d+$/.test(value)) {
    return new Intl.NumberFormat(bcp47(locale)).format(Number(value));
  }
  return value;
}

/** The template of `code` in `locale`, following the fallback chain. */
function template(code: MessageCode, locale: Locale): string {
  const entry: Entry = MESSAGES[code];
  for (const l of [locale, ...LOCALE_FALLBACKS[locale]]) {
    const text = entry[l as keyof Entry];
    if (text) return text;
  }
  return entry.en_US;
}

/**
 * The text of `code`: in `locale` with its dates and numbers the locale's way; without one, the
 * canonical English with parameters as given (ISO days), which `localize` reads back.
 */
export function message(code: MessageCode, params: MessageParams = {}, locale?: Locale): string {
  if (!locale) return fillTemplate(ALL_ENGLISH[code], params);
  return template(code, locale).replace(PARAM, (whole, name: string) =>
    name in params ? presentParam(name, String(params[name]), locale) : whole,
  );
}

let matchers: { code: MessageCode; pattern: RegExp; names: string[] }[] | undefined;

/** One anchored pattern per English template, its parameters as capture groups. */
function englishMatchers() {
  matchers ??= (Object.keys(MESSAGES) as MessageCode[]).map((code) => {
    const names: string[] = [];
    const parts = MESSAGES[code].en_US.split(PARAM);
    const source = parts
      .map((part, i) => {
        if (i % 2 === 0) return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
        names.push(part);
        return '(.+?)';
      })
      .join('');
    return { code, pattern: new RegExp(`^${source}$`, 's'), names };
  });
  return matchers;
}

/**
 * An English catalogue text in `locale`; a text the catalogue does not know is returned as it is.
 * Used on error answers (message and field errors) and by the console on the schemas' field messages.
 */
export function localize(text: string, locale: Locale): string {
  for (const { code, pattern, names } of englishMatchers()) {
    const found = pattern.exec(text);
    if (!found) continue;
    const params = Object.fromEntries(names.map((name, i) => [name, found[i + 1] ?? '']));
    return message(code, params, locale);
  }
  return text;
}
