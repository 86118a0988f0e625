import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { setTimeout as sleep } from 'node:timers/promises';
import { startTestService, type TestService } from '../support/test-service';

/** the API (docs/api.md): lookups by reference and by id share 300 requests per minute per API key, sliding window. */
describe.each([
  ['in process', {}],
  ['shared through Redis', { REDIS_URL: 'redis://127.0.0.1:6379' }],
])('lookup rate limit (%s)', (_name, env) => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startTestService(env);
  });
  afterAll(async () => svc?.stop());

  it('lets 300 of 310 concurrent lookups through and refuses the rest with 429', async () => {
    const { apiKey } = await svc.customer('Rate limited');
    const other = await svc.customer('Not limited');
    // The limiter answers once its store is reachable (a Redis client still connecting on a loaded machine
    // fails open, without RateLimit-Limit): the burst below tests the limit, not the start-up.
    for (let i = 0; i < 100; i++) {
      const warm = await svc.request({ method: 'GET', url: '/api/v1/consignments/1/details', apiKey: other.apiKey });
      if (warm.headers['ratelimit-limit']) break;
      await sleep(100);
    }
    const urls = Array.from({ length: 310 }, (_, i) =>
      i % 2 ? `/api/v1/consignments/${1_000_000 + i}/details` : `/api/v1/consignments/find/reference_no/NONE-${i}`,
    );
    const results = await Promise.all(urls.map((url) => svc.request({ method: 'GET', url, apiKey, lang: 'tr' })));
    const limited = results.filter((r) => r.statusCode === 429);
    expect(results.filter((r) => r.statusCode === 404)).toHaveLength(300);
    expect(limited).toHaveLength(10);
    expect(limited[0].json()).toEqual({ status: false, errors: [{ message: 'İstek sınırı aşıldı.' }] });
    expect(Number(limited[0].headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(limited[0].headers['ratelimit-remaining']).toBe('0');
    expect(results.find((r) => r.statusCode === 404)!.headers['ratelimit-limit']).toBe('300');
    // another key has its own budget, and other endpoints are not limited
    expect((await svc.request({ method: 'GET', url: '/api/v1/consignments/1/details', apiKey: other.apiKey })).statusCode).toBe(404);
    expect((await svc.request({ method: 'PUT', url: '/api/v1/consignments/draft/1', apiKey, payload: {} })).statusCode).toBe(404);
  });
});
