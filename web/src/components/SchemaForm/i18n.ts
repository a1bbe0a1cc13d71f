import { addFeatureMessages } from '../../i18n/feature';

/** Texts of the shared schema-driven form (docs/reference/rules.md). */
addFeatureMessages('schemaForm', {
  en_US: {
    selectPlaceholder: 'Please select...',
    loadFailed: 'The form could not be loaded.',
    reload: 'Reload the page',
  },
  de_DE: {
    selectPlaceholder: 'Bitte auswählen...',
    loadFailed: 'Das Formular konnte nicht geladen werden.',
    reload: 'Seite neu laden',
  },
  de_CH: {
    selectPlaceholder: 'Bitte auswählen...',
    loadFailed: 'Das Formular konnte nicht geladen werden.',
    reload: 'Seite neu laden',
  },
  gsw_CH: {
    selectPlaceholder: 'Bitte uswähle...',
    loadFailed: 'S Formular hät nöd chöne glade wärde.',
    reload: 'Siite neu lade',
  },
  fr_FR: {
    selectPlaceholder: 'Veuillez sélectionner...',
    loadFailed: 'Impossible de charger le formulaire.',
    reload: 'Recharger la page',
  },
  it_IT: {
    selectPlaceholder: 'Seleziona...',
    loadFailed: 'Impossibile caricare il modulo.',
    reload: 'Ricarica la pagina',
  },
});
