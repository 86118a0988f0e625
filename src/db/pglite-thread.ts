import { Worker } from 'node:worker_threads';
import { threadScript } from '../thread-script';
import { groupedWhileBusy } from './grouping';
import type { PgliteAnswer, PgliteRequest, PgliteWorkerData } from './pglite-protocol';
import { ReadCache, TableChanges } from './read-cache';

/**
 * PGlite in a worker thread of its own. PGlite runs PostgreSQL compiled to WebAssembly synchronously on the
 * thread that calls it; in the API's thread, statements chained by promises run back to back within one turn
 * of the event loop, which then answers nothing else meanwhile, and Node accepts one new connection per turn.
 * Here the API's thread only posts statements and receives rows; the database works beside it, on another core.
 *
 * The thread's code is pglite-worker.ts (named prepared statements, what each statement read and changed,
 * transactions); this side sends it requests (pglite-protocol.ts) and keeps the read cache (read-cache.ts).
 * `PGLITE_THREAD=0` keeps PGlite's own `query` in the calling thread (database.ts).
 */

/**
 * The version of @electric-sql/pglite that pglite-worker.ts was checked against: that `runExclusive` is the
 * lock PGlite's own `query` takes (and `transaction` the statements of its transaction), that
 * `execProtocolStream` takes no lock, and that `parse.parseResults`, `parse.parseDescribeStatementResults`,
 * `serializers` and `parsers` give rows and errors as PGlite's `query` does. A unit test fails once another
 * version is installed (test/unit/db/pglite-version.test.ts), until these are checked again and this is updated.
 */
export const PGLITE_CHECKED_VERSION = '0.5.16';

export interface PgliteThreadOptions {
  /** absent: in memory */
  dataDir?: string;
  startParams: string[];
  /** how many named statements the thread keeps (least recently used ones are closed); MAX_STATEMENTS by default */
  maxStatements?: number;
  /** how many reads the read cache keeps; CACHED_READS by default, 0: none */
  cachedReads?: number;
}

/**
 * Statements kept prepared. The repositories' SQL has well under a hundred distinct texts (a few vary with
 * the number of packages or filters); each kept plan costs some of PGlite's memory, which never shrinks.
 */
export const MAX_STATEMENTS = 200;

type Pending = { resolve: (rows: unknown[]) => void; reject: (error: Error) => void };

/** An error from the database thread, with PostgreSQL's fields (code, constraint, detail, …) as own properties. */
function toError(data: Record<string, unknown>): Error {
  const error = new Error(String(data.message));
  Object.assign(error, data);
  return error;
}

/** Rows as PGlite gives them in this thread: bytea arrives as a Uint8Array and becomes a Buffer again. */
function revive<T>(rows: unknown[]): T[] {
  for (const row of rows as Record<string, unknown>[]) {
    for (const key in row) {
      const value = row[key];
      if (value instanceof Uint8Array && !Buffer.isBuffer(value)) row[key] = Buffer.from(value.buffer, value.byteOffset, value.byteLength);
    }
  }
  return rows as T[];
}

/**
 * Reads answered from the read cache at most: a detail lookup's row is one JSON text of a few kB (and, once
 * looked up, its parsed details), so this is some MB of the API thread's heap.
 */
export const CACHED_READS = 2000;

/**
 * How a read of many at once is asked: `sql` takes as its $k the array of every read's $k (e.g. `unnest($1::bigint[],
 * $2::int[]) WITH ORDINALITY AS k(id, customer_id, n)`) and answers each row with `n`, the 1-based position of the
 * read it belongs to, beside the columns the single read answers.
 */
export interface ReadBatch {
  sql: string;
}

/** How a cached read goes to the database and what the cache keeps of it. */
export interface CachedRead<T> {
  /** reads of this text that miss while one is with the database go together as this statement */
  batch?: ReadBatch;
  /**
   * What the cache keeps of each row read, and what every read it answers gets (shared: frozen, or never
   * changed), made once per row read from the database: a detail lookup keeps its parsed details, not the
   * row's JSON text, which would cost the API's heap as much again. Goes with the SQL text (a batch's reads
   * are kept with the first one's).
   */
  keep?: (row: Record<string, unknown>) => T;
}

/** Reads in one batch at most. */
const MAX_BATCH = 100;

/** Rows of a cached read, and the change they are the data as of when that is known (read-cache.ts). */
export interface CachedAnswer<T> {
  rows: T[];
  /** absent when a change to what it read came while it was with the database */
  version?: number;
}

type Waiting = { params: unknown[]; key: string; resolve: (answer: CachedAnswer<unknown>) => void; reject: (error: Error) => void };

