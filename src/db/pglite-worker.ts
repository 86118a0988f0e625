/**
 * PGlite's thread (started by pglite-thread.ts, which says why PGlite runs in a thread of its own): it opens the
 * database, then answers the API's thread's requests (pglite-protocol.ts) one at a time.
 *
 * Only PGlite's public API is used. This thread is the only user of its PGlite, so it orders the work itself:
 * a statement outside a transaction and a whole transaction (from `begin` to its `commit` or `rollback`) each
 * hold `exclusive` (below) while they run, and a statement inside a transaction runs under PGlite's
 * `runExclusive`, the lock PGlite's own `query` takes. The protocol-level calls (`execProtocolStream`, the
 * `protocol` serializers, `parse`) take no lock of their own; PGLITE_CHECKED_VERSION (pglite-thread.ts) is the
 * version this reading was checked against.
 */
import { writeFileSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite, parse, protocol } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { BYTEA_HEX } from './pglite-bytea';
import type { ErrorData, PgliteAnswer, PgliteRequest, PgliteWorkerData } from './pglite-protocol';

type Row = Record<string, unknown>;
type BackendMessage = Awaited<ReturnType<PGlite['execProtocolStream']>>[number];
/** What a statement read and may have changed ('*': any table). */
type Effects = { reads: string[]; writes: string[] };
/** An open transaction: settles when it has committed or rolled back. */
type OpenTransaction = { changed: Set<string>; done: Promise<void>; commit?: () => void; rollback?: (reason: Error) => void };

const { serialize } = protocol;

/** An error as plain data (the API's thread makes an Error of it again). */
function errorData(error: unknown): ErrorData {
  const object = error && typeof error === 'object' ? (error as Record<string, unknown>) : undefined;
  const data: ErrorData = { message: String((object?.message as string | undefined) || error), name: object?.name as string | undefined };
  for (const [key, value] of Object.entries(object ?? {})) {
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') data[key] = value;
  }
  return data;
}

/**
 * Work run one at a time, in the order it was asked for. A transaction holds it from its BEGIN to its end, so
 * statements sent meanwhile wait for it, never run inside it and never see what it has not committed.
 */
function serialized(): <T>(work: () => Promise<T>) => Promise<T> {
  let tail: Promise<unknown> = Promise.resolve();
  return (work) => {
    const run = tail.then(work, work);
    tail = run.catch(() => undefined);
    return run;
  };
}

