import { describe, expect, it } from 'vitest';
import { amountInput, formatMinor, parseAmount } from './money';

describe('amounts in minor units', () => {
  it('shows minor units divided by 100 with two decimals after the currency', () => {
    expect(formatMinor(1900, 'CHF')).toBe('CHF 19.00');
    expect(formatMinor(5, 'eur')).toBe('EUR 0.05');
    expect(formatMinor(123456, 'USD')).toBe('USD 1234.56');
    expect(formatMinor(-250, 'CHF')).toBe('CHF -2.50');
  });

  it('reads typed amounts into minor units, keeping digits, comma, apostrophe and dot', () => {
    expect(amountInput("CHF 1'234.50x")).toBe("1'234.50");
    expect(parseAmount("1'234.50")).toBe(123450);
    expect(parseAmount('1,234.5')).toBe(123450);
    expect(parseAmount('19')).toBe(1900);
    expect(parseAmount('0.07')).toBe(7);
    expect(parseAmount('')).toBeNull();
    expect(parseAmount('1.234')).toBeNull();
  });
});
