import { readdirSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { isUniqueViolation, openDatabase, type Database } from '../../src/db/database';

/**
 * PGlite in a worker thread of its own (the default of `npm start`): rows, errors and transactions as PGlite
 * gives them in the caller's thread, while the caller's event loop keeps running during a statement.
 */
let db: Database;

beforeAll(async () => {
  db = await openDatabase({});
  await db.query('CREATE TABLE t (id int PRIMARY KEY, content bytea, data jsonb, at timestamptz, amount numeric)');
}, 60_000);
afterAll(async () => db?.close());

/** How many times a 5 ms timer ran while `work` ran: none when the work held the event loop. */
async function ticksDuring(work: () => Promise<unknown>): Promise<number> {
  let ticks = 0;
  const timer = setInterval(() => ticks++, 5);
  try {
    await work();
  } finally {
    clearInterval(timer);
  }
  return ticks;
}

const heavyStatement = 'SELECT count(*)::int AS n FROM generate_series(1, 3000000) AS g WHERE g % 7 = 3';

describe('PGlite in its own thread', () => {
  it('gives rows as PGlite does: bytea as a Buffer, JSON as objects, timestamps as Dates', async () => {
    const at = new Date('2026-11-26T08:00:00.000Z');
    await db.query('INSERT INTO t (id, content, data, at, amount) VALUES ($1, $2, $3, $4, $5)', [
      1,
      Buffer.from('İstanbul ğüşiöç'),
      { items: [1, 2] },
      at,
      '12.50',
    ]);
    const { rows } = await db.query<{ id: number; content: Buffer; data: unknown; at: Date }>('SELECT id, content, data, at FROM t WHERE id = $1', [1]);
    expect(rows).toHaveLength(1);
    expect(Buffer.isBuffer(rows[0].content)).toBe(true);
    expect(rows[0].content.toString('utf8')).toBe('İstanbul ğüşiöç');
    expect(rows[0].data).toEqual({ items: [1, 2] });
    expect(rows[0].at).toEqual(at);
  });

  it("names its thread, so that its CPU is told apart from V8's helper threads (Linux)", () => {
    if (process.platform !== 'linux') return;
    const names = readdirSync('/proc/self/task').map((tid) => readFileSync(`/proc/self/task/${tid}/comm`, 'utf8').trim());
    expect(names).toContain('pglite');
  });

  it.each([
    ['in its own thread', true],
    ["in the caller's thread", false],
  ])(
    'stores and reads back every byte value of a bytea, and an empty one (%s)',
    async (_where, pgliteThread) => {
      const other = pgliteThread ? db : await openDatabase({ pgliteThread: false });
      try {
        await other.query('CREATE TABLE IF NOT EXISTS b (id int PRIMARY KEY, content bytea)');
        await other.query('DELETE FROM b');
        const everyByte = Buffer.from(Array.from({ length: 512 }, (_, i) => (i * 7) % 256));
        // A view into a larger buffer: only its own bytes are sent.
        const slice = Buffer.from('xxİyy').subarray(2, 4);
        for (const [id, content] of [everyByte, Buffer.alloc(0), new Uint8Array([0, 255]), slice].entries()) {
          await other.query('INSERT INTO b (id, content) VALUES ($1, $2)', [id, content]);
        }
        const { rows } = await other.query<{ content: Buffer; n: number }>('SELECT content, length(content) AS n FROM b ORDER BY id');
        expect(rows.map((r) => r.n)).toEqual([512, 0, 2, 2]);
        expect(rows.every((r) => Buffer.isBuffer(r.content))).toBe(true);
        expect(rows.map((r) => r.content.toString('hex'))).toEqual([everyByte.toString('hex'), '', '00ff', slice.toString('hex')]);
        await expect(other.query('INSERT INTO b (id, content) VALUES ($1, $2::bytea)', [9, { not: 'bytes' }])).rejects.toThrow(/bytea/);
      } finally {
        if (!pgliteThread) await other.close();
      }
    },
    60_000,
  );

  it("keeps PostgreSQL's error fields: a unique violation is recognised by its code and constraint", async () => {
    const error = await db.query('INSERT INTO t (id) VALUES (1)').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect((error as { code?: string }).code).toBe('23505');
    expect(isUniqueViolation(error, 't_pkey')).toBe(true);
    const syntax = await db.query('SELEC 1').catch((e: unknown) => e as { code?: string; message: string });
    expect(syntax).toMatchObject({ code: '42601' });
  });

  it('commits a transaction whole, rolls one back whole, and runs other statements after it, not inside it', async () => {
    const seen = await db.transaction(async (tx) => {
      await tx.query('INSERT INTO t (id) VALUES (2)');
      return (await tx.query<{ n: number }>('SELECT count(*)::int AS n FROM t')).rows[0].n;
    });
    expect(seen).toBe(2);

    const failed = await db
      .transaction(async (tx) => {
        await tx.query('INSERT INTO t (id) VALUES (3)');
        throw new Error('refused after the insert');
      })
      .catch((e: unknown) => (e as Error).message);
    expect(failed).toBe('refused after the insert');
    // A statement that fails inside a transaction rolls it back too, with the statement's error.
    const violated = await db
      .transaction(async (tx) => {
        await tx.query('INSERT INTO t (id) VALUES (4)');
        await tx.query('INSERT INTO t (id) VALUES (1)');
      })
      .catch((e: unknown) => e);
    expect(isUniqueViolation(violated, 't_pkey')).toBe(true);
    expect((await db.query<{ id: number }>('SELECT id FROM t ORDER BY id')).rows.map((r) => r.id)).toEqual([1, 2]);

    // A statement sent while a transaction is open waits for its end: it never sees the uncommitted row.
    const order: string[] = [];
    let inserted!: () => void;
    const insertDone = new Promise<void>((resolve) => (inserted = resolve));
    await Promise.all([
      db.transaction(async (tx) => {
        await tx.query('INSERT INTO t (id) VALUES (5)');
        inserted();
        await tx.query(heavyStatement);
        order.push('transaction committed');
      }),
      insertDone.then(async () => {
        const n = (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM t')).rows[0].n;
        order.push(`outside saw ${n}`);
      }),
    ]);
    expect(order).toEqual(['transaction committed', 'outside saw 3']);
  });

  it("runs a statement without holding the caller's event loop (PGlite in the caller's thread holds it throughout)", async () => {
    expect(await ticksDuring(() => db.query(heavyStatement))).toBeGreaterThan(0);
    // The same statement on PGlite in this thread: the timer never runs while it works.
    const inThread = await openDatabase({ pgliteThread: false });
    try {
      expect(await ticksDuring(() => inThread.query(heavyStatement))).toBe(0);
    } finally {
      await inThread.close();
    }
  }, 60_000);

  it('plans each distinct statement once and keeps at most `maxStatements` of them, closing the least recently used', async () => {
    const small = await openDatabase({ pgliteMaxStatements: 3 });
    try {
      await small.query('CREATE TABLE p (id int PRIMARY KEY, tags smallint[], note text)');
      const insert = 'INSERT INTO p (id, tags, note) VALUES ($1, $2, $3) RETURNING id';
      for (let id = 1; id <= 5; id++) expect((await small.query(insert, [id, [id, 2], id % 2 ? null : `n${id}`])).rows).toEqual([{ id }]);
      const create = 'CREATE TABLE p (id int PRIMARY KEY, tags smallint[], note text)';
      const prepared = 'SELECT statement FROM pg_prepared_statements ORDER BY statement';
      const kept = async () => (await small.query<{ statement: string }>(prepared)).rows.map((r) => r.statement);
      // Five inserts, one plan.
      expect(await kept()).toEqual([create, insert, prepared].sort());

      const byTag = 'SELECT id FROM p WHERE $1 = ANY(tags) ORDER BY id';
      const byNote = 'SELECT id FROM p WHERE note = $1';
      expect((await small.query(byTag, [2])).rows).toEqual([1, 2, 3, 4, 5].map((id) => ({ id })));
      expect((await small.query(byNote, ['n4'])).rows).toEqual([{ id: 4 }]);
      // Three kept: the table's creation and then the insert, the least recently used, were closed; the insert is prepared again when it comes back.
      expect(await kept()).toEqual([byTag, byNote, prepared].sort());
      expect((await small.query(insert, [6, [], 'n6'])).rows).toEqual([{ id: 6 }]);
      expect((await small.query(byNote, ['n6'])).rows).toEqual([{ id: 6 }]);
    } finally {
      await small.close();
    }
  }, 60_000);

  it('answers a kept statement anew after a schema change altered its rows, and after a failed transaction', async () => {
    await db.query('CREATE TABLE s (id int PRIMARY KEY)');
    await db.query('INSERT INTO s (id) VALUES ($1)', [1]);
    expect((await db.query('SELECT * FROM s WHERE id = $1', [1])).rows).toEqual([{ id: 1 }]);
    await db.query("ALTER TABLE s ADD COLUMN label text NOT NULL DEFAULT 'yeni'");
    expect((await db.query('SELECT * FROM s WHERE id = $1', [1])).rows).toEqual([{ id: 1, label: 'yeni' }]);

    // A statement first prepared in a transaction that then failed stays usable after it.
    const failed = await db
      .transaction(async (tx) => {
        await tx.query('SELECT label FROM s WHERE id > $1', [0]);
        await tx.query('INSERT INTO s (id) VALUES ($1)', [1]);
      })
      .catch((e: unknown) => e);
    expect(isUniqueViolation(failed, 's_pkey')).toBe(true);
    expect((await db.query('SELECT label FROM s WHERE id > $1', [0])).rows).toEqual([{ label: 'yeni' }]);
    // In a transaction that a failed statement aborted, the next statement is refused as PostgreSQL refuses it.
    const aborted = await db
      .transaction(async (tx) => {
        await tx.query('SELEC 1').catch(() => undefined);
        await tx.query('SELECT id FROM s WHERE id < $1', [5]);
      })
      .catch((e: unknown) => e as { code?: string });
    expect(aborted).toMatchObject({ code: '25P02' });
    expect((await db.query('SELECT id FROM s WHERE id < $1', [5])).rows).toEqual([{ id: 1 }]);
  });

  it('refuses statements once closed', async () => {
    const other = await openDatabase({});
    await other.close();
    await expect(other.query('SELECT 1')).rejects.toThrow(/database thread/);
  }, 60_000);
});

describe("the read cache of PGlite's thread", () => {
  const read = 'SELECT o.id, o.note, (SELECT count(*)::int FROM line l WHERE l.order_id = o.id) AS lines FROM orders o WHERE o.id = $1';
  const lookup = async () => (await db.cachedQuery!<{ id: number; note: string; lines: number }>(read, [1])).rows;
  const stats = () => db.readCacheStats!();
  /** Reads once to fill the cache, then runs `change`; the next read must see it, from the database. */
  const seenAfter = async (change: () => Promise<unknown>) => {
    await lookup();
    const before = stats();
    await change();
    const rows = await lookup();
    expect(stats().misses).toBe(before.misses + 1);
    return rows;
  };

  beforeAll(async () => {
    await db.query('CREATE TABLE shop (id int PRIMARY KEY)');
    await db.query('CREATE TABLE orders (id int PRIMARY KEY, shop_id int REFERENCES shop(id) ON DELETE CASCADE, note text)');
    await db.query('CREATE TABLE line (id int PRIMARY KEY, order_id int REFERENCES orders(id) ON DELETE CASCADE)');
    await db.query('CREATE TABLE unrelated (id int PRIMARY KEY, n int)');
    await db.query('CREATE TABLE audit (id int PRIMARY KEY)');
    await db.query(`CREATE FUNCTION audit_note() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN UPDATE orders SET note = 'audited'; RETURN NULL; END $$`);
    await db.query('CREATE TRIGGER audit_note AFTER INSERT ON audit FOR EACH STATEMENT EXECUTE FUNCTION audit_note()');
  });
  beforeEach(async () => {
    await db.query('DELETE FROM shop');
    await db.query('DELETE FROM unrelated');
    await db.query('INSERT INTO shop (id) VALUES (1)');
    await db.query(`INSERT INTO orders (id, shop_id, note) VALUES (1, 1, 'new')`);
    await db.query('INSERT INTO line (id, order_id) VALUES (1, 1), (2, 1)');
  });

  it('answers a read again from the cache while nothing it read has changed, also after writes to other tables', async () => {
    expect(await lookup()).toEqual([{ id: 1, note: 'new', lines: 2 }]);
    const before = stats();
    await db.query('INSERT INTO unrelated (id, n) VALUES (1, 1)');
    await db.query('UPDATE unrelated SET n = n + 1');
    expect(await lookup()).toEqual([{ id: 1, note: 'new', lines: 2 }]);
    expect(stats()).toMatchObject({ hits: before.hits + 1, misses: before.misses });
    // Different parameters are a different read.
    expect((await db.cachedQuery!(read, [2])).rows).toEqual([]);
    expect(stats().misses).toBe(before.misses + 1);
  });

  it('answers the version of the rows: the same while they are answered from the cache, another once read anew after a change', async () => {
    const first = await db.cachedQuery!(read, [1]);
    expect(first.version).toEqual(expect.any(Number));
    await db.query('INSERT INTO unrelated (id, n) VALUES (2, 1)');
    expect((await db.cachedQuery!(read, [1])).version).toBe(first.version);
    await db.query(`UPDATE orders SET note = 'versioned' WHERE id = 1`);
    const after = await db.cachedQuery!(read, [1]);
    expect(after.rows).toEqual([{ id: 1, note: 'versioned', lines: 2 }]);
    expect(after.version).toBeGreaterThan(first.version!);
  });

  it('reads anew after a statement changed a table it read: an update, an insert into a table of its subquery, a delete', async () => {
    expect(await seenAfter(() => db.query(`UPDATE orders SET note = 'changed' WHERE id = 1`))).toEqual([{ id: 1, note: 'changed', lines: 2 }]);
    expect(await seenAfter(() => db.query('INSERT INTO line (id, order_id) VALUES (3, 1)'))).toEqual([{ id: 1, note: 'changed', lines: 3 }]);
    expect(await seenAfter(() => db.query('DELETE FROM line WHERE id = 3'))).toEqual([{ id: 1, note: 'changed', lines: 2 }]);
  });

  it('reads anew after a change in a WITH … SELECT statement (its tag says SELECT)', async () => {
    const rows = await seenAfter(() => db.query(`WITH changed AS (UPDATE orders SET note = 'by cte' RETURNING id) SELECT count(*) AS n FROM changed`));
    expect(rows).toEqual([{ id: 1, note: 'by cte', lines: 2 }]);
  });

  it("reads anew after a delete that reaches its tables only through foreign keys' ON DELETE CASCADE", async () => {
    expect(await seenAfter(() => db.query('DELETE FROM shop WHERE id = 1'))).toEqual([]);
  });

  it('reads anew after a write to a table whose trigger changes another table', async () => {
    expect(await seenAfter(() => db.query('INSERT INTO audit (id) VALUES (1)'))).toEqual([{ id: 1, note: 'audited', lines: 2 }]);
    await db.query('DELETE FROM audit');
  });

  it('reads anew after statements without a plan (TRUNCATE, DDL)', async () => {
    expect(await seenAfter(() => db.query('TRUNCATE line'))).toEqual([{ id: 1, note: 'new', lines: 0 }]);
    expect(await seenAfter(() => db.query('ALTER TABLE unrelated ADD COLUMN IF NOT EXISTS extra int'))).toEqual([{ id: 1, note: 'new', lines: 0 }]);
  });

  it('reads anew after a transaction that changed its tables commits, not while it is open, and keeps the cache after a rollback', async () => {
    await lookup();
    await expect(
      db.transaction(async (tx) => {
        await tx.query(`UPDATE orders SET note = 'rolled back' WHERE id = 1`);
        throw new Error('undo');
      }),
    ).rejects.toThrow('undo');
    const before = stats();
    expect(await lookup()).toEqual([{ id: 1, note: 'new', lines: 2 }]);
    expect(stats().hits).toBe(before.hits + 1);
    const rows = await seenAfter(() =>
      db.transaction(async (tx) => {
        await tx.query(`UPDATE orders SET note = 'committed' WHERE id = 1`);
        // The statement changed the table inside the transaction; a first EXPLAIN of it there did not fail it.
        await tx.query('SELECT 1 AS one');
      }),
    );
    expect(rows).toEqual([{ id: 1, note: 'committed', lines: 2 }]);
  });

  describe('reads of one text sent together', () => {
    const batch = {
      sql: `SELECT k.n, o.id, o.note, (SELECT count(*)::int FROM line l WHERE l.order_id = o.id) AS lines
        FROM unnest($1::int[]) WITH ORDINALITY AS k(id, n) JOIN orders o ON o.id = k.id`,
    };
    const together = (ids: number[]) => Promise.all(ids.map((id) => db.cachedQuery!(read, [id], { batch }).then((r) => r.rows)));

    beforeEach(async () => {
      await db.query(`INSERT INTO orders (id, shop_id, note) SELECT g, 1, 'order ' || g FROM generate_series(2, 40) g`);
    });

    it('go as one batch when sent in one turn of the event loop, those sent while it is with the database as the next, each answered with its own rows', async () => {
      const before = stats();
      const ids = [3, 4, 999, 5, 3, 6, 7, 8, 9, 10, 11, 12, 13];
      // No id of the first batch: were it back already (a slow turn under load), its answers would be cache hits.
      const later = [14, 15, 998, 16, 17, 18, 19, 20];
      const first = together(ids);
      await new Promise((resolve) => setImmediate(resolve));
      await new Promise((resolve) => setImmediate(resolve)); // the first batch is with the database now
      const second = together(later);
      const expected = (list: number[]) => list.map((id) => (id > 40 ? [] : [{ id, note: `order ${id}`, lines: 0 }]));
      expect(await first).toEqual(expected(ids));
      expect(await second).toEqual(expected(later));
      expect(stats().batched - before.batched).toBe(ids.length + later.length);
      // The batch's answers are kept per read.
      const kept = stats();
      expect(await together([4, 999, 20])).toEqual([[{ id: 4, note: 'order 4', lines: 0 }], [], [{ id: 20, note: 'order 20', lines: 0 }]]);
      expect(stats().hits - kept.hits).toBe(3);
    });

    it('reads anew after a change, and fail together when their statement fails', async () => {
      await together([21, 22, 23]);
      await db.query(`UPDATE orders SET note = 'later' WHERE id BETWEEN 21 AND 23`);
      expect((await together([21, 22, 23])).flat().map((r) => (r as { note: string }).note)).toEqual(['later', 'later', 'later']);
      const broken = { sql: 'SELECT k.n, 1 / 0 AS boom FROM unnest($1::int[]) WITH ORDINALITY AS k(id, n)' };
      const results = await Promise.allSettled([24, 25, 26, 27].map((id) => db.cachedQuery!(read, [id], { batch: broken })));
      expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected', 'rejected', 'rejected']);
      expect((results[1] as PromiseRejectedResult).reason).toMatchObject({ code: '22012' });
      // A read alone goes with the single text.
      expect((await db.cachedQuery!(read, [28], { batch: broken })).rows).toEqual([{ id: 28, note: 'order 28', lines: 0 }]);
    });
  });

  it('keeps what `keep` makes of each row, made once per row read and given to every read it answers, alone and in batches', async () => {
    await db.query(`INSERT INTO orders (id, shop_id, note) SELECT g, 1, 'kept ' || g FROM generate_series(41, 45) g ON CONFLICT (id) DO NOTHING`);
    const made: number[] = [];
    const keep = (row: Record<string, unknown>) => {
      made.push(row.id as number);
      return Object.freeze({ order: row.id as number, text: `${row.note} (${row.lines})` });
    };
    const batch = { sql: `SELECT k.n, o.id, o.note, 0 AS lines FROM unnest($1::int[]) WITH ORDINALITY AS k(id, n) JOIN orders o ON o.id = k.id` };
    const [alone] = (await db.cachedQuery!(read, [41], { keep })).rows;
    expect(alone).toEqual({ order: 41, text: 'kept 41 (0)' });
    expect((await db.cachedQuery!(read, [41], { keep })).rows[0]).toBe(alone);
    const together = await Promise.all([42, 43, 44].map((id) => db.cachedQuery!(read, [id], { batch, keep })));
    expect(together.map((r) => r.rows)).toEqual([42, 43, 44].map((id) => [{ order: id, text: `kept ${id} (0)` }]));
    const again = await Promise.all([42, 43, 44].map((id) => db.cachedQuery!(read, [id], { batch, keep })));
    again.forEach((r, i) => expect(r.rows[0]).toBe(together[i].rows[0]));
    expect(made).toEqual([41, 42, 43, 44]);
  });

  it('never keeps rows read before a change it hears of later: a read and a write sent together', async () => {
    await lookup();
    const [old] = await Promise.all([db.cachedQuery!(read, [1]), db.query(`UPDATE orders SET note = 'raced' WHERE id = 1`)]);
    expect(old.rows).toEqual([{ id: 1, note: 'new', lines: 2 }]);
    expect(await lookup()).toEqual([{ id: 1, note: 'raced', lines: 2 }]);
    const [first] = await Promise.all([db.cachedQuery!(read, [2]), db.query(`INSERT INTO orders (id, shop_id, note) VALUES (2, 1, 'second')`)]);
    expect(first.rows).toEqual([]);
    expect((await db.cachedQuery!(read, [2])).rows).toEqual([{ id: 2, note: 'second', lines: 0 }]);
    // A read that misses, sent after a change that is still on its way: its rows are those after the change, but
    // it was sent before the change was heard of, so they are neither kept nor given a version.
    await db.query(`UPDATE orders SET note = 'second' WHERE id = 2`);
    const [, raced] = await Promise.all([db.query(`UPDATE orders SET note = 'third' WHERE id = 2`), db.cachedQuery!(read, [2])]);
    expect(raced.rows).toEqual([{ id: 2, note: 'third', lines: 0 }]);
    expect(raced).not.toHaveProperty('version');
    const before = stats();
    expect((await db.cachedQuery!(read, [2])).version).toEqual(expect.any(Number));
    expect(stats().misses).toBe(before.misses + 1);
  });
});
