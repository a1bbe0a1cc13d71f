import { addFeatureMessages } from '../../i18n/feature';
import { type Messages, mapMessages } from '../../i18n/types';

/** Texts of the API reference page (/docs/api). */
const en_US = {
  title: 'API reference',
  subtitle: 'Every call of this console’s API, generated from the server (OpenAPI {{version}})',
  search: 'Filter by path or summary',
  loadFailed: 'The API description could not be loaded.',
  retry: 'Try again',
  empty: 'No operation matches the filter.',
  signed: 'signed',
  public: 'public',
  parameters: 'Parameters',
  requestBody: 'Request body',
  responses: 'Responses',
  required: 'required',
  download: 'Download openapi.json',
};
export type ApiReferenceMessages = Messages<typeof en_US>;

const de_DE: ApiReferenceMessages = {
  title: 'API-Referenz',
  subtitle: 'Alle Aufrufe der API dieser Konsole, vom Server erzeugt (OpenAPI {{version}})',
  search: 'Nach Pfad oder Beschreibung filtern',
  loadFailed: 'Die API-Beschreibung konnte nicht geladen werden.',
  retry: 'Erneut versuchen',
  empty: 'Kein Aufruf passt zum Filter.',
  signed: 'signiert',
  public: 'öffentlich',
  parameters: 'Parameter',
  requestBody: 'Anfrage',
  responses: 'Antworten',
  required: 'Pflicht',
  download: 'openapi.json herunterladen',
};

const gsw_CH: ApiReferenceMessages = {
  ...mapMessages(de_DE, (s) => s.replaceAll('ß', 'ss')),
  search: 'Nach Pfad oder Beschriibig filtere',
  retry: 'Nomal probiere',
};

const fr_FR: ApiReferenceMessages = {
  title: 'Référence de l’API',
  subtitle: 'Tous les appels de l’API de cette console, générés par le serveur (OpenAPI {{version}})',
  search: 'Filtrer par chemin ou résumé',
  loadFailed: 'Impossible de charger la description de l’API.',
  retry: 'Réessayer',
  empty: 'Aucun appel ne correspond au filtre.',
  signed: 'signé',
  public: 'public',
  parameters: 'Paramètres',
  requestBody: 'Corps de la requête',
  responses: 'Réponses',
  required: 'obligatoire',
  download: 'Télécharger openapi.json',
};

const it_IT: ApiReferenceMessages = {
  title: 'Riferimento API',
  subtitle: 'Tutte le chiamate dell’API di questa console, generate dal server (OpenAPI {{version}})',
  search: 'Filtra per percorso o descrizione',
  loadFailed: 'Impossibile caricare la descrizione dell’API.',
  retry: 'Riprova',
  empty: 'Nessuna chiamata corrisponde al filtro.',
  signed: 'firmata',
  public: 'pubblica',
  parameters: 'Parametri',
  requestBody: 'Corpo della richiesta',
  responses: 'Risposte',
  required: 'obbligatorio',
  download: 'Scarica openapi.json',
};

addFeatureMessages('apiReference', {
  en_US,
  de_DE,
  de_CH: mapMessages(de_DE, (s) => s.replaceAll('ß', 'ss')),
  gsw_CH,
  fr_FR,
  it_IT,
});
