import { describe, expect, it } from '@jest/globals';
import { knownCallers } from '../../../src/api/plugins/auth';
import { hashApiKey, type Caller } from '../../../src/db/customers.repository';
import type { Queryable } from '../../../src/db/database';

const caller = {
  customerId: 7,
  customerCode: 'C000007',
  customerName: 'Acme',
  authorizedName: null,
  userId: 3,
  firstname: 'A',
  lastname: 'B',
} as unknown as Caller;

/** A database that knows one key and counts the statements it is asked. */
function keyTable(valid: string) {
  let statements = 0;
  const db: Queryable = {
    query: async <T>(_sql: string, params?: unknown[]) => {
      statements++;
      return { rows: (params?.[0] === hashApiKey(valid) ? [caller] : []) as T[] };
    },
  };
  return { db, statements: () => statements };
}

describe('API keys found valid are remembered for a short time', () => {
  it('asks the database once per key within ten seconds, again after', async () => {
    const table = keyTable('cf_valid');
    let now = 1_000_000;
    const callerOf = knownCallers(table.db, () => now);
    expect(await callerOf('cf_valid')).toEqual(caller);
    now += 9_999;
    expect(await callerOf('cf_valid')).toEqual(caller);
    expect(table.statements()).toBe(1);
    now += 2;
    expect(await callerOf('cf_valid')).toEqual(caller);
    expect(table.statements()).toBe(2);
  });

  it('never remembers a key that was not found', async () => {
    const table = keyTable('cf_valid');
    const callerOf = knownCallers(table.db, () => 0);
    expect(await callerOf('cf_unknown')).toBeUndefined();
    expect(await callerOf('cf_unknown')).toBeUndefined();
    expect(table.statements()).toBe(2);
  });
});
