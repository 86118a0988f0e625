import { Worker } from 'node:worker_threads';
import { groupedWhileBusy } from './grouping';

/**
 * PGlite in a worker thread of its own. PGlite runs PostgreSQL compiled to WebAssembly synchronously on the
 * thread that calls it; in the API's thread, statements chained by promises ran back to back within one turn
 * of the event loop, which then answered nothing else for hundreds of milliseconds, and Node accepts one new
 * connection per turn (bench/service.ts found clients waiting seconds to be accepted). Here the API's thread
 * only posts statements and receives rows; the database works beside it, on the other core.
 *
 * The thread's code is plain JavaScript evaluated as the worker's script, so the same code runs under tsx,
 * Jest and the compiled build. Transactions are PGlite's own: `begin` opens one whose callback waits for the
 * `commit` or `rollback` of the same id, and PGlite queues every other statement until it has ended.
 *
 * Statements run as named prepared statements, one per distinct SQL text (PGlite's own `query` parses and plans
 * each time): the consignment detail lookup took 1.33 ms of the thread, 0.40 ms prepared (PostgreSQL keeps a
 * generic plan once it costs no more than the custom ones). This is PGlite's query path with a statement name
 * (parse and describe once; then bind, describe, execute and sync under PGlite's own locks), its serializers
 * and its result parser, so rows and errors come as its `query` gives them. `PGLITE_THREAD=0` keeps PGlite's own
 * `query` in the calling thread.
 */
