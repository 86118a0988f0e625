import { mkdirSync } from 'node:fs';
import type { PGlite } from '@electric-sql/pglite';
import type { Pool, PoolClient } from 'pg';
import { timeStage } from '../stage-timing';
import { BYTEA_HEX } from './pglite-bytea';
import { startPgliteThread, type CachedAnswer, type CachedRead } from './pglite-thread';

/** What repositories need: parameterised SQL returning rows. Both PGlite and a pg pool/client provide it. */
export interface Queryable {
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<{ rows: T[] }>;
  /**
   * A read that may be answered from a cache kept good by the database's own record of changes (only PGlite's
   * thread has one: `pglite-thread.ts`, `read-cache.ts`); the rows (or what `read.keep` made of them) are shared
   * and must not be changed. `version`: the change the rows are current as of, when known. Absent: use `query`.
   */
  cachedQuery?<T = Record<string, unknown>>(sql: string, params?: unknown[], read?: CachedRead<T>): Promise<CachedAnswer<T>>;
}

export interface Database extends Queryable {
  readonly kind: 'pglite' | 'postgres';
  /** Runs `fn` in one transaction; rolls back when it throws. */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  /** The read cache's hits and misses so far (PGlite's thread only). */
  readCacheStats?(): { hits: number; misses: number; batched: number };
  /** Runs `fn` while holding a database-wide advisory lock (migrations, seeding). */
  withLock<T>(key: number, fn: () => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  /** PostgreSQL server URL; when absent PGlite is used. */
  url?: string;
  /** PGlite data directory; absent means in-memory (tests). */
  dataDir?: string;
  /** Pool size for PostgreSQL. */
  poolSize?: number;
  /** PGlite in a worker thread of its own (default), or in the calling thread */
  pgliteThread?: boolean;
  /** how many prepared statements PGlite's thread keeps (tests) */
  pgliteMaxStatements?: number;
  /** how many reads PGlite's thread's read cache keeps (tests; 0: none) */
  pgliteCachedReads?: number;
}

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  return timedDatabase(
    options.url
      ? await openPostgres(options.url, options.poolSize ?? 20)
      : await openPglite(options.dataDir, options.pgliteThread ?? true, { maxStatements: options.pgliteMaxStatements, cachedReads: options.pgliteCachedReads }),
  );
}

/** Statements and transactions count into the `db` stage of the request that runs them (Server-Timing). */
function timedDatabase(db: Database): Database {
  return {
    ...db,
    query: (sql, params) => timeStage('db', () => db.query(sql, params)),
    ...(db.cachedQuery && { cachedQuery: (sql, params, read) => timeStage('db', () => db.cachedQuery!(sql, params, read)) }),
    transaction: (fn) => timeStage('db', () => db.transaction(fn)),
  };
}

/**
 * PGlite's buffer pool lives in its WebAssembly memory, which only grows, so it is kept well below PostgreSQL's
 * default of 128 MB (docs/operations.md, "Memory"). Its data files stay in the operating system's page cache as well.
 */
const PGLITE_SHARED_BUFFERS = '32MB';

