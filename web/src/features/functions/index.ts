import './i18n';

export { AppFunctionsSettings } from './components/AppFunctionsSettings';
export { FUNCTION_SECTIONS, FunctionDetail, type FunctionSection } from './components/FunctionDetail';
export { FunctionsList } from './components/FunctionsList';
export { functionRouteId } from './lib';
