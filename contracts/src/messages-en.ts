/**
 * The English templates of the server's texts (docs/adr/0030-server-texts-in-the-request-locale.md): each
 * text's stable code and its wire form without a locale; `{name}` marks a parameter. They live apart from the
 * other locales (`messages.ts`) so that what needs only the English — schemas' messages, error constants, the
 * console's first screen — does not load every locale.
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
  // Requests in general
  requestInvalid: 'The request is invalid.',
  tooManyRequests: 'Too many requests. Please try again later.',
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
  // Not found: one text per kind of thing, so each reads right in every language
  appNotFound: 'App not found',
  clientNotFound: 'Client not found',
  conversationNotFound: 'Conversation not found',
  datastoreNotFound: 'Datastore not found',
  documentNotFound: 'Document not found',
  embedNotFound: 'Embed not found',
  functionNotFound: 'Function not found',
  iconNotFound: 'Icon not found',
  invitationNotFound: 'Invitation not found',
  modelNotFound: 'Model not found',
  planNotFound: 'Plan not found',
  routeNotFound: 'Route not found',
  runNotFound: 'Run not found',
  slackIntegrationNotFound: 'Slack integration not found',
  subscriptionNotFound: 'Subscription not found',
  userNotFound: 'User not found',
  vendorNotFound: 'Vendor not found',
  resourceNotFound: 'Resource not found',
  routeUnknown: 'Route {route} not found',
  // Replies and model providers (`{reason}` is translated when it is a catalogue text; a provider's own message stays as it said it)
  replyBusy: 'A reply is still being generated in this conversation. Wait for it to finish.',
  replyUnexpected: 'The reply could not be completed because of an unexpected error.',
  replyInterrupted: 'The reply was interrupted (the server stopped).',
  modelCouldNotAnswer: 'The model could not answer: {reason}',
  embeddingCouldNotAnswer: 'The embedding model could not answer: {reason}',
  providerKeyRejected: '{provider} rejected the API key (HTTP {status}): {reason}',
  providerKeyRejectedSilently:
    '{provider} rejected the API key (HTTP {status}). The provider answered HTTP {status} without an error message.',
  providerRateLimited: '{provider} is rate-limiting requests: {reason}',
  providerRateLimitedSilently:
    '{provider} is rate-limiting requests. The provider answered HTTP {status} without an error message.',
  providerUnavailable: '{provider} is unavailable (HTTP {status}): {reason}',
  providerUnavailableSilently:
    '{provider} is unavailable (HTTP {status}). The provider answered HTTP {status} without an error message.',
  providerRefused: '{provider} refused the request (HTTP {status}): {reason}',
  providerRefusedSilently:
    '{provider} refused the request (HTTP {status}). The provider answered HTTP {status} without an error message.',
  providerUnreachableCode: 'Could not reach {provider} ({code}).',
  providerUnreachable: 'Could not reach {provider}.',
  providerUnreadable: '{provider} sent a response that could not be read.',
  providerTimeout: '{provider} did not answer within {seconds} s.',
  providerStreamFailed: '{provider} ended the stream with an error.',
  providerStreamUnfinished: '{provider} ended the stream without finishing.',
  providerDimensions:
    '{provider} returned vectors of {found} dimensions; the model is configured for {expected}.',
  modelGone: 'The model "{model}" is no longer in the catalogue.',
  modelKeyUnreadable: 'The stored API key of "{model}" cannot be decrypted; install the model again.',
  outboundRefused:
    '{destination} is on a private or local network; the operator can allow it with OUTBOUND_ALLOW.',
  // After the texts it appears in: texts are recognised in this order, and it would match them whole.
  providerServerAt: 'the server at {url}',
  // Stripe (its own message stays as it said it)
  stripeRefused: 'Stripe refused the request: {reason}',
  stripeNoCheckoutUrl: 'Stripe answered a checkout session without a URL.',
  // Rate limits
  embedOpeningsLimited:
    'Too many conversations opened here: at most {limit} per hour. Try again in {count} s.',
  clientRateLimited: 'This API client may make {limit} requests per {seconds} s. Try again in {count} s.',
  // The relay (`state_err`)
  relayUnknownConversation: 'Unknown conversation',
  relayJoinFirst: 'Join a conversation first.',
  relayWhoUnchecked: 'The relay could not check who you are.',
  relayFailed: 'The relay could not handle this request.',
  stateChangesLimited: 'Too many state changes: at most {limit} per minute. Try again in {count} s.',
  stateNotObject: 'The state must be a JSON object.',
  stateNotJson: 'The state must contain JSON values only.',
  stateTooLarge: 'The state must not exceed {size}.',
  patchesNotArray: 'Patches must be an array of JSON Patch (RFC 6902) operations.',
  patchInvalid: 'Invalid patch: {reason}',
  // Conversations, models, datastores, functions
  parametersTooLarge: 'At most {limit} bytes as JSON.',
  channelNotAllowed: 'This caller may only open conversations on: {channels}.',
  modelParametersInvalid: 'The model parameters are invalid.',
  chooseEmbeddingModel: 'Choose one of your installed embedding models.',
  datastoreNameExists: 'This app already has a datastore with this name.',
  functionKeyExists: 'Function key already exists.',
  unknownApp: 'Unknown app',
  // Datastore imports
  fileNotJson: 'The file is not valid JSON: {reason}',
  qaNotArray: 'A QA import is a JSON array of {"Q": …, "A": …} objects.',
  qaItemShape: 'Item {item}: expected an object with the text fields "Q" and "A".',
  qaItemEmpty: 'Item {item}: "Q" and "A" must not be empty.',
  jsonItemShape: 'Item {item}: expected a JSON object.',
  csvNoRows: 'The CSV file has a header row but no data rows.',
  textEmpty: 'The text is empty.',
  fileNoText: 'The file has no text to import.',
  importTooMany: 'An import may add at most {limit} documents; split the file.',
  notUtf8: 'The file is not UTF-8 text; save it as UTF-8 and import it again.',
  pdfUnreadable: 'The file is not a readable PDF: {reason}',
  docxUnreadable: 'The file is not a readable Word document (.docx): {reason}',
} as const;

export type MessageCode = keyof typeof ENGLISH;
export type MessageParams = Record<string, string | number>;

/** A `{name}` parameter in a template. */
export const PARAM = /\{(\w+)\}/g;

/** The English text of `code` with its parameters as given (ISO days): the wire text without a locale. */
export function english(code: MessageCode, params: MessageParams = {}): string {
  return ENGLISH[code].replace(PARAM, (whole, name: string) =>
    name in params ? String(params[name]) : whole,
  );
}
