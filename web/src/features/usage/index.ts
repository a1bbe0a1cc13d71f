import './i18n';

export { AppUsageSettings } from './components/AppUsageSettings';

export type { UsageMessages } from './i18n';
