import { encodeAccessToken, signingMessage } from '@llmor/contracts';

/** Lowercase hex HMAC-SHA256 of `message` keyed by `secret` (both UTF-8), via WebCrypto. */
export async function hmacSha256Hex(secret: string, message: string): Promise<string> {
  const enc = new TextEncoder();
  const key = await crypto.subtle.importKey(
    'raw',
    enc.encode(secret),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign'],
  );
  const sig = new Uint8Array(await crypto.subtle.sign('HMAC', key, enc.encode(message)));
  let hex = '';
  for (const b of sig) hex += b.toString(16).padStart(2, '0');
  return hex;
}

/** The X-AccessToken header value for one request (docs/reference/api.md "Sessions and request signing"). */
export async function accessTokenHeader(
  session: { token: string; secret: string },
  method: string,
  pathWithQuery: string,
  nowMs: number = Date.now(),
): Promise<string> {
  const timestamp = Math.floor(nowMs / 1000);
  const signature = await hmacSha256Hex(session.secret, signingMessage(method, pathWithQuery, timestamp));
  return encodeAccessToken(session.token, timestamp, signature);
}
