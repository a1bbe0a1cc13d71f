import { describe, expect, it } from 'vitest';
import { textColorOn } from './color';

describe('text colour on the embed colour', () => {
  it('is the one with more contrast', () => {
    expect(textColorOn('#1971c2')).toBe('#ffffff');
    expect(textColorOn('#000000')).toBe('#ffffff');
    expect(textColorOn('#ffd43b')).toBe('#1a1b1e');
    expect(textColorOn('#ffffff')).toBe('#1a1b1e');
  });
});
