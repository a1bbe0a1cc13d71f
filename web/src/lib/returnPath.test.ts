import { describe, expect, it } from 'vitest';
import { loginReturningTo, safeReturnPath } from './returnPath';

describe('safeReturnPath', () => {
  it('keeps a path of this console with its query and hash', () => {
    expect(safeReturnPath('/invitation/abc_DEF-1')).toBe('/invitation/abc_DEF-1');
    expect(safeReturnPath('/apps?tab=2#top')).toBe('/apps?tab=2#top');
  });

  it('refuses other origins and anything that is not a path', () => {
    for (const next of [
      null,
      undefined,
      '',
      'https://evil.test/',
      '//evil.test/x',
      '/\\evil.test',
      '/\t/evil.test',
      'javascript:alert(1)',
      'invitation/abc',
      `/${'a'.repeat(2001)}`,
    ]) {
      expect(safeReturnPath(next)).toBeNull();
    }
  });

  it('round-trips through the sign-in address', () => {
    const login = new URL(loginReturningTo('/invitation/t0k?x=1'), 'http://h');
    expect(login.pathname).toBe('/login');
    expect(safeReturnPath(login.searchParams.get('next'))).toBe('/invitation/t0k?x=1');
  });
});
