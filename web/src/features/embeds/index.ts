import './i18n';

export { AppEmbedSettings } from './components/EmbedDetail';
export { AppEmbedsSettings } from './components/EmbedsList';
export type { EmbedsMessages } from './i18n';
