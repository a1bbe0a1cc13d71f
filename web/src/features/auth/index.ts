export { LinkPage } from './components/LinkPage';
export { LoginForm } from './components/LoginForm';
