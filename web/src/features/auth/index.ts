export { createSession, SessionCreationError } from './api/createSession';
export { sessionUserQueryOptions } from './api/getSessionUser';
export { signout } from './api/signout';
export { LinkPage } from './components/LinkPage';
export { LoginForm } from './components/LoginForm';
export { UserMenu } from './components/UserMenu';
