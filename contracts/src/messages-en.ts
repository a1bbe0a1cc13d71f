/**
 * The English templates of the server's texts (docs/adr/0030-server-texts-in-the-request-locale.md): each
 * text's stable code and its wire form without a locale; `{name}` marks a parameter. They live apart from the
 * other locales (`messages.ts`) so that what needs only the English — schemas' messages, error constants, the
 * console's first screen — does not load every locale; texts only the server writes are in
 * `messages-server-en.ts`, so the console does not load them either.
 */
export const ENGLISH = {
  // Sign-in, links, account
  invalidCredentials: 'Invalid email or password',
  userInactive: 'This user is not active.',
  signinWaitSeconds: 'Too many failed sign-ins. Try again in {count} seconds.',
  signinWaitMinutes: 'Too many failed sign-ins. Try again in {count} minutes.',
  signInRequired: 'Authentication required: please sign in.',
  linkInvalid: 'This link is invalid or has expired.',
  invitationSignIn: 'Sign in as the invited person to accept this invitation.',
  resetRequested: 'If this address belongs to an account, a link to reset the password is on its way.',
  currentPasswordWrong: 'The current password is not right.',
  // Members and vendors
  alreadyMember: 'This person is already a member or invited.',
  alreadyAccepted: 'This person has already accepted the invitation.',
  lastOwner: 'A vendor needs at least one active owner.',
  keyTaken: 'This key is taken.',
  // Mail settings
  smtpNotSet: 'Set the SMTP host and the sender address first.',
  smtpRefused: 'The mail server refused the test mail: {reason}',
  smtpUnreachable: 'No SMTP conversation with {host} was possible.',
  smtpTestSent: 'A test mail was sent to {to}.',
  // Plans and billing
  usedUpRequests:
    "The plan's {count} requests for this period are used up (the period ends {date}). Upgrade the plan to send more.",
  usedUpTokens:
    "The plan's {count} tokens for this period are used up (the period ends {date}). Upgrade the plan to send more.",
  planAllowsOneApp: 'The plan allows 1 app. Upgrade the plan to create more apps.',
  planAllowsApps: 'The plan allows {limit} apps. Upgrade the plan to create more apps.',
  planAllowsOneMember: 'The plan allows 1 member. Upgrade the plan to invite more people.',
  planAllowsMembers: 'The plan allows {limit} members. Upgrade the plan to invite more people.',
  billingNotConfigured: 'Online payment is not set up on this instance: plans are assigned by the operator.',
  stripeUnreachable: 'Could not reach Stripe.',
  subscriptionEnded: 'This subscription has already ended.',
  planNotOnline: 'This plan cannot be bought online; the operator assigns it.',
  // Slack
  slackConfigRequired:
    'Vendor Configuration Required: set up the Slack integration token in the vendor settings (Settings → Integrations → Slack) first.',
  slackExists: 'This app already has a Slack app; update it instead.',
  slackUnreachable: 'Slack could not be reached. Try again later.',
  // Model lists at install (ADR 0039)
  modelListUnsupported: 'This model’s provider does not list its models; type the model name.',
  modelListNeedsBaseUrl: 'Type the server’s base URL (http:// or https://) first.',
  modelListNeedsAzure: 'Type the resource name (or the base URL) and the API key first.',
  modelListNeedsAws: 'Type the AWS region, the access key ID and the secret access key first.',
  modelListUnreachable: 'Could not reach {url}.',
  modelListTimeout: '{url} did not answer within {count} seconds.',
  modelListRefused: '{url} answered HTTP {status}: {reason}',
  modelListRefusedBare: '{url} answered HTTP {status} without an error message.',
  modelListUnreadable: '{url} did not answer a list of models.',
  // Requests in general
  requestInvalid: 'The request is invalid.',
  tooManyRequests: 'Too many requests. Please try again later.',
  databaseUnavailable: 'The database is not available right now. Please try again shortly.',
  serverStopping: 'The server is restarting. Please try again shortly.',
  diskFull: 'The server’s disk is full: nothing was saved. Please try again later.',
  // Mails
  invitationSubject: 'You are invited to {vendor} on llmor',
  invitationText:
    'You have been invited to join {vendor} on llmor.\n\nOpen this link within 7 days to accept:\n{url}\n\nIf you did not expect this invitation, ignore this mail.',
  messageTooLong: 'A message may have at most {limit} characters.',
  // Field messages of the schemas
  required: 'Required',
  atMostCharacters: 'At most {limit} characters',
  validEmail: 'Enter a valid email address',
  currencyCode: 'Use a three-letter ISO currency code, e.g. CHF',
  vendorKeyShape: 'Use 2-50 lower-case letters, digits, - and _',
  countryCode: 'Choose a country',
  chooseRole: 'Choose owner or member',
  unknownLocale: 'Unknown locale',
} as const;

export type MessageParams = Record<string, string | number>;

/** A `{name}` parameter in a template. */
export const PARAM = /\{(\w+)\}/g;

/** `template` with its parameters as given (ISO days): the wire text without a locale. */
export function fillTemplate(template: string, params: MessageParams = {}): string {
  return template.replace(PARAM, (whole, name: string) => (name in params ? String(params[name]) : whole));
}

/** The English text of `code` with its parameters as given (ISO days): the wire text without a locale. */
export const english = (code: keyof typeof ENGLISH, params: MessageParams = {}): string =>
  fillTemplate(ENGLISH[code], params);
