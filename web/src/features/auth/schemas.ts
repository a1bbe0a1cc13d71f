// The sign-in page's schemas, loaded on its first submit so zod is not downloaded with the first screen
// (docs/adr/0017-first-screen-budget.md).
export { passwordForgotBody, signinBody } from '@llmor/contracts';
