import { describe, expect, it } from 'vitest';
import { relayOrigin, socketStatus } from '../hooks/useRelaySocket';
import { isNewlineKey, isSendKey } from './keys';

const press = (
  mods: Partial<{ shiftKey: boolean; altKey: boolean; ctrlKey: boolean; metaKey: boolean }> = {},
) => ({
  key: 'Enter',
  shiftKey: false,
  altKey: false,
  ctrlKey: false,
  metaKey: false,
  ...mods,
});

describe('composer keys', () => {
  it('sends on Enter alone; Shift, Alt or Ctrl with Enter make a newline', () => {
    expect(isSendKey(press())).toBe(true);
    expect(isNewlineKey(press())).toBe(false);
    for (const mod of ['shiftKey', 'altKey', 'ctrlKey'] as const) {
      expect(isSendKey(press({ [mod]: true })), mod).toBe(false);
      expect(isNewlineKey(press({ [mod]: true })), mod).toBe(true);
    }
    expect(isSendKey({ ...press(), key: 'a' })).toBe(false);
  });
});

describe('socket status', () => {
  it('is none without a conversation, else follows the socket and the joined conversation', () => {
    expect(socketStatus(null, 'connected', 'abc')).toBe('none');
    expect(socketStatus('abc', 'connected', 'abc')).toBe('connected');
    expect(socketStatus('abc', 'connected', 'other')).toBe('other');
    expect(socketStatus('abc', 'connected', null)).toBe('other');
    expect(socketStatus('abc', 'disconnected', null)).toBe('disconnected');
    expect(socketStatus('abc', 'connecting', null)).toBe('connecting');
  });

  it('connects to the relay_url origin, or to this page for a relay on the same host', () => {
    const page = { host: 'console.example', origin: 'https://console.example' };
    expect(relayOrigin('http://console.example/stream', page)).toBe('https://console.example');
    expect(relayOrigin('https://relay.example/stream', page)).toBe('https://relay.example');
    expect(relayOrigin(null, page)).toBe('https://console.example');
  });
});