/** Statements the plan of which names no tables: DDL and other utility statements. */
const PLANNED = /^\s*\(*\s*(select|insert|update|delete|with|values|table|merge)\b/i;
/** Plans of SQL texts kept at most (texts made from varying input are found again when next run). */
const MAX_EFFECTS = 1000;

/** The thread's database: named prepared statements, and what each statement read and changed. */
function statementsOf(db: PGlite, maxStatements: number) {
  const run = (message: Uint8Array) => db.execProtocolStream(message, { syncToFs: false });
  /** Protocol messages followed by a Sync (which ends the implicit transaction of the extended protocol). */
  const withSync = async (work: () => Promise<BackendMessage[]>) => {
    const messages: BackendMessage[] = [];
    try {
      messages.push(...(await work()));
    } finally {
      messages.push(...(await run(serialize.sync())));
    }
    return messages;
  };

  // Named statements, one per distinct SQL text, least recently used first (a Map keeps insertion order).
  // PGlite's own `query` parses and plans each time; a named statement is parsed once and PostgreSQL keeps a
  // generic plan for it once that costs no more than the custom ones.
  const statements = new Map<string, { name: string; types: number[] }>();
  let statementNo = 0;
  const prepare = async (sql: string) => {
    const known = statements.get(sql);
    if (known) {
      statements.delete(sql);
      statements.set(sql, known);
      return known;
    }
    const name = `cf${++statementNo}`;
    const described = await withSync(async () => [
      ...(await run(serialize.parse({ name, text: sql }))),
      ...(await run(serialize.describe({ type: 'S', name }))),
    ]);
    const statement = { name, types: parse.parseDescribeStatementResults(described) };
    statements.set(sql, statement);
    if (statements.size > maxStatements) {
      const [oldestSql, oldest] = statements.entries().next().value!;
      statements.delete(oldestSql);
      await withSync(() => run(serialize.close({ type: 'S', name: oldest.name })));
    }
    return statement;
  };

  /** PGlite's own `query`, on a named statement: its serializers, its result parser, its rows and errors. */
  const execute = async (sql: string, params: unknown[], inTransaction: boolean): Promise<Row[]> => {
    const statement = await prepare(sql);
    const values = params.map((value, i) => {
      if (value === null || value === undefined) return null;
      const serializer = db.serializers[statement.types[i]];
      return serializer ? serializer(value) : String(value);
    });
    const messages = await withSync(async () => [
      ...(await run(serialize.bind({ statement: statement.name, values }))),
      ...(await run(serialize.describe({ type: 'P' }))),
      ...(await run(serialize.execute({}))),
    ]);
    if (!inTransaction) await db.syncToFs();
    return parse.parseResults(messages, db.parsers)[0].rows as Row[];
  };

  /**
   * What each SQL text reads and may change, from PostgreSQL's own plan (EXPLAIN, once per text): the tables
   * its scans read, and the tables its inserts, updates and deletes write plus those their foreign keys'
   * actions reach (a deleted consignment deletes its history); '*' (everything) for a table with triggers of
   * its own and for statements without a plan (DDL and other utility statements, which also reset what is
   * known). The read cache in the API's thread drops what a committed change may have touched (read-cache.ts).
   * A plan does not show what a function of one's own reads or writes inside its body: the schema has none
   * beyond triggers (taken as everything), and a read that called one could not be cached.
   */
  const effects = new Map<string, Effects>();
  /** table → tables its foreign keys' actions change; and the tables with triggers of their own */
  let cascades: { children: Map<string, string[]>; triggered: Set<string> } | undefined;
  // A statement of its own by the simple query protocol (EXPLAIN (GENERIC_PLAN) takes $n without values there).
  const single = async <T = Row>(text: string) => parse.parseResults(await run(serialize.query(text)), db.parsers)[0].rows as T[];
  const loadCascades = async () => {
    const links = await single<{ parent: string; child: string }>(
      'SELECT p.relname AS parent, c.relname AS child FROM pg_constraint k JOIN pg_class p ON p.oid = k.confrelid JOIN pg_class c ON c.oid = k.conrelid' +
        " WHERE k.contype = 'f' AND (k.confdeltype IN ('c', 'n', 'd') OR k.confupdtype IN ('c', 'n', 'd'))",
    );
    const triggered = await single<{ name: string }>(
      'SELECT DISTINCT c.relname AS name FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid WHERE NOT t.tgisinternal',
    );
    const children = new Map<string, string[]>();
    for (const { parent, child } of links) children.set(parent, [...(children.get(parent) ?? []), child]);
    return { children, triggered: new Set(triggered.map((r) => r.name)) };
  };
  type PlanNode = { 'Node Type': string; 'Relation Name'?: string; Plans?: PlanNode[] };
  const explain = async (sql: string): Promise<Effects> => {
    const known = (cascades ??= await loadCascades());
    const [row] = await single<{ 'QUERY PLAN': string | { Plan: PlanNode }[] }>(`EXPLAIN (GENERIC_PLAN, FORMAT JSON) ${sql}`);
    const plan = row['QUERY PLAN'];
    const reads = new Set<string>();
    const writes = new Set<string>();
    const visit = (node: PlanNode) => {
      const relation = node['Relation Name'];
      if (relation) (node['Node Type'] === 'ModifyTable' ? writes : reads).add(relation);
      for (const child of node.Plans ?? []) visit(child);
    };
    visit((typeof plan === 'string' ? (JSON.parse(plan) as { Plan: PlanNode }[]) : plan)[0].Plan);
    for (const table of writes) for (const child of known.children.get(table) ?? []) writes.add(child);
    return { reads: [...reads], writes: [...writes].some((t) => known.triggered.has(t)) ? ['*'] : [...writes] };
  };
  const effectsOf = async (sql: string, inTransaction: boolean): Promise<Effects> => {
    const known = effects.get(sql);
    if (known) return known;
    let found: Effects = { reads: ['*'], writes: ['*'] };
    if (!PLANNED.test(sql)) {
      effects.clear();
      cascades = undefined;
      return found;
    }
    // Inside a transaction a failed EXPLAIN would fail the transaction: it runs under a savepoint there.
    if (inTransaction) await single('SAVEPOINT cf_effects');
    try {
      found = await explain(sql);
      if (inTransaction) await single('RELEASE SAVEPOINT cf_effects');
    } catch {
      if (inTransaction) await single('ROLLBACK TO SAVEPOINT cf_effects');
    }
    if (effects.size >= MAX_EFFECTS) effects.clear();
    effects.set(sql, found);
    return found;
  };

  // A statement the server no longer has, or whose cached plan's row type a schema change altered, is
  // prepared anew: at once outside a transaction; inside one, whose failure it already is, the next time.
  const stale = (error: unknown) => {
    const e = error as { code?: string; message?: string } | undefined;
    return e?.code === '26000' || (e?.code === '0A000' && /cached plan/.test(e.message ?? ''));
  };

  /** A statement's rows, and what it read and may have changed (see effectsOf). The caller holds the locks. */
  return async (sql: string, params: unknown[], inTransaction: boolean): Promise<Effects & { rows: Row[] }> => {
    const once = async () => {
      const rows = await execute(sql, params, inTransaction);
      return { rows, ...(await effectsOf(sql, inTransaction)) };
    };
    try {
      return await once();
    } catch (error) {
      if (!stale(error)) throw error;
      statements.delete(sql);
      if (inTransaction) throw error;
      return once();
    }
  };
}

async function main(port: NonNullable<typeof parentPort>, data: PgliteWorkerData): Promise<void> {
  // The thread's name in top -H, perf and /proc (Linux; elsewhere this does nothing), so that its CPU is told
  // apart from V8's helper threads, which are all called "node" too.
  try {
    writeFileSync('/proc/thread-self/comm', 'pglite');
  } catch {
    // not Linux
  }
  const post = (answer: PgliteAnswer) => port.postMessage(answer);
  let db: PGlite;
  try {
    db = await PGlite.create({ dataDir: data.dataDir, extensions: { pg_trgm }, startParams: data.startParams, ...BYTEA_HEX });
  } catch (error) {
    post({ id: 0, error: errorData(error) });
    return;
  }
  const query = statementsOf(db, data.maxStatements);
  const exclusive = serialized();
  const transactions = new Map<number, OpenTransaction>();

  /** Answers request `id` with what `work` gives (rows, and what changed and was read), or with its error. */
  const answer = (id: number, work: Promise<{ rows?: unknown[]; changed?: string[]; reads?: string[] }>) =>
    work.then(
      (result) => post({ id, rows: [], ...result }),
      (error: unknown) => post({ id, error: errorData(error) }),
    );
  const notOpen = (tx: number) => Promise.reject(new Error(`transaction ${tx} is not open`));

  port.on('message', (m: PgliteRequest) => {
    switch (m.op) {
      case 'query': {
        const on = m.tx !== undefined ? transactions.get(m.tx) : undefined;
        if (m.tx !== undefined && !on) return answer(m.id, notOpen(m.tx));
        const params = m.params ?? [];
        if (on) {
          return answer(
            m.id,
            db
              .runExclusive(() => query(m.sql, params, true))
              .then(({ rows, writes }) => {
                for (const table of writes) on.changed.add(table);
                return { rows };
              }),
          );
        }
        return answer(
          m.id,
          exclusive(() => db.runExclusive(() => query(m.sql, params, false))).then(({ rows, reads, writes }) => ({
            rows,
            ...(writes.length ? { changed: writes } : {}),
            ...(m.cache ? { reads } : {}),
          })),
        );
      }
      case 'begin': {
        // The transaction's callback waits for its commit or rollback; `exclusive` holds everything else meanwhile.
        const entry: OpenTransaction = { changed: new Set(), done: Promise.resolve() };
        const ready = new Promise<void>((opened) => {
          entry.done = exclusive(() =>
            db.transaction(
              () =>
                new Promise<void>((commit, rollback) => {
                  Object.assign(entry, { commit, rollback });
                  opened();
                }),
            ),
          );
        });
        transactions.set(m.id, entry);
        void entry.done.catch(() => undefined).finally(() => transactions.delete(m.id));
        return answer(
          m.id,
          Promise.race([ready, entry.done]).then(() => ({})),
        );
      }
      case 'commit':
      case 'rollback': {
        const entry = transactions.get(m.tx);
        if (!entry?.commit || !entry.rollback) return answer(m.id, notOpen(m.tx));
        if (m.op === 'commit') {
          entry.commit();
          return answer(
            m.id,
            entry.done.then(() => ({ changed: [...entry.changed] })),
          );
        }
        entry.rollback(new Error('rolled back'));
        return answer(
          m.id,
          entry.done.then(
            () => ({}),
            () => ({}),
          ),
        );
      }
      case 'close':
        return answer(
          m.id,
          db.close().then(() => ({})),
        );
    }
  });
  post({ id: 0, rows: [] });
}

if (parentPort) void main(parentPort, workerData as PgliteWorkerData);
