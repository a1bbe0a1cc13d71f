import { z } from 'zod';
import { PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX } from '../constants';

/** The largest id a row can have (PostgreSQL `integer`). */
const ID_MAX = 2_147_483_647;

/**
 * A whole number written in a path or query: canonical decimal digits only. No coercion, so `0x10`, `1e3`,
 * `+1`, ` 1` and `01` are refused instead of read as another number (docs/adr/0022). The wire only carries
 * strings here; a number is taken too so typed callers (the console's query builders) may pass one.
 */
export const digitsParam = (max: number) =>
  z
    .union(
      [
        z.number().int().min(0),
        z
          .string()
          .max(String(max).length, `Must be at most ${max}`)
          .regex(/^(0|[1-9][0-9]*)$/)
          .transform(Number),
      ],
      { error: 'Must be a whole number in decimal digits' },
    )
    .pipe(z.number().max(max, `Must be at most ${max}`));

/** Numeric path/query ids: canonical digits in range, so `abc`, `1.5` or `0x10` answer 404/400 before any query runs. */
export const idParam = digitsParam(ID_MAX).pipe(z.number().positive('Must be a positive id'));
/** The path of every route that acts in one vendor: `/v1/vendors/:vendorId/…`. */
export const vendorPath = z.object({ vendorId: idParam });

/** An id in a JSON body: a JSON number that is a positive integer in range (not `"1"`, `true` or `[1]`). */
export const idField = z
  .number({ error: 'Must be an id (a positive whole number)' })
  .int('Must be an id (a positive whole number)')
  .positive('Must be an id (a positive whole number)')
  .max(ID_MAX, `Must be at most ${ID_MAX}`);

/** Paging query shared by every list call (docs/reference/api.md: zero-based page, page_size ≤ 100). */
export const pagingQuery = z.object({
  page: digitsParam(ID_MAX).default(0),
  page_size: digitsParam(PAGE_SIZE_MAX).pipe(z.number().min(1)).default(PAGE_SIZE_DEFAULT),
  order_dir: z.enum(['asc', 'desc']).optional(),
  count: z.enum(['0', '1']).optional(),
  locale: z.string().optional(),
});

/** Builds the query schema of a sortable list: `order` must be one of the allowed columns. */
export function listQuery<const C extends readonly [string, ...string[]]>(orderColumns: C) {
  return pagingQuery.extend({ order: z.enum(orderColumns).optional() });
}

export interface ListEnvelope<T> {
  data: T[];
  total_count: number;
  filter_count: number;
}
export interface DataEnvelope<T> {
  data: T;
}

/** `{data: item[], total_count, filter_count}` (docs/reference/api.md "Conventions"). */
export const listEnvelopeSchema = <T extends z.ZodType>(item: T) =>
  z.object({ data: z.array(item), total_count: z.number().int(), filter_count: z.number().int() });

/** `{data: item}`. */
export const dataEnvelopeSchema = <T extends z.ZodType>(item: T) => z.object({ data: item });

/** Any query may carry `locale` (the web client adds it to every call). */
export const localeQuery = z.object({ locale: z.string().optional() });

export const emptyIsAbsent = (v: unknown) => (v === '' ? undefined : v);
/** A yes/no query parameter: 1, 0, true or false; empty or absent is absent. */
export const queryBoolean = z.preprocess(
  emptyIsAbsent,
  z
    .enum(['1', '0', 'true', 'false'], { error: 'Must be 1, 0, true or false' })
    .transform((v) => v === '1' || v === 'true')
    .optional(),
);
