import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import pino from 'pino';
import { Writable } from 'node:stream';
import { buildApp } from '../../src/api/app';
import type { ConsignmentService } from '../../src/services/consignments.service';
import { appDoubles } from '../support/app-doubles';
import { startTestService, type TestService } from '../support/test-service';

let svc: TestService;
let key: string;

beforeAll(async () => {
  svc = await startTestService();
  ({ apiKey: key } = await svc.customer('Plumbing'));
});
afterAll(async () => svc?.stop());

const envelopeOf = (body: string) => JSON.parse(body) as { status: boolean; errors: { message: string; field?: string }[] };

describe('authentication (docs/api.md)', () => {
  it.each([
    ['no key', {}],
    ['unknown APIKEY header', { apikey: 'cf_nope' }],
    ['unknown Authorization APIKEY', { authorization: 'APIKEY cf_nope' }],
    ['wrong scheme', { authorization: `Bearer ${'x'}` }],
  ])('refuses %s with 401', async (_name, headers) => {
    const res = await svc.request({ method: 'GET', url: '/api/v1/consignments/1/details', headers });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ status: false, errors: [{ message: 'Invalid API key.' }] });
  });

  it('says it in Turkish', async () => {
    const res = await svc.request({ method: 'GET', url: '/api/v1/consignments/1/details', lang: 'tr-TR,tr;q=0.9' });
    expect(res.json().errors[0].message).toBe('Geçersiz API anahtarı.');
    expect(res.headers['content-language']).toBe('tr');
  });

  it('accepts both header forms of a valid key', async () => {
    for (const headers of [{ apikey: key }, { authorization: `APIKEY ${key}` }, { authorization: `apikey ${key}` }]) {
      const res = await svc.request({ method: 'GET', url: '/api/v1/consignments/424242/details', headers });
      expect(res.statusCode).toBe(404);
    }
  });

  it('stores only a hash of each key', async () => {
    const { rows } = await svc.db.query<{ key_hash: string }>('SELECT key_hash FROM api_keys');
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.some((r) => r.key_hash === key || r.key_hash.includes(key))).toBe(false);
  });
});

describe('envelope on every refusal', () => {
  it('answers unknown routes with 404', async () => {
    const res = await svc.request({ method: 'GET', url: '/api/v1/nothing-here', apiKey: key, lang: 'tr' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ status: false, errors: [{ message: '/api/v1/nothing-here yolu bulunamadı.'.replace(/^/, 'GET ') }] });
  });

  it('answers malformed JSON with 400', async () => {
    const res = await svc.sendJson('POST', '/api/v1/consignments/draft', key, '{"consignor": ');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ status: false, errors: [{ message: 'The request body is not valid JSON.' }] });
  });

  it.each([
    ['an empty JSON body', ''],
    ['a JSON body that is not an object', '[1,2]'],
  ])('answers %s with 400', async (_name, body) => {
    const res = await svc.sendJson('POST', '/api/v1/consignments/draft', key, body);
    expect(res.statusCode).toBe(400);
    expect(res.json().status).toBe(false);
  });

  it('answers non-JSON bodies with 415', async () => {
    for (const type of ['text/plain', 'application/xml']) {
      const res = await svc.request({ method: 'POST', url: '/api/v1/consignments/draft', apiKey: key, headers: { 'content-type': type }, payload: 'hello' });
      expect(res.statusCode).toBe(415);
      expect(res.json()).toEqual({ status: false, errors: [{ message: 'The request body must be application/json.' }] });
    }
  });

  it('answers too-large bodies with 413', async () => {
    const payload = JSON.stringify({ consignor: { name: 'x' }, consignee: { name: 'y' }, filler: 'z'.repeat(1024 * 1024) });
    const res = await svc.sendJson('POST', '/api/v1/consignments/draft', key, payload);
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual({ status: false, errors: [{ message: 'The request body is too large.' }] });
  });

  it('hides unexpected errors behind a 500 and logs them with the request id', async () => {
    const lines: string[] = [];
    const logger = pino(
      { level: 'info' },
      new Writable({
        write(chunk, _enc, done) {
          lines.push(chunk.toString());
          done();
        },
      }),
    );
    const failing = { lookup: async () => Promise.reject(new Error('relation "secret_table" does not exist')) } as unknown as ConsignmentService;
    const app = buildApp(appDoubles({ db: svc.db, consignments: failing, health: svc.runtime.health, logger }));
    try {
      const res = await app.inject({ method: 'GET', url: '/api/v1/consignments/1/details', headers: { apikey: key, 'x-request-id': 'req-test-500-abc' } });
      expect(res.statusCode).toBe(500);
      expect(envelopeOf(res.body)).toEqual({ status: false, errors: [{ message: 'An unexpected error occurred.' }] });
      expect(res.body).not.toContain('secret_table');
      expect(res.headers['x-request-id']).toBe('req-test-500-abc');
      const logged = lines.map((l) => JSON.parse(l)).find((l) => l.msg === 'unexpected error');
      expect(logged).toMatchObject({ reqId: 'req-test-500-abc', customer: expect.any(String), level: 50 });
      expect(JSON.stringify(logged)).toContain('secret_table');
      // the API key itself never reaches the log
      expect(lines.join('\n')).not.toContain(key);
    } finally {
      await app.close();
    }
  });
});

describe('language negotiation', () => {
  it.each([
    [undefined, 'en'],
    ['tr', 'tr'],
    ['tr-TR', 'tr'],
    ['en-US,tr;q=0.8', 'en'],
    ['en;q=0.3, tr;q=0.9', 'tr'],
    ['de-DE', 'en'],
    ['tr;q=0', 'en'],
  ])('Accept-Language %s answers in %s', async (header, expected) => {
    const res = await svc.request({ method: 'GET', url: '/api/v1/consignments/777777/details', apiKey: key, lang: header });
    expect(res.headers['content-language']).toBe(expected);
    expect(res.json().errors[0].message).toBe(expected === 'tr' ? 'Gönderi bulunamadı.' : 'Consignment not found.');
  });
});

describe('health', () => {
  it('is 200 when database, Temporal and worker are up', async () => {
    const res = await svc.request({ method: 'GET', url: '/healthz' });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual({ database: true, temporal: true, worker: true });
  });
});

describe('the test service (test/support/test-service.ts)', () => {
  it('drops the database it was given when its start fails, and throws why', async () => {
    let dropped = 0;
    const given = { db: svc.db, drop: async () => void dropped++ };
    await expect(startTestService({ PORT: 'not a port' }, given)).rejects.toThrow(/PORT/);
    expect(dropped).toBe(1);
  });
});
