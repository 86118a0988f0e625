import { describe, expect, it } from '@jest/globals';
import { AccountToken } from '../../../src/carriers/account-token';

function tokens(lifetimeMs = 60_000) {
  let clock = 0;
  let logins = 0;
  const token = new AccountToken(
    async () => {
      logins++;
      await new Promise((resolve) => setImmediate(resolve));
      return { value: `t${logins}`, lifetimeMs };
    },
    { renewEarlyMs: 10_000, now: () => new Date(clock) },
  );
  return { token, logins: () => logins, advance: (ms: number) => (clock += ms) };
}

class Refused extends Error {}

describe('an account token', () => {
  it('logs in once for every call waiting at the same time, then serves the cached token', async () => {
    const t = tokens();
    expect(await Promise.all([t.token.value(), t.token.value(), t.token.value()])).toEqual(['t1', 't1', 't1']);
    expect(await t.token.value()).toBe('t1');
    expect(t.logins()).toBe(1);
  });

  it('renews before the token runs out (its lifetime less the early margin)', async () => {
    const t = tokens(60_000);
    await t.token.value();
    t.advance(49_999);
    expect(await t.token.value()).toBe('t1');
    t.advance(1);
    expect(await t.token.value()).toBe('t2');
  });

  it('renews once when the carrier refuses the token, and calls again with the new one', async () => {
    const t = tokens();
    const seen: string[] = [];
    const result = await t.token.use(
      async (token) => {
        seen.push(token);
        if (token === 't1') throw new Refused();
        return 'ok';
      },
      (e) => e instanceof Refused,
    );
    expect(result).toBe('ok');
    expect(seen).toEqual(['t1', 't2']);
  });

  it('gives up after the second refusal, and passes other failures through untouched', async () => {
    const t = tokens();
    await expect(
      t.token.use(
        () => Promise.reject(new Refused()),
        (e) => e instanceof Refused,
      ),
    ).rejects.toBeInstanceOf(Refused);
    expect(t.logins()).toBe(2);
    const other = new Error('HTTP 500');
    await expect(
      t.token.use(
        () => Promise.reject(other),
        (e) => e instanceof Refused,
      ),
    ).rejects.toBe(other);
    expect(t.logins()).toBe(2);
  });
});
