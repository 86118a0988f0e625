import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import Fastify, { type FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import pino from 'pino';
import { installErrorHandling } from '../../src/api/errors';
import { i18nPlugin } from '../../src/api/plugins/i18n';
import { createMemoryRateLimiter, createRateLimiter, createRedisRateLimiter, rateLimitHook, type RateLimiter } from '../../src/api/plugins/rate-limit';

/** The local Redis of the development machine and CI (REDIS_URL overrides). */
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const DOWN_REDIS_URL = 'redis://127.0.0.1:1';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let redis: Redis;
const cleanups: (() => Promise<unknown>)[] = [];

beforeAll(async () => {
  redis = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
  await redis.ping();
});
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});
afterAll(async () => {
  await redis?.quit();
});

/** A prefix of its own per test; its keys are deleted afterwards (they would expire by themselves anyway). */
function uniquePrefix(): string {
  const prefix = `consignflow-test:ratelimit:${randomUUID()}:`;
  cleanups.push(async () => {
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length) await redis.del(...keys);
  });
  return prefix;
}

/** A separate connection, as a separate API process would have. */
async function connection(): Promise<Redis> {
  const client = new Redis(REDIS_URL, { maxRetriesPerRequest: 1, enableOfflineQueue: false, lazyConnect: true });
  await client.connect();
  cleanups.push(() => client.quit());
  return client;
}

describe('Redis rate limiter', () => {
  it('allows exactly `limit` of 50 concurrent hits', async () => {
    const limiter = createRedisRateLimiter({ redis: await connection(), limit: 20, windowMs: 60_000, prefix: uniquePrefix() });
    const results = await Promise.all(Array.from({ length: 50 }, () => limiter.hit('key-a')));
    expect(results.filter((r) => r.allowed)).toHaveLength(20);
    const refused = results.filter((r) => !r.allowed);
    expect(refused).toHaveLength(30);
    for (const r of refused) {
      expect(r.remaining).toBe(0);
      expect(r.retryAfterMs).toBeGreaterThan(55_000);
      expect(r.retryAfterMs).toBeLessThanOrEqual(60_000);
    }
    expect(
      results
        .filter((r) => r.allowed)
        .map((r) => r.remaining)
        .sort((a, b) => a - b),
    ).toEqual(Array.from({ length: 20 }, (_, i) => i));
    // another key has its own budget
    expect(await limiter.hit('key-b')).toMatchObject({ allowed: true, remaining: 19 });
  });

  it('shares one budget between two API processes', async () => {
    const prefix = uniquePrefix();
    const first = createRedisRateLimiter({ redis: await connection(), limit: 10, windowMs: 60_000, prefix });
    const second = createRedisRateLimiter({ redis: await connection(), limit: 10, windowMs: 60_000, prefix });
    const results = await Promise.all(Array.from({ length: 30 }, (_, i) => (i % 2 ? first : second).hit('shared')));
    expect(results.filter((r) => r.allowed)).toHaveLength(10);
    expect((await first.hit('shared')).allowed).toBe(false);
    expect((await second.hit('shared')).allowed).toBe(false);
  });

  it('slides: after the oldest requests leave the window, only their slots free up', async () => {
    const limiter = createRedisRateLimiter({ redis: await connection(), limit: 5, windowMs: 1_000, prefix: uniquePrefix() });
    for (let i = 0; i < 3; i++) expect((await limiter.hit('k')).allowed).toBe(true);
    await sleep(400);
    for (let i = 0; i < 2; i++) expect((await limiter.hit('k')).allowed).toBe(true);
    const refused = await limiter.hit('k');
    expect(refused.allowed).toBe(false);
    expect(refused.retryAfterMs).toBeGreaterThan(0);
    expect(refused.retryAfterMs).toBeLessThanOrEqual(600);
    // wait until the first three have left; the later two are still in the window
    await sleep(refused.retryAfterMs + 30);
    const after = [];
    for (let i = 0; i < 4; i++) after.push(await limiter.hit('k'));
    expect(after.map((r) => r.allowed)).toEqual([true, true, true, false]);
    expect(after[3].retryAfterMs).toBeGreaterThan(0);
    expect(after[3].retryAfterMs).toBeLessThanOrEqual(400);
  });

  it('sets the key to expire with the window', async () => {
    const prefix = uniquePrefix();
    const limiter = createRedisRateLimiter({ redis: await connection(), limit: 5, windowMs: 30_000, prefix });
    await limiter.hit('k');
    const ttl = await redis.pttl(`${prefix}k`);
    expect(ttl).toBeGreaterThan(25_000);
    expect(ttl).toBeLessThanOrEqual(30_000);
    expect(await redis.zcard(`${prefix}k`)).toBe(1);
  });

  it('rejects hits when Redis is unreachable, without hanging', async () => {
    const limiter = createRateLimiter({ redisUrl: DOWN_REDIS_URL, limit: 5, windowMs: 1_000 });
    cleanups.push(() => limiter.close());
    const started = Date.now();
    await expect(limiter.hit('k')).rejects.toThrow();
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('does not count its own busy event loop as Redis not answering', async () => {
    // A loaded process may run no I/O for longer than the command timeout while Redis answered in time: the
    // answer waiting on the socket counts (it used to time out, and every such lookup went through unlimited).
    const limiter = createRateLimiter({ redisUrl: REDIS_URL, limit: 5, windowMs: 60_000 });
    cleanups.push(() => limiter.close());
    const key = `busy-${randomUUID()}`;
    await limiter.hit(key);
    const pending = limiter.hit(key);
    for (let i = 0; i < 10; i++) await Promise.resolve(); // the command is sent (no I/O turn: its answer waits)
    for (const until = Date.now() + 1_500; Date.now() < until;) {
      // busy: no timers, no I/O
    }
    await expect(pending).resolves.toMatchObject({ allowed: true, remaining: 3 });
  });
});

// ---------------------------------------------------------------------------------------------------------------

interface LogLine {
  level: number;
  msg: string;
}

function buildLimitedApp(limiter: RateLimiter, limit: number): { app: FastifyInstance; logs: LogLine[] } {
  const logs: LogLine[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) logs.push(JSON.parse(line) as LogLine);
      callback();
    },
  });
  const app = Fastify({ loggerInstance: pino({ level: 'warn' }, stream) }) as unknown as FastifyInstance;
  installErrorHandling(app);
  app.register(i18nPlugin);
  app.register(async (scope) => {
    scope.get('/limited', { onRequest: rateLimitHook(limiter, { limit, windowMs: 60_000 }) }, async () => ({ status: true, message: null, data: 'ok' }));
  });
  cleanups.push(() => app.close());
  return { app, logs };
}

