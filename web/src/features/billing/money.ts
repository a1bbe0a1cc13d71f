/**
 * Amounts are integer minor units end to end (docs/reference/rules.md): shown divided by 100 with two decimals,
 * after the currency code (`CHF 19.00`).
 */
export function formatMinor(minor: number, currency: string): string {
  const sign = minor < 0 ? '-' : '';
  return `${currency.toUpperCase()} ${sign}${(Math.abs(minor) / 100).toFixed(2)}`;
}

/**
 * Amount input (docs/reference/rules.md: digits, comma, apostrophe and dot) → minor units: apostrophes and commas
 * group thousands, the last dot separates the decimals; null when nothing usable was typed.
 */
export function parseAmount(text: string): number | null {
  const kept = text.replace(/[^0-9.,']/g, '').replace(/[',]/g, '');
  if (!/^\d*(\.\d{0,2})?$/.test(kept) || kept === '' || kept === '.') return null;
  return Math.round(Number(kept) * 100);
}

/** What an amount input keeps of typed text. */
export const amountInput = (text: string) => text.replace(/[^0-9.,']/g, '');
