import type { Queryable } from './database';

/** The rows a page covers: LIMIT and OFFSET. */
export interface PageWindow {
  limit: number;
  offset: number;
}

/** A page of records and how many records there are in all. */
export interface Counted<T> {
  rows: T[];
  total: number;
}

/**
 * A page of rows, each turned into its record by `toRecord`, and the number of rows there are: `from` is the table
 * and its WHERE clause with `$1…$n` for `params` (counted as it is), `order` the page's ORDER BY; LIMIT and OFFSET
 * follow the params.
 */
export async function selectPage<Row, T>(
  q: Queryable,
  query: { columns: string; from: string; order: string; params: unknown[] },
  page: PageWindow,
  toRecord: (row: Row) => T,
): Promise<Counted<T>> {
  const n = query.params.length;
  const [list, count] = await Promise.all([
    q.query<Row>(`SELECT ${query.columns} FROM ${query.from} ORDER BY ${query.order} LIMIT $${n + 1} OFFSET $${n + 2}`, [
      ...query.params,
      page.limit,
      page.offset,
    ]),
    q.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${query.from}`, query.params),
  ]);
  return { rows: list.rows.map(toRecord), total: Number(count.rows[0].n) };
}