const variants: [string, () => RateLimiter][] = [
  ['memory', () => createMemoryRateLimiter({ limit: 3, windowMs: 60_000 })],
  ['Redis', () => createRateLimiter({ redisUrl: REDIS_URL, limit: 3, windowMs: 60_000 })],
];

describe.each(variants)('HTTP rate limit (%s)', (_name, makeLimiter) => {
  let limiter: RateLimiter;
  let apiKey: string;

  beforeAll(() => {
    limiter = makeLimiter();
  });
  afterAll(async () => limiter.close());

  beforeEach(() => {
    // a fresh key per test: the Redis budget of a key outlives the app
    apiKey = `cf_test_${randomUUID()}`;
  });

  it('answers 3 requests with a decreasing remaining budget, then 429 with Retry-After', async () => {
    const { app } = buildLimitedApp(limiter, 3);
    const responses = [];
    for (let i = 0; i < 4; i++) responses.push(await app.inject({ method: 'GET', url: '/limited', headers: { apikey: apiKey } }));
    expect(responses.map((r) => r.statusCode)).toEqual([200, 200, 200, 429]);
    expect(responses.map((r) => r.headers['ratelimit-remaining'])).toEqual(['2', '1', '0', '0']);
    for (const r of responses) {
      expect(r.headers['ratelimit-limit']).toBe('3');
      expect(r.headers['ratelimit-policy']).toBe('3;w=60');
      expect(Number(r.headers['ratelimit-reset'])).toBeGreaterThanOrEqual(59);
      expect(Number(r.headers['ratelimit-reset'])).toBeLessThanOrEqual(60);
    }
    expect(responses[0].headers['retry-after']).toBeUndefined();
    const refused = responses[3];
    expect(refused.json()).toEqual({ status: false, errors: [{ message: 'Rate limit exceeded.' }] });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(59);
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(60);
    expect(refused.headers['content-language']).toBe('en');

    // the budget is per API key, whichever header carries it
    const other = await app.inject({ method: 'GET', url: '/limited', headers: { authorization: `APIKEY ${apiKey}-other` } });
    expect(other.statusCode).toBe(200);
    const same = await app.inject({ method: 'GET', url: '/limited', headers: { authorization: `APIKEY ${apiKey}` } });
    expect(same.statusCode).toBe(429);
  });

  it('says it in Turkish', async () => {
    const { app } = buildLimitedApp(limiter, 3);
    for (let i = 0; i < 3; i++) expect((await app.inject({ method: 'GET', url: '/limited', headers: { apikey: apiKey } })).statusCode).toBe(200);
    const refused = await app.inject({ method: 'GET', url: '/limited', headers: { apikey: apiKey, 'accept-language': 'tr-TR,tr;q=0.9' } });
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({ status: false, errors: [{ message: 'İstek sınırı aşıldı.' }] });
    expect(refused.headers['content-language']).toBe('tr');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
  });
});

describe('HTTP rate limit with Redis down', () => {
  it('fails open and warns once', async () => {
    const limiter = createRateLimiter({ redisUrl: DOWN_REDIS_URL, limit: 1, windowMs: 60_000 });
    cleanups.push(() => limiter.close());
    const { app, logs } = buildLimitedApp(limiter, 1);
    const responses = [];
    for (let i = 0; i < 3; i++) responses.push(await app.inject({ method: 'GET', url: '/limited', headers: { apikey: 'cf_test_down' } }));
    expect(responses.map((r) => r.statusCode)).toEqual([200, 200, 200]);
    expect(responses[0].headers['ratelimit-policy']).toBe('1;w=60');
    expect(responses[0].headers['ratelimit-remaining']).toBeUndefined();
    const warnings = logs.filter((l) => /rate limiter unavailable/.test(l.msg));
    expect(warnings).toHaveLength(1);
    expect(warnings[0].level).toBe(40);
    // the API key never reaches the log
    expect(JSON.stringify(logs)).not.toContain('cf_test_down');
  });
});
