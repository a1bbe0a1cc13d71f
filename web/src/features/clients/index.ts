import './i18n';

export { AppClientSettings } from './components/ClientDetail';
export { AppClientsSettings } from './components/ClientsList';
export type { ClientsMessages } from './i18n';
