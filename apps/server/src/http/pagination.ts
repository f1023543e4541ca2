import { z } from 'zod';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, type Page } from '@slg/shared';

/** `page` (from 1) and `pageSize` (default 10, at most 100) of every list call. */
export const pageQuery = z.object({
  page: z.coerce.number({ error: '页码必须是数字' }).int('页码必须是整数').min(1, '页码从1开始').default(1),
  pageSize: z.coerce
    .number({ error: '每页条数必须是数字' })
    .int('每页条数必须是整数')
    .min(1, '每页条数至少为1')
    .max(MAX_PAGE_SIZE, `每页条数不能超过${MAX_PAGE_SIZE}`)
    .default(DEFAULT_PAGE_SIZE),
});

export type PageQuery = z.infer<typeof pageQuery>;

export function offsetOf(query: PageQuery): number {
  return (query.page - 1) * query.pageSize;
}

export function pageOf<T>(list: T[], total: number, query: PageQuery): Page<T> {
  return { list, total, page: query.page, pageSize: query.pageSize };
}

/**
 * One page of a list: reads the page's rows (`limit`/`offset` from the query) and the total count in
 * parallel, then turns the rows into items. `toItems` gets the whole page, so a look-up the items need
 * (say, their child rows) is one query, not one per row. Parallel means two connections: give it
 * queries on the pool (`Database`), never on a transaction (one connection runs one query at a time).
 */
export async function paged<Row, Item>(
  query: PageQuery,
  rows: (limit: number, offset: number) => PromiseLike<Row[]>,
  total: () => PromiseLike<number>,
  toItems: (rows: Row[]) => Item[] | PromiseLike<Item[]>,
): Promise<Page<Item>> {
  const [page, count] = await Promise.all([rows(query.pageSize, offsetOf(query)), total()]);
  return pageOf(await toItems(page), count, query);
}

/** Response schema of a page of `item`. */
export function pageSchema<T extends z.ZodType>(item: T) {
  return z.object({ list: z.array(item), total: z.number().int(), page: z.number().int(), pageSize: z.number().int() });
}

/** The time range of list filters lives with the other shared fields. */
export { timeRangeQuery } from './fields.js';
