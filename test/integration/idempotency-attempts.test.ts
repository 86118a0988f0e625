import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createCustomer } from '../../src/db/customers.repository';
import type { Database } from '../../src/db/database';
import { claimIdempotencyKey, nextIdempotencyAttempt } from '../../src/db/idempotency.repository';
import { migrate } from '../../src/db/migrate';
import { openTestDatabase } from '../support/test-service';

/**
 * The tries of an Idempotency-Key (docs/api.md#idempotency): a try that ended without an outcome moves the key to
 * the next one, once, however many requests saw it end at the same time.
 */
let db: Database;
let drop: () => Promise<void>;
let customerId: number;

beforeAll(async () => {
  ({ db, drop } = await openTestDatabase());
  await migrate(db);
  customerId = (await createCustomer(db, { name: 'Attempts' })).caller.customerId;
}, 60_000);
afterAll(async () => drop?.());

const identity = (key: string) => ({ customerId, scope: 'process:1', key });
const claim = (key: string) => claimIdempotencyKey(db, { ...identity(key), requestHash: 'h', resourceUuid: randomUUID() });

describe('idempotency key attempts', () => {
  it('starts at try 1 for the first request only; a later request sees the earlier one’s try', async () => {
    const first = await claim('k1');
    expect(first).toMatchObject({ attempt: 1, fresh: true, response_status: null });
    const again = await claim('k1');
    expect(again).toMatchObject({ attempt: 1, fresh: false, resource_uuid: first.resource_uuid });
  });

  it('moves on once when concurrent requests saw the same try end, and a late one does not move it again', async () => {
    await claim('k2');
    const moved = await Promise.all([1, 2, 3].map(() => nextIdempotencyAttempt(db, identity('k2'), 1)));
    expect(moved).toEqual([2, 2, 2]);
    expect((await claim('k2')).attempt).toBe(2);
    expect(await nextIdempotencyAttempt(db, identity('k2'), 1)).toBe(2);
    expect(await nextIdempotencyAttempt(db, identity('k2'), 2)).toBe(3);
    expect((await claim('k2')).attempt).toBe(3);
  });
});
