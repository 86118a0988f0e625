import { describe, expect, it } from '@jest/globals';
import { createMemoryRateLimiter } from '../../../src/api/plugins/rate-limit';

const T0 = 1_700_000_000_000;

describe('memory rate limiter (sliding window log)', () => {
  it('allows exactly `limit` requests in a window and refuses the next with the right retryAfter', async () => {
    const limiter = createMemoryRateLimiter({ limit: 3, windowMs: 60_000 });
    const results = [];
    for (const at of [0, 1_000, 2_000]) results.push(await limiter.hit('k', T0 + at));
    expect(results.map((r) => [r.allowed, r.remaining])).toEqual([
      [true, 2],
      [true, 1],
      [true, 0],
    ]);
    expect(results[0]).toEqual({ allowed: true, limit: 3, remaining: 2, resetMs: 60_000, retryAfterMs: 0 });

    const refused = await limiter.hit('k', T0 + 10_000);
    // the oldest request (T0) leaves the window at T0 + 60 s
    expect(refused).toEqual({ allowed: false, limit: 3, remaining: 0, resetMs: 50_000, retryAfterMs: 50_000 });

    // still refused one ms before the oldest leaves; allowed when it does (refusals were not recorded)
    expect((await limiter.hit('k', T0 + 59_999)).allowed).toBe(false);
    const freed = await limiter.hit('k', T0 + 60_000);
    expect(freed).toMatchObject({ allowed: true, remaining: 0, resetMs: 1_000 });
    await limiter.close();
  });

  it('slides: after half a window only the old half frees up', async () => {
    const limiter = createMemoryRateLimiter({ limit: 4, windowMs: 1_000 });
    // two requests at t=0, two at t=500
    for (const at of [0, 0, 500, 500]) expect((await limiter.hit('k', T0 + at)).allowed).toBe(true);
    expect((await limiter.hit('k', T0 + 999)).allowed).toBe(false);
    // at t=1000 the two from t=0 have left: exactly two slots, not a fresh budget of four as a fixed window would give
    const at1000 = [];
    for (let i = 0; i < 3; i++) at1000.push(await limiter.hit('k', T0 + 1_000));
    expect(at1000.map((r) => r.allowed)).toEqual([true, true, false]);
    expect(at1000[2].retryAfterMs).toBe(500); // the t=500 pair leaves at t=1500
    // at t=1500 the t=500 pair leaves: two more
    expect((await limiter.hit('k', T0 + 1_500)).allowed).toBe(true);
    expect((await limiter.hit('k', T0 + 1_500)).allowed).toBe(true);
    expect((await limiter.hit('k', T0 + 1_500)).allowed).toBe(false);
  });

  it('keeps keys independent', async () => {
    const limiter = createMemoryRateLimiter({ limit: 2, windowMs: 60_000 });
    expect((await limiter.hit('a', T0)).allowed).toBe(true);
    expect((await limiter.hit('a', T0)).allowed).toBe(true);
    expect((await limiter.hit('a', T0)).allowed).toBe(false);
    expect(await limiter.hit('b', T0)).toMatchObject({ allowed: true, remaining: 1 });
    expect((await limiter.hit('b', T0)).allowed).toBe(true);
    expect((await limiter.hit('b', T0)).allowed).toBe(false);
  });

  it('is exact under concurrent hits', async () => {
    const limiter = createMemoryRateLimiter({ limit: 20, windowMs: 60_000 });
    const results = await Promise.all(Array.from({ length: 50 }, () => limiter.hit('k')));
    expect(results.filter((r) => r.allowed)).toHaveLength(20);
    expect(results.filter((r) => !r.allowed).every((r) => r.remaining === 0 && r.retryAfterMs > 0)).toBe(true);
  });

  it('evicts idle keys, so memory stays bounded', async () => {
    const limiter = createMemoryRateLimiter({ limit: 5, windowMs: 1_000 });
    for (let i = 0; i < 1_000; i++) await limiter.hit(`key-${i}`, T0 + (i % 100));
    expect(limiter.size()).toBe(1_000);
    // once a window has passed, the next hit sweeps every key whose requests all left the window
    await limiter.hit('fresh', T0 + 1_100);
    expect(limiter.size()).toBe(1);
    // a key active within the window survives the sweep
    await limiter.hit('active', T0 + 1_900);
    await limiter.hit('other', T0 + 2_200);
    expect(limiter.size()).toBe(2); // 'active' (t=1900) and 'other'; 'fresh' (t=1100) left the window at t=2100
  });

  it('never holds more than `limit` stamps for a key', async () => {
    const limiter = createMemoryRateLimiter({ limit: 3, windowMs: 60_000 });
    for (let i = 0; i < 100; i++) await limiter.hit('k', T0 + i);
    const r = await limiter.hit('k', T0 + 100);
    expect(r).toMatchObject({ allowed: false, remaining: 0, retryAfterMs: 60_000 - 100 });
  });

  it('rejects nonsensical options', () => {
    expect(() => createMemoryRateLimiter({ limit: 0, windowMs: 1_000 })).toThrow(RangeError);
    expect(() => createMemoryRateLimiter({ limit: 1, windowMs: 0 })).toThrow(RangeError);
  });
});
