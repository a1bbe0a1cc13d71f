/** A translation tree with the same shape as en_US, every leaf a string. */
export type Messages<T> = { [K in keyof T]: T[K] extends string ? string : Messages<T[K]> };

/** Maps every string of a tree (used for de_CH: de_DE with 'ss' for 'ß'). */
export function mapMessages<T extends object>(tree: T, fn: (s: string) => string): T {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(tree)) {
    out[k] = typeof v === 'string' ? fn(v) : mapMessages(v as object, fn);
  }
  return out as T;
}
