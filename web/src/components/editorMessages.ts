import { addFeatureMessages } from '../i18n/feature';

/**
 * Texts of the shared editors and pickers (JsonEditor, CodeEditor, EntityPicker), under `editors.*`.
 * Registered when one of them loads.
 */
export type EditorMessages = typeof de_DE;

const de_DE = {
  jsonInvalid: 'Das JSON-Dokument ist ungültig.',
  create: '„{{text}}“ erstellen',
  nothingFound: 'Nichts gefunden',
  clear: 'Auswahl entfernen',
  loading: 'Editor wird geladen…',
};

addFeatureMessages('editors', {
  en_US: {
    jsonInvalid: 'The JSON document is invalid.',
    create: 'create "{{text}}"',
    nothingFound: 'Nothing found',
    clear: 'Clear selection',
    loading: 'Loading editor…',
  },
  de_DE,
  de_CH: { ...de_DE },
  gsw_CH: {
    jsonInvalid: 'Das JSON-Dokumänt isch ungültig.',
    create: '„{{text}}“ erstelle',
    nothingFound: 'Nüt gfunde',
    clear: 'Uswahl entfärne',
    loading: 'Editor wird glade…',
  },
  fr_FR: {
    jsonInvalid: 'Le document JSON n’est pas valide.',
    create: 'créer « {{text}} »',
    nothingFound: 'Aucun résultat',
    clear: 'Effacer la sélection',
    loading: 'Chargement de l’éditeur…',
  },
  it_IT: {
    jsonInvalid: 'Il documento JSON non è valido.',
    create: 'crea "{{text}}"',
    nothingFound: 'Nessun risultato',
    clear: 'Cancella selezione',
    loading: 'Caricamento dell’editor…',
  },
});
