import { describe, expect, it } from 'vitest';
import { deobfuscate, obfuscate } from './obfuscation';
import { decodeSession, encodeSession, isValidSession } from './session';

const KEY = 'Mozilla/5.0 (X11; Linux x86_64) Chrome/120|1920x1080|-60';
const OTHER_KEY = 'Mozilla/5.0 (X11; Linux x86_64) Chrome/120|1280x800|-60';

describe('obfuscation', () => {
  it('round-trips text, including non-ASCII', () => {
    for (const text of ['', 'hello', '{"token":"abc","secret":"def"}', 'Grüezi ß € 😀']) {
      expect(deobfuscate(obfuscate(text, KEY), KEY)).toBe(text);
    }
  });

  it('does not store the plain text', () => {
    const encoded = obfuscate('{"token":"abc","secret":"def"}', KEY);
    expect(encoded).not.toContain('token');
    expect(atob(encoded)).not.toContain('token');
  });

  it('is deterministic per key and differs between keys', () => {
    expect(obfuscate('same text', KEY)).toBe(obfuscate('same text', KEY));
    expect(obfuscate('same text', KEY)).not.toBe(obfuscate('same text', OTHER_KEY));
  });

  it('returns null for input that is not base64', () => {
    expect(deobfuscate('%%% not base64 %%%', KEY)).toBeNull();
  });
});

describe('stored session', () => {
  const session = { token: 'tok_0123456789abcdef', secret: 'sec_fedcba9876543210' };

  it('round-trips with the same key', () => {
    expect(decodeSession(encodeSession(session, KEY), KEY)).toEqual(session);
  });

  it('fails to decode with a different key (another browser, screen or timezone)', () => {
    const raw = encodeSession(session, KEY);
    expect(decodeSession(raw, OTHER_KEY)).toBeNull();
    expect(decodeSession(raw, `${KEY}x`)).toBeNull();
  });

  it('rejects missing, malformed and incomplete values', () => {
    expect(decodeSession(null, KEY)).toBeNull();
    expect(decodeSession('', KEY)).toBeNull();
    expect(decodeSession('garbage', KEY)).toBeNull();
    expect(decodeSession(obfuscate('not json', KEY), KEY)).toBeNull();
    expect(decodeSession(obfuscate('"a string"', KEY), KEY)).toBeNull();
    expect(decodeSession(obfuscate('{"token":"abc"}', KEY), KEY)).toBeNull();
    expect(decodeSession(obfuscate('{"secret":"abc"}', KEY), KEY)).toBeNull();
    expect(decodeSession(obfuscate('{"token":"","secret":"x"}', KEY), KEY)).toBeNull();
  });

  it('accepts only objects with token and secret', () => {
    expect(isValidSession(session)).toBe(true);
    expect(isValidSession({ token: 'a', secret: 1 })).toBe(false);
    expect(isValidSession(null)).toBe(false);
    expect(isValidSession([])).toBe(false);
  });
});
