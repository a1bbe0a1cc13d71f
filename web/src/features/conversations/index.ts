export type { ConversationsViewProps } from './components/ConversationsView';
export { ConversationsView } from './components/ConversationsView';
