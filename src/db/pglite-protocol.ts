/**
 * The messages between the API's side of PGlite's thread (pglite-thread.ts) and the thread itself
 * (pglite-worker.ts). Types only: each side imports them as types, so neither loads the other's code.
 */

/** What the thread is started with (its workerData). */
export interface PgliteWorkerData {
  /** absent: in memory */
  dataDir?: string;
  startParams: string[];
  /** how many named statements the thread keeps prepared */
  maxStatements: number;
}

/** A request to the thread; `id` is echoed in its answer. */
export type PgliteRequest =
  | {
      op: 'query';
      id: number;
      sql: string;
      params?: unknown[];
      /** the transaction it runs in (the id of its `begin`) */
      tx?: number;
      /** a read whose rows may be cached: the answer says what it read */
      cache?: boolean;
    }
  | { op: 'begin'; id: number }
  | { op: 'commit' | 'rollback'; id: number; tx: number }
  | { op: 'close'; id: number };

/** An error as plain data: PostgreSQL's fields (code, constraint, detail, …) survive the trip. */
export type ErrorData = { message: string; name?: string } & Record<string, string | number | boolean | undefined>;

/**
 * The thread's answer to the request `id` (0: the database is open, or failed to open). `changed`: the tables a
 * change committed by it may have touched ('*': any); `reads`: for a cacheable read, the tables it read.
 */
export type PgliteAnswer = { id: number; error: ErrorData } | { id: number; error?: undefined; rows: unknown[]; changed?: string[]; reads?: string[] };
