import './i18n';

export { AppUsageSettings } from './components/AppUsageSettings';
export { UsageBlocks } from './components/UsageBlocks';
export type { UsageMessages } from './i18n';
