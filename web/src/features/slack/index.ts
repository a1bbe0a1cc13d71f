import './i18n';

export { AppSlackSettings } from './components/AppSlackSettings';
export type { SlackMessages } from './i18n';
