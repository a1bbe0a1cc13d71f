/**
 * Money shown to users. Amounts are integer minor units (cents, Rappen); the server formats them in the
 * vendor's currency, en-US style with the ISO code: `formatMoney(15, 'CHF')` → `CHF 0.15`.
 */
const formatters = new Map<string, Intl.NumberFormat>();

function formatterFor(currency: string): Intl.NumberFormat {
  let f = formatters.get(currency);
  if (!f) {
    f = new Intl.NumberFormat('en-US', { style: 'currency', currency, currencyDisplay: 'code' });
    formatters.set(currency, f);
  }
  return f;
}

/** Integer minor units → `CHF 1,234.50`. The currency's own decimals apply (JPY has none). */
export function formatMoney(minor: number, currency: string): string {
  const f = formatterFor(currency.toUpperCase());
  const digits = f.resolvedOptions().maximumFractionDigits ?? 2;
  // Intl separates code and amount with a no-break space; plain text reads better in JSON and tests.
  return f.format(minor / 10 ** digits).replace(/\u00a0/g, ' ');
}

/** Whole numbers with thousands separators: 1000000 → `1,000,000`. */
export function formatCount(n: number): string {
  return new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 }).format(n);
}
