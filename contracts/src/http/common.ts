import { z } from 'zod';
import { PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX } from '../constants';

/** Numeric path/query ids: digits only, so `abc` or `1.5` answer 404/400 before any query runs. */
export const idParam = z.coerce.number().int().positive().max(2_147_483_647);

/** Paging query shared by every list call (CONTRACTS: zero-based page, page_size ≤ 100). */
export const pagingQuery = z.object({
  page: z.coerce.number().int().min(0).default(0),
  page_size: z.coerce.number().int().min(1).max(PAGE_SIZE_MAX).default(PAGE_SIZE_DEFAULT),
  order_dir: z.enum(['asc', 'desc']).optional(),
  count: z.enum(['0', '1']).optional(),
  locale: z.string().optional(),
});
export type PagingQuery = z.infer<typeof pagingQuery>;

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

/** `{data: item[], total_count, filter_count}` (CONTRACTS "Conventions"). */
export const listEnvelopeSchema = <T extends z.ZodType>(item: T) =>
  z.object({ data: z.array(item), total_count: z.number().int(), filter_count: z.number().int() });

/** `{data: item}`. */
export const dataEnvelopeSchema = <T extends z.ZodType>(item: T) => z.object({ data: item });

/** Any query may carry `locale` (the web client adds it to every call). */
export const localeQuery = z.object({ locale: z.string().optional() });
