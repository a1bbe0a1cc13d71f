import './i18n';

export { AppFunctionsSettings } from './components/AppFunctionsSettings';
export { FunctionDetail, type FunctionSection } from './components/FunctionDetail';
export { FunctionsList } from './components/FunctionsList';
export type { FunctionsMessages } from './i18n';
export { functionRouteId } from './lib';
