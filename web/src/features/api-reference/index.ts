export { ApiReference } from './components/ApiReference';
export type { ApiReferenceMessages } from './i18n';
