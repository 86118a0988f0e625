import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createCustomer } from '../../src/db/customers.repository';
import type { Database } from '../../src/db/database';
import { claimIdempotencyKey, IDEMPOTENCY_TTL_HOURS, nextIdempotencyAttempt } from '../../src/db/idempotency.repository';
import { migrate } from '../../src/db/migrate';
import { startIdempotencyPurge } from '../../src/services/idempotency-purge';
import { openTestDatabase } from '../support/test-service';

/**
 * Idempotency keys (docs/api.md#idempotency): the table stays bounded (the API process purges keys past their 24
 * hours), and a try that ended without an outcome moves its key to the next one, once, however many requests saw
 * it end at the same time.
 */
let db: Database;
let drop: () => Promise<void>;
let customerId: number;

beforeAll(async () => {
  ({ db, drop } = await openTestDatabase());
  await migrate(db);
  customerId = (await createCustomer(db, { name: 'Purge' })).caller.customerId;
}, 60_000);
afterAll(async () => drop?.());

const claim = (key: string) => claimIdempotencyKey(db, { customerId, scope: 'draft', key, requestHash: 'h', resourceUuid: randomUUID() });
const keys = async () =>
  (await db.query<{ key: string }>('SELECT key FROM idempotency_keys WHERE customer_id = $1 ORDER BY key', [customerId])).rows.map((r) => r.key);

describe('idempotency key purge', () => {
  it('deletes the expired keys at start and on every tick, and keeps the live ones', async () => {
    await claim('expired-1');
    await claim('live');
    const age = async (key: string) =>
      db.query(
        `UPDATE idempotency_keys SET created_at = now() - interval '${IDEMPOTENCY_TTL_HOURS} hours' - interval '1 minute' WHERE customer_id = $1 AND key = $2`,
        [customerId, key],
      );
    await age('expired-1');

    const purge = startIdempotencyPurge({ db, intervalMs: 60_000 });
    try {
      // The purge at start runs at once; run() joins it (or runs another) and answers once it is done.
      await purge.run();
      expect(await keys()).toEqual(['live']);

      await claim('expired-2');
      await age('expired-2');
      expect(await purge.run()).toBe(1);
      expect(await keys()).toEqual(['live']);
      expect(await purge.run()).toBe(0);
    } finally {
      purge.stop();
    }
  });
});

const identity = (key: string) => ({ customerId, scope: 'process:1', key });
const claimForProcess = (key: string) => claimIdempotencyKey(db, { ...identity(key), requestHash: 'h', resourceUuid: randomUUID() });

describe('idempotency key attempts', () => {
  it('starts at try 1 for the first request only; a later request sees the earlier one’s try', async () => {
    const first = await claimForProcess('k1');
    expect(first).toMatchObject({ attempt: 1, fresh: true, response_status: null });
    const again = await claimForProcess('k1');
    expect(again).toMatchObject({ attempt: 1, fresh: false, resource_uuid: first.resource_uuid });
  });

  it('moves on once when concurrent requests saw the same try end, and a late one does not move it again', async () => {
    await claimForProcess('k2');
    const moved = await Promise.all([1, 2, 3].map(() => nextIdempotencyAttempt(db, identity('k2'), 1)));
    expect(moved).toEqual([2, 2, 2]);
    expect((await claimForProcess('k2')).attempt).toBe(2);
    expect(await nextIdempotencyAttempt(db, identity('k2'), 1)).toBe(2);
    expect(await nextIdempotencyAttempt(db, identity('k2'), 2)).toBe(3);
    expect((await claimForProcess('k2')).attempt).toBe(3);
  });
});
