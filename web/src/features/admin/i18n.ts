import { addFeatureMessages } from '../../i18n/feature';
import { type Messages, mapMessages } from '../../i18n/types';

/** Texts of the admin's vendor pages. */
const en_US = {
  create: 'Create vendor',
  search: 'Search vendors',
  loading: 'Loading vendors...',
  empty: 'No vendors match.',
  loadFailed: 'The vendors could not be loaded.',
  columns: {
    name: 'Name',
    key: 'Key',
    currency: 'Currency',
    members: 'Users',
    apps: 'Apps',
    status: 'Status',
    created: 'Created',
  },
  active: 'Active',
  inactive: 'Inactive',
  form: {
    title: 'Create a vendor',
    key: 'Key',
    keyHint: 'Lower-case letters, digits, - and _ (used in URLs and the X-Vendor header)',
    name: 'Name',
    currency: 'Currency',
    ownerEmail: 'Owner’s email',
    ownerHint: 'The owner is invited to set a password.',
    submit: 'Create',
    created: 'The vendor has been created and its owner invited.',
    active: 'Active (its users may select it)',
    save: 'Save',
    saved: 'Data has been succesfully saved.',
    saveFailed: 'Saving failed.',
  },
  tabs: { tabs: 'Vendor sections', details: 'Details', subscriptions: 'Subscriptions' },
  page: {
    notFoundTitle: 'Vendor not found',
    loadFailedTitle: 'The vendor could not be loaded',
    notFoundMessage: 'This vendor does not exist.',
    backToList: 'Back to the vendors',
  },
  subscriptionsEmpty:
    'No subscriptions. Billing is not built yet: every vendor is on the free, unlimited plan.',
};
export type AdminMessages = Messages<typeof en_US>;

const de_DE: AdminMessages = {
  create: 'Anbieter erstellen',
  search: 'Anbieter suchen',
  loading: 'Anbieter werden geladen...',
  empty: 'Keine passenden Anbieter.',
  loadFailed: 'Die Anbieter konnten nicht geladen werden.',
  columns: {
    name: 'Name',
    key: 'Schlüssel',
    currency: 'Währung',
    members: 'Benutzer',
    apps: 'Apps',
    status: 'Status',
    created: 'Erstellt',
  },
  active: 'Aktiv',
  inactive: 'Inaktiv',
  form: {
    title: 'Anbieter erstellen',
    key: 'Schlüssel',
    keyHint: 'Kleinbuchstaben, Ziffern, - und _ (in URLs und im X-Vendor-Header)',
    name: 'Name',
    currency: 'Währung',
    ownerEmail: 'E-Mail des Inhabers',
    ownerHint: 'Der Inhaber wird eingeladen, ein Passwort zu wählen.',
    submit: 'Erstellen',
    created: 'Der Anbieter wurde erstellt und sein Inhaber eingeladen.',
    active: 'Aktiv (seine Benutzer können ihn wählen)',
    save: 'Speichern',
    saved: 'Die Daten wurden erfolgreich gespeichert.',
    saveFailed: 'Speichern fehlgeschlagen.',
  },
  tabs: { tabs: 'Bereiche des Anbieters', details: 'Details', subscriptions: 'Abonnements' },
  page: {
    notFoundTitle: 'Anbieter nicht gefunden',
    loadFailedTitle: 'Der Anbieter konnte nicht geladen werden',
    notFoundMessage: 'Diesen Anbieter gibt es nicht.',
    backToList: 'Zurück zu den Anbietern',
  },
  subscriptionsEmpty:
    'Keine Abonnements. Die Abrechnung ist noch nicht gebaut: alle Anbieter sind im kostenlosen, unbegrenzten Plan.',
};

const fr_FR: AdminMessages = {
  create: 'Créer un fournisseur',
  search: 'Rechercher des fournisseurs',
  loading: 'Chargement des fournisseurs...',
  empty: 'Aucun fournisseur ne correspond.',
  loadFailed: 'Impossible de charger les fournisseurs.',
  columns: {
    name: 'Nom',
    key: 'Clé',
    currency: 'Devise',
    members: 'Utilisateurs',
    apps: 'Apps',
    status: 'Statut',
    created: 'Créé',
  },
  active: 'Actif',
  inactive: 'Inactif',
  form: {
    title: 'Créer un fournisseur',
    key: 'Clé',
    keyHint: 'Minuscules, chiffres, - et _ (dans les URL et l’en-tête X-Vendor)',
    name: 'Nom',
    currency: 'Devise',
    ownerEmail: 'E-mail du propriétaire',
    ownerHint: 'Le propriétaire est invité à choisir un mot de passe.',
    submit: 'Créer',
    created: 'Le fournisseur a été créé et son propriétaire invité.',
    active: 'Actif (ses utilisateurs peuvent le choisir)',
    save: 'Enregistrer',
    saved: 'Les données ont été enregistrées avec succès.',
    saveFailed: 'L’enregistrement a échoué.',
  },
  tabs: { tabs: 'Sections du fournisseur', details: 'Détails', subscriptions: 'Abonnements' },
  page: {
    notFoundTitle: 'Fournisseur introuvable',
    loadFailedTitle: 'Impossible de charger le fournisseur',
    notFoundMessage: 'Ce fournisseur n’existe pas.',
    backToList: 'Retour aux fournisseurs',
  },
  subscriptionsEmpty:
    'Aucun abonnement. La facturation n’est pas encore construite : tous les fournisseurs ont le plan gratuit et illimité.',
};

const it_IT: AdminMessages = {
  create: 'Crea fornitore',
  search: 'Cerca fornitori',
  loading: 'Caricamento fornitori...',
  empty: 'Nessun fornitore corrisponde.',
  loadFailed: 'Impossibile caricare i fornitori.',
  columns: {
    name: 'Nome',
    key: 'Chiave',
    currency: 'Valuta',
    members: 'Utenti',
    apps: 'App',
    status: 'Stato',
    created: 'Creato',
  },
  active: 'Attivo',
  inactive: 'Inattivo',
  form: {
    title: 'Crea un fornitore',
    key: 'Chiave',
    keyHint: 'Minuscole, cifre, - e _ (negli URL e nell’intestazione X-Vendor)',
    name: 'Nome',
    currency: 'Valuta',
    ownerEmail: 'Email del proprietario',
    ownerHint: 'Il proprietario viene invitato a scegliere una password.',
    submit: 'Crea',
    created: 'Il fornitore è stato creato e il proprietario invitato.',
    active: 'Attivo (i suoi utenti possono sceglierlo)',
    save: 'Salva',
    saved: 'I dati sono stati salvati correttamente.',
    saveFailed: 'Salvataggio non riuscito.',
  },
  tabs: { tabs: 'Sezioni del fornitore', details: 'Dettagli', subscriptions: 'Abbonamenti' },
  page: {
    notFoundTitle: 'Fornitore non trovato',
    loadFailedTitle: 'Impossibile caricare il fornitore',
    notFoundMessage: 'Questo fornitore non esiste.',
    backToList: 'Torna ai fornitori',
  },
  subscriptionsEmpty:
    'Nessun abbonamento. La fatturazione non è ancora costruita: ogni fornitore ha il piano gratuito e illimitato.',
};

const de_CH = mapMessages(de_DE, (s) => s.replaceAll('ß', 'ss'));
addFeatureMessages('admin', { en_US, de_DE, de_CH, gsw_CH: de_CH, fr_FR, it_IT });
