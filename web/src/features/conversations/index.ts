export type { ConversationsViewProps } from './components/ConversationsView';
export { ConversationsView } from './components/ConversationsView';
export type { ConversationsMessages } from './i18n';
