import './i18n';

export { AppDatastoresSettings } from './components/AppDatastoresSettings';
export type { DatastoresMessages } from './i18n';