/** Starts PGlite in a worker thread; resolves once the database is open (initdb done on a new one). */
export async function startPgliteThread(options: PgliteThreadOptions) {
  const { file, execArgv } = threadScript(__dirname, 'pglite-worker', __filename);
  const workerData: PgliteWorkerData = { dataDir: options.dataDir, startParams: options.startParams, maxStatements: options.maxStatements ?? MAX_STATEMENTS };
  const worker = new Worker(file, { workerData, ...(execArgv && { execArgv }) });
  const pending = new Map<number, Pending>();
  let nextId = 1;
  let failure: Error | undefined;
  const failAll = (error: Error) => {
    failure ??= error;
    for (const p of pending.values()) p.reject(error);
    pending.clear();
  };
  const opened = new Promise<void>((resolve, reject) => pending.set(0, { resolve: () => resolve(), reject }));
  const changes = new TableChanges();
  const readsOf = new Map<number, string[]>();
  worker.on('message', (m: PgliteAnswer) => {
    // Before anyone hears of the statement's end: a read answered after it never comes from before the change.
    if (!m.error && m.changed) changes.record(m.changed);
    const p = pending.get(m.id);
    if (!p) return;
    pending.delete(m.id);
    if (m.error) return p.reject(toError(m.error));
    if (m.reads) readsOf.set(m.id, m.reads);
    p.resolve(m.rows);
  });
  worker.on('error', (error) => failAll(error));
  worker.on('exit', (code) => failAll(new Error(`the database thread exited (${code})`)));
  /** Posts a request to the thread: its id, and the rows (or error) the thread answers it with. */
  type Request = PgliteRequest extends infer R ? (R extends PgliteRequest ? Omit<R, 'id'> : never) : never;
  const send = (request: Request): { id: number; answer: Promise<unknown[]> } => {
    const id = nextId++;
    const answer = new Promise<unknown[]>((resolve, reject) => {
      if (failure) return reject(failure);
      pending.set(id, { resolve, reject });
      worker.postMessage({ ...request, id });
    });
    return { id, answer };
  };
  const call = (request: Request) => send(request).answer;
  await opened;
  const cache = new ReadCache(changes, options.cachedReads ?? CACHED_READS);
  /** Sends a read: its rows, the tables it read (when the thread could tell) and the change count when it was sent. */
  const sendRead = async (sql: string, params: unknown[]): Promise<{ rows: Record<string, unknown>[]; tables?: string[]; sentAt: number }> => {
    const sentAt = changes.count;
    const { id, answer } = send({ op: 'query', sql, params, cache: true });
    const rows = revive<Record<string, unknown>>(await answer);
    const tables = readsOf.get(id);
    readsOf.delete(id);
    return { rows, tables, sentAt };
  };
  /** The answer of a read sent at `sentAt`, kept in the cache when it is current (nothing it read changed since). */
  const settle = (key: string, rows: unknown[], tables: string[] | undefined, sentAt: number): CachedAnswer<unknown> => {
    if (!tables || !cache.current(tables, sentAt)) return { rows };
    cache.set(key, rows, tables, sentAt);
    return { rows, version: sentAt };
  };
  /** Sends a read, keeping (what `keep` makes of) its rows. */
  const readOnce = async (sql: string, params: unknown[], key: string, keep?: CachedRead<unknown>['keep']) => {
    const { rows, tables, sentAt } = await sendRead(sql, params);
    return settle(key, keep ? rows.map(keep) : rows, tables, sentAt);
  };
  /** Sends reads of one text together: one alone as it is, more as the batch's statement. */
  const readGroup = async (sql: string, { batch, keep }: CachedRead<unknown> & { batch: ReadBatch }, reads: Waiting[]) => {
    try {
      if (reads.length === 1) return reads[0].resolve(await readOnce(sql, reads[0].params, reads[0].key, keep));
      // $k of the batch: the array of every read's $k.
      const params = reads[0].params.map((_, k) => reads.map((read) => read.params[k]));
      const { rows, tables, sentAt } = await sendRead(batch.sql, params);
      const answers = reads.map((): unknown[] => []);
      for (const { n, ...row } of rows) answers[Number(n) - 1].push(keep ? keep(row) : row);
      cache.batched += reads.length;
      reads.forEach((read, i) => read.resolve(settle(read.key, answers[i], tables, sentAt)));
    } catch (error) {
      for (const read of reads) read.reject(error as Error);
    }
  };
  /** Per batch text: reads that miss while one of that text is with the database wait for it, then go together. */
  const batches = new Map<string, (read: Waiting) => void>();

  return {
    query: async <T>(sql: string, params?: unknown[], tx?: number): Promise<{ rows: T[] }> => ({
      rows: revive<T>(await call({ op: 'query', sql, params, tx })),
    }),
    /**
     * A read (outside any transaction) answered from the read cache when nothing it reads has changed since.
     * With `read.batch`, reads of the same text that miss while one is with the database wait for it and then go
     * together as one statement (ReadBatch). With `read.keep`, the cache keeps (and answers with) what it makes
     * of each row. The rows are shared by every read the cache answers with them: they must not be changed.
     */
    cachedQuery: async <T>(sql: string, params: unknown[] = [], read: CachedRead<T> = {}): Promise<CachedAnswer<T>> => {
      const key = cache.keyOf(sql, params);
      const hit = cache.get(key);
      if (hit) return { rows: hit.rows as T[], version: hit.version };
      const { batch, keep } = read;
      if (!batch) return (await readOnce(sql, params, key, keep)) as CachedAnswer<T>;
      let offer = batches.get(batch.sql);
      if (!offer) batches.set(batch.sql, (offer = groupedWhileBusy((reads: Waiting[]) => readGroup(sql, { batch, keep }, reads), { max: MAX_BATCH })));
      return new Promise<CachedAnswer<T>>((resolve, reject) => offer({ params, key, resolve: resolve as Waiting['resolve'], reject }));
    },
    /** How many cached reads were answered from the cache, how many went to the database, and of those how many in batches. */
    cacheStats: () => ({ hits: cache.hits, misses: cache.misses, batched: cache.batched }),
    /** Opens a transaction: its id, for query/commit/rollback. */
    begin: async (): Promise<number> => {
      const { id, answer } = send({ op: 'begin' });
      await answer;
      return id;
    },
    commit: (tx: number) => call({ op: 'commit', tx }).then(() => undefined),
    rollback: (tx: number) => call({ op: 'rollback', tx }).then(() => undefined),
    close: async () => {
      if (!failure) await call({ op: 'close' }).catch(() => undefined);
      failAll(new Error('the database thread is closed'));
      await worker.terminate();
    },
  };
}
