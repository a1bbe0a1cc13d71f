import './i18n';

export { ModelDetail, type ModelSection } from './components/ModelDetail';
export { ModelsList } from './components/ModelsList';
export type { ModelsMessages } from './i18n';
