import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { setTimeout as sleep } from 'node:timers/promises';
import { openDatabase, type Database } from '../../src/db/database';
import { classify } from '../../src/api/errors';

/**
 * A PostgreSQL connection cut while the service holds it (a server restart, a failover, an administrator's
 * pg_terminate_backend) fails the work on it with an error a retry cures, and the process lives on: pg emits
 * such a loss as an 'error' event on the checked-out client, which kills the process when nobody listens
 * (found by test/integration/scale-out.test.ts: a worker died holding the outbox relay's advisory lock while
 * PostgreSQL restarted).
 */
const url = process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/test';
let db: Database;
let admin: Database;

beforeAll(async () => {
  db = await openDatabase({ url, poolSize: 3 });
  admin = await openDatabase({ url, poolSize: 1 });
});
afterAll(async () => {
  await db?.close();
  await admin?.close();
});

const terminate = (pid: number) => admin.query('SELECT pg_terminate_backend($1)', [pid]);

describe('a connection cut while checked out', () => {
  it('under an advisory lock: the locked work finishes, the pool hands out working connections after', async () => {
    const key = 918_273_645;
    const result = await db.withLock(key, async () => {
      const { rows } = await admin.query<{ pid: number }>(`SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND objid = $1 AND granted`, [key]);
      await terminate(rows[0].pid);
      await sleep(300); // the client hears of it while idle in our hands
      return 'done';
    });
    expect(result).toBe('done');
    for (let i = 0; i < 5; i++) expect((await db.query<{ one: number }>('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
  });

  it('inside a transaction: the transaction fails with an error that means "retry later", not a crash', async () => {
    const attempt = db.transaction(async (tx) => {
      const { rows } = await tx.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
      await terminate(rows[0].pid);
      await sleep(300);
      await tx.query('SELECT 1');
    });
    const error = await attempt.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeDefined();
    expect(classify(error)?.code).toBe('SERVICE_UNAVAILABLE');
    expect((await db.query<{ one: number }>('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
  });
});
