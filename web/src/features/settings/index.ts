export { SlackSettingsPage, SmtpSettingsPage } from './components/IntegrationsPages';
export { MemberPage } from './components/MemberPage';
export { MembersPage } from './components/MembersPage';
export { SettingsLayout } from './components/SettingsLayout';
export { VendorSettingsPage } from './components/VendorSettingsPage';
export type { SettingsMessages } from './i18n';
