/**
 * The English templates of texts only the server writes (docs/adr/0030-server-texts-in-the-request-locale.md):
 * not-found answers, model providers' and Stripe's refusals, rate limits, the relay's `state_err`, imports.
 * Apart from `messages-en.ts` so the console's first screen, which needs only the schemas' texts, does not
 * load them. Texts are recognised in catalogue order: a template that would match a longer text whole comes
 * after it.
 */
export const SERVER_ENGLISH = {
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
  // The request pipeline
  requestNotJson: 'The request body is not valid JSON.',
  requestTooLarge: 'The request body is too large.',
  requestTooLargeAtMost: 'The request body is too large: at most {size} per request.',
  vendorHeaderRequired: 'The X-Vendor header is required.',
  noOutsideCallers: 'This server takes no outside callers.',
  // Replies and model providers (`{reason}` is translated when it is a catalogue text; a provider's own message stays as it said it)
  replyBusy: 'A reply is still being generated in this conversation. Wait for it to finish.',
  replyUnexpected: 'The reply could not be completed because of an unexpected error.',
  replyInterrupted: 'The reply was interrupted (the server stopped).',
  // Said in a Slack thread, in the vendor's language
  slackBusy:
    'I am still answering an earlier message in this thread. Send this one again when that answer is here.',
  slackNoAnswer: 'The app gave no answer to this message.',
  modelCouldNotAnswer: 'The model could not answer: {reason}',
  embeddingCouldNotAnswer: 'The embedding model could not answer: {reason}',
  providerKeyRejected: '{provider} rejected the API key (HTTP {status}): {reason}',
  providerKeyRejectedSilently:
    '{provider} rejected the API key (HTTP {status}). The provider answered HTTP {status} without an error message.',
  providerRateLimited: '{provider} is rate-limiting requests: {reason}',
  providerRateLimitedSilently:
    '{provider} is rate-limiting requests. The provider answered HTTP {status} without an error message.',
  providerStoppedAnswer: '{provider} stopped the answer: {reason}',
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
  csvRow: 'Row {row}: {reason}',
  itemTooLarge: 'Item {item} is {bytes} bytes; a document may have at most {max} bytes.',
  documentTooLarge: 'The document is {bytes} bytes; a document may have at most {max} bytes.',
  textEmpty: 'The text is empty.',
  fileNoText: 'The file has no text to import.',
  importTooMany: 'An import may add at most {limit} documents; split the file.',
  notUtf8: 'The file is not UTF-8 text; save it as UTF-8 and import it again.',
  pdfUnreadable: 'The file is not a readable PDF: {reason}',
  docxUnreadable: 'The file is not a readable Word document (.docx): {reason}',
} as const;
