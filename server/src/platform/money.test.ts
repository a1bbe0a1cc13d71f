import { describe, expect, it } from 'vitest';
import { formatCount, formatMoney } from './money';

describe('money', () => {
  it('formats integer minor units with the currency code, en-US style', () => {
    expect(formatMoney(15, 'CHF')).toBe('CHF 0.15');
    expect(formatMoney(0, 'CHF')).toBe('CHF 0.00');
    expect(formatMoney(123456, 'eur')).toBe('EUR 1,234.56');
    expect(formatMoney(500, 'JPY')).toBe('JPY 500');
  });
  it('formats counts with thousands separators', () => {
    expect(formatCount(1250000)).toBe('1,250,000');
    expect(formatCount(0)).toBe('0');
  });
});