const THREAD_SCRIPT = `
'use strict';
const { parentPort, workerData } = require('node:worker_threads');
const { PGlite, protocol, parse } = require(workerData.pglitePath);
const { pg_trgm } = require(workerData.trgmPath);
const { serialize } = protocol;

// The thread's name in top -H, perf and /proc (Linux; elsewhere this does nothing), so that its CPU is told apart
// from V8's helper threads, which are all called "node" too.
try {
  require('node:fs').writeFileSync('/proc/thread-self/comm', 'pglite');
} catch {}

/**
 * bytea in PostgreSQL's hex format, by Buffer's native hex codec: PGlite's own goes byte by byte in JavaScript,
 * 2.2 ms each way for a 25 kB label PDF (the whole statement then took 5 ms to insert, 3.8 ms to read).
 */
const BYTEA_HEX = {
  serializers: {
    17: (bytes) => {
      if (!(bytes instanceof Uint8Array)) throw new Error('Invalid input for bytea type');
      return '\\\\x' + Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex');
    },
  },
  parsers: { 17: (text) => Buffer.from(text.slice(2), 'hex') },
};

/** An error as plain data: PostgreSQL's fields (code, constraint, detail, …) survive the trip. */
const errorData = (error) => {
  const data = { message: String(error && error.message || error), name: error && error.name };
  if (error && typeof error === 'object') for (const [key, value] of Object.entries(error)) {
    if (value === null || ['string', 'number', 'boolean'].includes(typeof value)) data[key] = value;
  }
  return data;
};

(async () => {
  let db;
  try {
    db = await PGlite.create({ dataDir: workerData.dataDir, extensions: { pg_trgm }, startParams: workerData.startParams, ...BYTEA_HEX });
  } catch (error) {
    parentPort.postMessage({ id: 0, error: errorData(error) });
    return;
  }
  const transactions = new Map();

  // Named statements, one per distinct SQL text, least recently used first (a Map keeps insertion order).
  const statements = new Map();
  let statementNo = 0;
  const run = (message) => db.execProtocolStream(message, { syncToFs: false });
  const withSync = async (work) => {
    const messages = [];
    try {
      messages.push(...(await work()));
    } finally {
      messages.push(...(await run(serialize.sync())));
    }
    return messages;
  };
  const prepare = async (sql) => {
    const known = statements.get(sql);
    if (known) {
      statements.delete(sql);
      statements.set(sql, known);
      return known;
    }
    const name = 'cf' + ++statementNo;
    const described = await withSync(async () => [...(await run(serialize.parse({ name, text: sql }))), ...(await run(serialize.describe({ type: 'S', name })))]);
    const statement = { name, types: parse.parseDescribeStatementResults(described) };
    statements.set(sql, statement);
    if (statements.size > workerData.maxStatements) {
      const [oldestSql, oldest] = statements.entries().next().value;
      statements.delete(oldestSql);
      await withSync(() => run(serialize.close({ type: 'S', name: oldest.name })));
    }
    return statement;
  };
  // PGlite's own query() but on a named statement: parsed and planned once, then bound and executed.
  const execute = async (sql, params, inTransaction) => {
    const statement = await prepare(sql);
    const values = params.map((value, i) => {
      if (value === null || value === undefined) return null;
      const serializer = db.serializers[statement.types[i]];
      return serializer ? serializer(value) : value.toString();
    });
    const messages = await withSync(async () => [
      ...(await run(serialize.bind({ statement: statement.name, values }))),
      ...(await run(serialize.describe({ type: 'P' }))),
      ...(await run(serialize.execute({}))),
    ]);
    if (!inTransaction) await db.syncToFs();
    return parse.parseResults(messages, db.parsers)[0].rows;
  };
  /**
   * What each SQL text reads and may change, from PostgreSQL's own plan (EXPLAIN, once per text): the tables
   * its scans read, and the tables its inserts, updates and deletes write plus those their foreign keys'
   * actions reach (a deleted consignment deletes its history) — '*' (everything) for a table with triggers of
   * its own and for statements without a plan (DDL and other utility statements, which also reset this map).
   * The read cache in the API's thread drops what a committed change may have touched (cachedQuery below).
   * A plan does not show what a function of one's own reads or writes inside its body: the schema has none
   * beyond triggers (taken as everything), and a read that called one could not be cached.
   */
  const effects = new Map();
  const MAX_EFFECTS = 1000;
  let cascades; // table → tables its foreign keys' actions change, and tables with triggers
  const PLANNED = /^\\s*\\(*\\s*(select|insert|update|delete|with|values|table|merge)\\b/i;
  // A statement of its own by the simple query protocol (EXPLAIN (GENERIC_PLAN) takes $n without values there).
  const single = async (text) => parse.parseResults(await run(serialize.query(text)))[0].rows;
  const loadCascades = async () => {
    const links = await single(
      'SELECT p.relname AS parent, c.relname AS child FROM pg_constraint k JOIN pg_class p ON p.oid = k.confrelid JOIN pg_class c ON c.oid = k.conrelid' +
        " WHERE k.contype = 'f' AND (k.confdeltype IN ('c', 'n', 'd') OR k.confupdtype IN ('c', 'n', 'd'))",
    );
    const triggered = await single('SELECT DISTINCT c.relname AS name FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid WHERE NOT t.tgisinternal');
    const map = { children: new Map(), triggered: new Set(triggered.map((r) => r.name)) };
    for (const { parent, child } of links) map.children.set(parent, [...(map.children.get(parent) || []), child]);
    return map;
  };
  const effectsOf = async (sql, inTransaction) => {
    const known = effects.get(sql);
    if (known) return known;
    let found = { reads: ['*'], writes: ['*'] };
    if (!PLANNED.test(sql)) {
      effects.clear();
      cascades = undefined;
      return found;
    }
    const explain = async () => {
      cascades = cascades || (await loadCascades());
      const [row] = await single('EXPLAIN (GENERIC_PLAN, FORMAT JSON) ' + sql);
      const reads = new Set();
      const writes = new Set();
      const visit = (node) => {
        if (node['Relation Name']) (node['Node Type'] === 'ModifyTable' ? writes : reads).add(node['Relation Name']);
        for (const child of node.Plans || []) visit(child);
      };
      visit((typeof row['QUERY PLAN'] === 'string' ? JSON.parse(row['QUERY PLAN']) : row['QUERY PLAN'])[0].Plan);
      for (const table of writes) for (const child of cascades.children.get(table) || []) writes.add(child);
      return { reads: [...reads], writes: [...writes].some((t) => cascades.triggered.has(t)) ? ['*'] : [...writes] };
    };
    // Inside a transaction a failed EXPLAIN would fail the transaction: it runs under a savepoint there.
    if (inTransaction) await single('SAVEPOINT cf_effects');
    try {
      found = await explain();
      if (inTransaction) await single('RELEASE SAVEPOINT cf_effects');
    } catch {
      if (inTransaction) await single('ROLLBACK TO SAVEPOINT cf_effects');
    }
    if (effects.size >= MAX_EFFECTS) effects.clear(); // texts made from varying input: found again when next run
    effects.set(sql, found);
    return found;
  };
  // A statement the server no longer has, or whose cached plan's row type a schema change altered, is
  // prepared anew: at once outside a transaction; inside one, whose failure it already is, the next time.
  const stale = (error) => error && (error.code === '26000' || (error.code === '0A000' && /cached plan/.test(error.message)));
  // The rows, and what the statement read and may have changed (see effectsOf).
  const query = (sql, params, inTransaction) => {
    const once = async () => {
      const rows = await execute(sql, params, inTransaction);
      return { rows, ...(await effectsOf(sql, inTransaction)) };
    };
    const retried = () =>
      once().catch((error) => {
        if (!stale(error)) throw error;
        statements.delete(sql);
        if (inTransaction) throw error;
        return once();
      });
    return inTransaction ? db._runExclusiveQuery(retried) : db._runExclusiveTransaction(() => db._runExclusiveQuery(retried));
  };
  // An answer: rows, the tables a committed change may have touched (\`changed\`), and for a cacheable read
  // what it read (\`reads\`).
  const answer = (id, work) => work.then(
    (result) => parentPort.postMessage({ id, ...(Array.isArray(result) ? { rows: result } : result) }),
    (error) => parentPort.postMessage({ id, error: errorData(error) }),
  );
  parentPort.on('message', (m) => {
    switch (m.op) {
      case 'query': {
        const on = m.tx ? transactions.get(m.tx) : undefined;
        if (m.tx && !on) return answer(m.id, Promise.reject(new Error('transaction ' + m.tx + ' is not open')));
        return answer(m.id, query(m.sql, m.params || [], Boolean(on)).then(({ rows, reads, writes }) => {
          if (on) {
            for (const table of writes) on.changed.add(table);
            return { rows };
          }
          return { rows, ...(writes.length ? { changed: writes } : {}), ...(m.cache ? { reads } : {}) };
        }));
      }
      case 'begin': {
        // The transaction's callback waits for its commit or rollback; PGlite queues everything else meanwhile.
        const entry = { changed: new Set() };
        const ready = new Promise((opened) => {
          entry.done = db.transaction((tx) => new Promise((resolve, reject) => {
            Object.assign(entry, { tx, resolve, reject });
            opened();
          }));
        });
        transactions.set(m.id, entry);
        entry.done.catch(() => undefined).finally(() => transactions.delete(m.id));
        return answer(m.id, Promise.race([ready, entry.done]).then(() => []));
      }
      case 'commit':
      case 'rollback': {
        const entry = transactions.get(m.tx);
        if (!entry || !entry.resolve) return answer(m.id, Promise.reject(new Error('transaction ' + m.tx + ' is not open')));
        if (m.op === 'commit') entry.resolve();
        else entry.reject(new Error('rolled back'));
        return answer(m.id, m.op === 'commit' ? entry.done.then(() => ({ rows: [], changed: [...entry.changed] })) : entry.done.then(() => [], () => []));
      }
      case 'close':
        return answer(m.id, db.close().then(() => []));
    }
  });
  parentPort.postMessage({ id: 0, rows: [] });
})();
`;

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
   * changed), made once per row read from the database. A detail lookup keeps its parsed details, not the
   * row's JSON text as well: the text was a third of what each cached lookup added to the API's heap.
   * Goes with the SQL text (a batch's reads are kept with the first one's).
   */
  keep?: (row: Record<string, unknown>) => T;
}

