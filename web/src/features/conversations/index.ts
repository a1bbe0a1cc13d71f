export { ConversationsView } from './components/ConversationsView';
export type { ConversationsMessages } from './i18n';
