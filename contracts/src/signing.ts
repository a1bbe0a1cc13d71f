/**
 * Request signing (docs/reference/api.md "Sessions and request signing"), shared by the web client, the
 * server and the tests. The HMAC itself is supplied by the caller (WebCrypto in the browser,
 * node:crypto on the server) so this module stays dependency-free.
 */

/** The exact message that is signed: METHOD \n PATH_WITH_QUERY \n timestamp. */
export function signingMessage(method: string, pathWithQuery: string, timestamp: number): string {
  return `${method.toUpperCase()}\n${pathWithQuery}\n${timestamp}`;
}

/** base64(utf8(JSON {token, timestamp, signature})) — the X-AccessToken header value. */
export function encodeAccessToken(token: string, timestamp: number, signature: string): string {
  const json = JSON.stringify({ token, timestamp, signature });
  const bytes = new TextEncoder().encode(json);
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary);
}
