import './i18n';

export { AppDetailsForm } from './components/AppDetailsForm';
export { AppPage } from './components/AppPage';
export { AppParametersForm } from './components/AppParametersForm';
export { AppSettingsLayout, type AppSettingsSection } from './components/AppSettingsLayout';
export { AppsListPage } from './components/AppsListPage';
export type { AppsMessages } from './i18n';