/** Reads in one batch at most. */
const MAX_BATCH = 100;

type Waiting = { params: unknown[]; key: string; resolve: (rows: unknown[]) => void; reject: (error: Error) => void };

/**
 * The changes the thread reported as committed, counted per table ('*': every table). A cached read is good
 * as long as none of the tables it read has changed since it was sent.
 */
class TableChanges {
  count = 0;
  private readonly byTable = new Map<string, number>();
  record(tables: string[]) {
    this.count++;
    for (const table of tables) this.byTable.set(table, this.count);
  }
  /** Whether any of `tables` (or everything) changed after change number `since`. */
  changedSince(tables: string[], since: number): boolean {
    if (since === this.count) return false;
    if ((this.byTable.get('*') ?? 0) > since) return true;
    return tables.some((table) => table === '*' || (this.byTable.get(table) ?? 0) > since);
  }
}

/**
 * Rows of reads by SQL text and parameters, each good while the tables it read stay unchanged (PGlite has one
 * process: every change to the data passes through this thread's statements, and the thread reports which
 * tables each committed one may have touched). The least recently used go first. Rows are shared: callers
 * must not change them.
 */
class ReadCache {
  hits = 0;
  misses = 0;
  batched = 0;
  private readonly entries = new Map<string, { rows: unknown[]; reads: string[]; asOf: number }>();
  constructor(
    private readonly changes: TableChanges,
    private readonly size: number,
  ) {}
  private readonly texts = new Map<string, number>();
  private textsNumbered = 0;
  /** A short number for a SQL text, for keys (a text of kilobytes would be copied and hashed in each); never reused. */
  textNo(sql: string): number {
    let no = this.texts.get(sql);
    if (no === undefined) {
      if (this.texts.size >= 1000) this.texts.clear(); // texts made from varying input: numbered anew
      this.texts.set(sql, (no = ++this.textsNumbered));
    }
    return no;
  }
  get(key: string): unknown[] | undefined {
    const entry = this.entries.get(key);
    this.entries.delete(key);
    if (!entry || this.changes.changedSince(entry.reads, entry.asOf)) {
      this.misses++;
      return undefined;
    }
    this.entries.set(key, entry);
    this.hits++;
    return entry.rows;
  }
  /** Keeps rows read by a statement sent when `count` was `sentAt`, unless something they read changed since. */
  set(key: string, rows: unknown[], reads: string[], sentAt: number) {
    if (this.size === 0 || this.changes.changedSince(reads, sentAt)) return;
    if (this.entries.size >= this.size) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, { rows, reads, asOf: sentAt });
  }
}

