/**
 * Light obfuscation of browser-stored values (docs/reference/rules.md): XOR with a keystream derived from a
 * key string (the browser's user agent, screen size and timezone offset), then base64. This is
 * not encryption; it only makes the stored session unusable when copied to another browser —
 * decoding with a different key yields garbage, which callers treat as "no session".
 */

/** cyrb53-style 32-bit seeds from a string (deterministic, dependency-free). */
function seedsFrom(key: string): [number, number] {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < key.length; i++) {
    const ch = key.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return [h1 >>> 0, h2 >>> 0];
}

/** A keystream of `length` bytes from two mulberry32 generators seeded by the key hash. */
function keystream(key: string, length: number): Uint8Array {
  let [a, b] = seedsFrom(key);
  const out = new Uint8Array(length);
  for (let i = 0; i < length; i++) {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    b = (b + 0x9e3779b9) | 0;
    out[i] = (t ^ (t >>> 14) ^ b ^ (b >>> 8)) & 0xff;
  }
  return out;
}

function toBase64(bytes: Uint8Array): string {
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary);
}

function fromBase64(text: string): Uint8Array {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

export function obfuscate(plain: string, key: string): string {
  const bytes = new TextEncoder().encode(plain);
  const stream = keystream(key, bytes.length);
  for (let i = 0; i < bytes.length; i++) bytes[i] = (bytes[i] ?? 0) ^ (stream[i] ?? 0);
  return toBase64(bytes);
}

/** Returns the plain text, or null when the input is not valid base64 or not valid UTF-8 after XOR. */
export function deobfuscate(encoded: string, key: string): string | null {
  let bytes: Uint8Array;
  try {
    bytes = fromBase64(encoded);
  } catch {
    return null;
  }
  const stream = keystream(key, bytes.length);
  for (let i = 0; i < bytes.length; i++) bytes[i] = (bytes[i] ?? 0) ^ (stream[i] ?? 0);
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
}