async function openPglite(dataDir: string | undefined, inThread: boolean, threadOptions: { maxStatements?: number; cachedReads?: number }): Promise<Database> {
  if (dataDir) mkdirSync(dataDir, { recursive: true });
  // Loaded on demand (require, not import(): the CommonJS build must not need ESM loader hooks, e.g. under Jest).
  const { PGlite } = require('@electric-sql/pglite') as typeof import('@electric-sql/pglite');
  const startParams = [...PGlite.defaultStartParams, '-c', `shared_buffers=${PGLITE_SHARED_BUFFERS}`];
  // PGlite has one connection in one process: its own queue already serialises everything, so withLock needs no lock.
  const withLock = <T>(_key: number, fn: () => Promise<T>) => fn();
  if (inThread) {
    const thread = await startPgliteThread({ dataDir, startParams, ...threadOptions });
    return {
      kind: 'pglite',
      query: (sql, params) => thread.query(sql, params),
      cachedQuery: (sql, params, read) => thread.cachedQuery(sql, params, read),
      readCacheStats: () => thread.cacheStats(),
      transaction: async (fn) => {
        const tx = await thread.begin();
        let result;
        try {
          result = await fn({ query: (sql, params) => thread.query(sql, params, tx) });
        } catch (error) {
          await thread.rollback(tx).catch(() => undefined);
          throw error;
        }
        await thread.commit(tx);
        return result;
      },
      withLock,
      close: () => thread.close(),
    };
  }
  const { pg_trgm } = require('@electric-sql/pglite/contrib/pg_trgm') as typeof import('@electric-sql/pglite/contrib/pg_trgm');
  const pglite = (await PGlite.create({ dataDir, extensions: { pg_trgm }, startParams, ...BYTEA_HEX })) as unknown as PGlite;
  const query = async <T>(sql: string, params?: unknown[]) => {
    const result = await pglite.query<T>(sql, params as unknown[]);
    return { rows: result.rows };
  };
  return {
    kind: 'pglite',
    query,
    transaction: (fn) =>
      pglite.transaction((tx) => fn({ query: async <T>(sql: string, params?: unknown[]) => ({ rows: (await tx.query<T>(sql, params as unknown[])).rows }) })),
    withLock,
    close: () => pglite.close(),
  };
}

async function openPostgres(url: string, poolSize: number): Promise<Database> {
  const pg = require('pg') as typeof import('pg');
  // Keep bigint/numeric as JS numbers: ids and money amounts here are far below 2^53.
  pg.types.setTypeParser(20, (v: string) => Number(v));
  pg.types.setTypeParser(1700, (v: string) => Number(v));
  const pool: Pool = new pg.Pool({ connectionString: url, max: poolSize });
  pool.on('error', () => undefined); // idle client errors surface on the next query instead of crashing
  // A checked-out client's connection lost between queries (a server restart, pg_terminate_backend) is an
  // 'error' event on the client, which nobody hears while it is ours (the pool listens to idle ones only) and
  // which would end the process. Listen while it is ours (`lost()` tells the cause); it is then destroyed,
  // not pooled.
  const inClient = async <T>(fn: (client: PoolClient, lost: () => Error | undefined) => Promise<T>) => {
    const client = await pool.connect();
    let lost: Error | undefined;
    const onError = (error: Error) => (lost = error);
    client.on('error', onError);
    try {
      return await fn(client, () => lost);
    } finally {
      client.off('error', onError);
      client.release(lost);
    }
  };
  return {
    kind: 'postgres',
    query: async <T>(sql: string, params?: unknown[]) => ({ rows: (await pool.query(sql, params)).rows as T[] }),
    transaction: (fn) =>
      inClient(async (client, lost) => {
        await client.query('BEGIN');
        try {
          const result = await fn({ query: async <T>(sql: string, params?: unknown[]) => ({ rows: (await client.query(sql, params)).rows as T[] }) });
          await client.query('COMMIT');
          return result;
        } catch (error) {
          await client.query('ROLLBACK').catch(() => undefined);
          // The connection's loss is why it failed (a retry cures it), whatever the next query said of it
          // (pg: "Client has encountered a connection error and is not queryable"); nothing was committed.
          throw lost() ?? error;
        }
      }),
    withLock: (key, fn) =>
      inClient(async (client) => {
        await client.query('SELECT pg_advisory_lock($1)', [key]);
        try {
          return await fn();
        } finally {
          await client.query('SELECT pg_advisory_unlock($1)', [key]).catch(() => undefined);
        }
      }),
    close: () => pool.end(),
  };
}

/** True when the database answers a trivial statement (health checks). */
export async function isDatabaseReachable(q: Queryable): Promise<boolean> {
  try {
    await q.query('SELECT 1');
    return true;
  } catch {
    return false;
  }
}

/** True for a unique-constraint violation on `constraint` (pg and PGlite both report SQLSTATE 23505). */
export function isUniqueViolation(error: unknown, constraint: string): boolean {
  const e = error as { code?: string; constraint?: string; message?: string };
  return e?.code === '23505' && (e.constraint === constraint || (e.message ?? '').includes(constraint));
}