/** Starts PGlite in a worker thread; resolves once the database is open (initdb done on a new one). */
export async function startPgliteThread(options: PgliteThreadOptions) {
  const worker = new Worker(THREAD_SCRIPT, {
    eval: true,
    workerData: {
      dataDir: options.dataDir,
      startParams: options.startParams,
      pglitePath: require.resolve('@electric-sql/pglite'),
      trgmPath: require.resolve('@electric-sql/pglite/contrib/pg_trgm'),
      maxStatements: options.maxStatements ?? MAX_STATEMENTS,
    },
  });
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
  worker.on('message', (m: { id: number; rows?: unknown[]; error?: Record<string, unknown>; changed?: string[]; reads?: string[] }) => {
    // Before anyone hears of the statement's end: a read answered after it never comes from before the change.
    if (m.changed) changes.record(m.changed);
    const p = pending.get(m.id);
    if (!p) return;
    pending.delete(m.id);
    if (m.reads) readsOf.set(m.id, m.reads);
    if (m.error) p.reject(toError(m.error));
    else p.resolve(m.rows ?? []);
  });
  worker.on('error', (error) => failAll(error));
  worker.on('exit', (code) => failAll(new Error(`the database thread exited (${code})`)));
  /** Posts a message to the thread: its id, and the rows (or error) the thread answers it with. */
  const send = (message: Record<string, unknown>): { id: number; answer: Promise<unknown[]> } => {
    const id = nextId++;
    const answer = new Promise<unknown[]>((resolve, reject) => {
      if (failure) return reject(failure);
      pending.set(id, { resolve, reject });
      worker.postMessage({ ...message, id });
    });
    return { id, answer };
  };
  const call = (message: Record<string, unknown>) => send(message).answer;
  await opened;
  const cache = new ReadCache(changes, options.cachedReads ?? CACHED_READS);
  /** Sends a read: its rows, the tables it read (when the thread could tell) and the change count when it was sent. */
  const sendRead = async <T>(sql: string, params: unknown[]): Promise<{ rows: T[]; tables?: string[]; since: number }> => {
    const since = changes.count;
    const { id, answer } = send({ op: 'query', sql, params, cache: true });
    const rows = revive<T>(await answer);
    const tables = readsOf.get(id);
    readsOf.delete(id);
    return { rows, tables, since };
  };
  /** Sends a read, keeping (what `keep` makes of) its rows in the cache unless something it read changed meanwhile. */
  const readOnce = async (sql: string, params: unknown[], key: string, keep?: CachedRead<unknown>['keep']): Promise<unknown[]> => {
    const { rows, tables, since } = await sendRead<Record<string, unknown>>(sql, params);
    const kept = keep ? rows.map(keep) : rows;
    if (tables) cache.set(key, kept, tables, since);
    return kept;
  };
  /** Sends reads of one text together: one alone as it is, more as the batch's statement. */
  const readGroup = async (sql: string, { batch, keep }: CachedRead<unknown> & { batch: ReadBatch }, reads: Waiting[]) => {
    try {
      if (reads.length === 1) return reads[0].resolve(await readOnce(sql, reads[0].params, reads[0].key, keep));
      // $k of the batch: the array of every read's $k.
      const params = reads[0].params.map((_, k) => reads.map((read) => read.params[k]));
      const { rows, tables, since } = await sendRead<Record<string, unknown>>(batch.sql, params);
      const answers = reads.map((): unknown[] => []);
      for (const { n, ...row } of rows) answers[Number(n) - 1].push(keep ? keep(row) : row);
      cache.batched += reads.length;
      reads.forEach((read, i) => {
        if (tables) cache.set(read.key, answers[i], tables, since);
        read.resolve(answers[i]);
      });
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
     * together as one statement (ReadBatch): under load the thread's cost per read falls to a third or less.
     * With `read.keep`, the cache keeps (and answers with) what it makes of each row.
     */
    cachedQuery: async <T>(sql: string, params: unknown[] = [], read: CachedRead<T> = {}): Promise<{ rows: T[] }> => {
      const key = `${cache.textNo(sql)} ${JSON.stringify(params)}`;
      const hit = cache.get(key);
      if (hit) return { rows: hit as T[] };
      const { batch, keep } = read;
      if (!batch) return { rows: (await readOnce(sql, params, key, keep)) as T[] };
      let offer = batches.get(batch.sql);
      if (!offer) batches.set(batch.sql, (offer = groupedWhileBusy((reads: Waiting[]) => readGroup(sql, { batch, keep }, reads), { max: MAX_BATCH })));
      return { rows: await new Promise<T[]>((resolve, reject) => offer({ params, key, resolve: resolve as Waiting['resolve'], reject })) };
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
