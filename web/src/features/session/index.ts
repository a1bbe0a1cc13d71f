// The session's calls: created on a first visit, the current user, sign-out (app/AppStateProvider).
// Kept apart from `auth` (the sign-in form and the invitation/reset pages) so the app's start does not
// load those.
export { createSession, SessionCreationError } from './api/createSession';
export { sessionUserQueryOptions } from './api/getSessionUser';
export { signout } from './api/signout';
