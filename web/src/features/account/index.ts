export { usePendingInvitationCount } from './api/getInvitations';
export { AccountPage } from './components/AccountPage';
export type { AccountMessages } from './i18n';
