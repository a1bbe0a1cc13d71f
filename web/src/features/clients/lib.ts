export interface CurlExamples {
  /** Opens a conversation with the app (the example the client page shows, docs/reference/console.md). */
  openConversation: string;
  /** Opens one and sends it a message: two lines, the conversation token carried in a shell variable. */
  sendMessage: string;
  /** The OpenAI-compatible endpoint with the same token. */
  openai: string;
}

/**
 * Commands that work when pasted into a POSIX shell: every value is single-quoted JSON or a header whose
 * characters (base64url token, vendor key) need no escaping. The conversation token is cut out of the
 * one-line JSON answer with sed (a `"token":"` inside a message would be escaped, so only the
 * conversation's own matches).
 */
export function curlExamples(opts: {
  origin: string;
  token: string;
  vendorKey: string;
  appId: number;
}): CurlExamples {
  const headers = `-H 'X-VendorToken: ${opts.token}' -H 'X-Vendor: ${opts.vendorKey}' -H 'content-type: application/json'`;
  const open = `curl -X POST ${opts.origin}/v1/conversations ${headers} -d '{"vendor_app_id":${opts.appId},"vendor_channel":"api"}'`;
  return {
    openConversation: open,
    sendMessage: [
      `CONVERSATION=$(curl -s -X POST ${opts.origin}/v1/conversations ${headers} -d '{"vendor_app_id":${opts.appId},"vendor_channel":"api"}' | sed -E 's/.*"token":"([^"]+)".*/\\1/')`,
      `curl -X POST ${opts.origin}/v1/conversations/$CONVERSATION ${headers} -d '{"content":"Hello!"}'`,
    ].join('\n'),
    openai: `curl ${opts.origin}/v1/openai/chat/completions -H 'Authorization: Bearer ${opts.token}' -H 'content-type: application/json' -d '{"model":"app","messages":[{"role":"user","content":"Hello!"}]}'`,
  };
}

/** Where an OpenAI SDK points its base URL. */
export const openAiBaseUrl = (origin: string) => `${origin}/v1/openai`;
