import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { multipart } from '../support/multipart';
import { startTestService, type TestService } from '../support/test-service';

/**
 * Input that no client should send, but anyone can: NUL bytes, invalid UTF-8, broken multipart bodies. Each
 * is refused with a 4xx in the error envelope, naming the field where there is one; never a 5xx (PostgreSQL
 * refuses 0x00 in text, so a NUL that reached a query was a 500).
 */
let svc: TestService;
let key: string;

beforeAll(async () => {
  svc = await startTestService();
  ({ apiKey: key } = await svc.customer('Hostile input'));
});
afterAll(async () => svc?.stop());

type Envelope = { status: boolean; errors: { message: string; field?: string }[] };

function expectRefusal(res: { statusCode: number; body: string }, status: number, field?: string): Envelope {
  expect({ status: res.statusCode, body: res.body }).toMatchObject({ status });
  const body = JSON.parse(res.body) as Envelope;
  expect(body.status).toBe(false);
  expect(body.errors.length).toBeGreaterThan(0);
  if (field) expect(body.errors.map((e) => e.field)).toContain(field);
  return body;
}

describe('NUL bytes', () => {
  it.each([
    ['GET', '/api/v1/consignments/find/reference_no/%00', 'reference_no'],
    ['GET', '/api/v1/consignments/find/reference_no/ab%00cd', 'reference_no'],
    ['POST', '/api/v1/consignments/ab%00/cancel', 'value'],
    ['GET', '/api/v1/consignments/1%00/details', 'id'],
    ['GET', '/api/v1/webhooks/%00', 'webhook_id'],
    ['GET', '/api/v1/imports/%00', 'id'],
  ])('%s %s: 400 naming the path parameter', async (method, url, field) => {
    const res = await svc.request({ method: method as 'GET', url, apiKey: key });
    expectRefusal(res, 400, field);
  });

  it('in a query parameter: 400 naming it', async () => {
    const res = await svc.request({ method: 'GET', url: '/api/v1/address/search?countryIso2=TR&keyword=Kad%00%C4%B1k%C3%B6y', apiKey: key });
    expectRefusal(res, 400, 'keyword');
  });

  it('in a JSON body: 400 naming the field, nothing written', async () => {
    const before = await svc.db.query<{ n: number }>('SELECT count(*)::int AS n FROM consignments');
    const res = await svc.sendJson('POST', '/api/v1/consignments/draft', key, { reference_no: 'NUL-1', consignee: { name: 'Ay\u0000şe' } });
    expectRefusal(res, 400, 'consignee.name');
    const after = await svc.db.query<{ n: number }>('SELECT count(*)::int AS n FROM consignments');
    expect(after.rows[0].n).toBe(before.rows[0].n);
  });

  it('in a JSON object key: 400', async () => {
    const res = await svc.sendJson('POST', '/api/v1/consignments/draft', key, '{"reference_no": "NUL-2", "consignee": {"na\\u0000me": "x"}}');
    expectRefusal(res, 400);
  });

  it('in a multipart text part: 400 naming it', async () => {
    const body = multipart([{ name: 'options', content: '{"platform": "shop\u0000ify"}' }]);
    const res = await svc.request({ method: 'POST', url: '/api/v1/imports', apiKey: key, ...body });
    expectRefusal(res, 400, 'options');
  });

  it('escaped in a multipart JSON part: 400 naming the field inside it', async () => {
    const body = multipart([{ name: 'options', content: '{"platform": "shop\\u0000ify"}' }]);
    const res = await svc.request({ method: 'POST', url: '/api/v1/imports', apiKey: key, ...body });
    expectRefusal(res, 400, 'options.platform');
  });

  it('says so in Turkish', async () => {
    const res = await svc.request({ method: 'GET', url: '/api/v1/consignments/find/reference_no/%00', apiKey: key, lang: 'tr' });
    expect(expectRefusal(res, 400, 'reference_no').errors[0].message).toBe('Bu değer NUL karakteri ya da geçersiz UTF-8 içeriyor.');
  });
});

describe('invalid UTF-8', () => {
  it('in a JSON body: 400, not a silent U+FFFD', async () => {
    const payload = Buffer.concat([Buffer.from('{"reference_no": "BAD-'), Buffer.from([0xc3, 0x28]), Buffer.from('"}')]);
    const res = await svc.sendJson('POST', '/api/v1/consignments/draft', key, payload);
    expectRefusal(res, 400);
  });

  it('in a path parameter: 400', async () => {
    const res = await svc.request({ method: 'GET', url: '/api/v1/consignments/find/reference_no/%C3%28', apiKey: key });
    expect(res.statusCode).toBeGreaterThanOrEqual(400);
    expect(res.statusCode).toBeLessThan(500);
    expect(JSON.parse(res.body).status).toBe(false);
  });

  it('in a query parameter: 400', async () => {
    const res = await svc.request({ method: 'GET', url: '/api/v1/address/search?countryIso2=TR&keyword=%C3%28', apiKey: key });
    expectRefusal(res, 400, 'keyword');
  });
});

describe('broken multipart bodies', () => {
  const boundary = 'cfboundary';
  it.each([
    [
      'ends before its closing boundary',
      [`--${boundary}`, 'Content-Disposition: form-data; name="file"; filename="orders.csv"', 'Content-Type: text/csv', '', 'Name,Email'].join('\r\n'),
    ],
    ['has no parts at all', `--${boundary}--\r\n`],
    ['ends inside a file part', [`--${boundary}`, 'Content-Disposition: form-data; name="file"; filename="a.csv"', '', 'abc'].join('\r\n')],
    ['is not multipart inside', 'hello'],
  ])('a body that %s: 400 in the envelope', async (_name, payload) => {
    const res = await svc.request({
      method: 'POST',
      url: '/api/v1/imports',
      apiKey: key,
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload,
    });
    expect(res.statusCode).toBeGreaterThanOrEqual(400);
    expect(res.statusCode).toBeLessThan(500);
    expect(JSON.parse(res.body).status).toBe(false);
  });

  it('over real HTTP, a body that ends inside a file part: 400 in the envelope', async () => {
    // Sent whole over a socket, busboy reports this as "Part terminated early …", not as with inject.
    const address = await svc.app.listen({ host: '127.0.0.1', port: 0 });
    const payload = [`--${boundary}`, 'Content-Disposition: form-data; name="file"; filename="a.csv"', '', 'abc'].join('\r\n');
    const res = await fetch(`${address}/api/v1/imports`, {
      method: 'POST',
      headers: { apikey: key, 'content-type': `multipart/form-data; boundary=${boundary}` },
      body: payload,
    });
    const body = (await res.json()) as Envelope;
    expect({ status: res.status, body }).toEqual({
      status: 400,
      body: { status: false, errors: [{ message: 'The request body is not a valid multipart/form-data body.' }] },
    });
  });

  it.each([
    ['/api/v1/documents', 20],
    ['/api/v1/imports', 20],
  ])('%s with more parts than it takes (%i fields): 400 naming the problem, not 413 (found by contract fuzzing)', async (url, fields) => {
    const body = multipart(Array.from({ length: fields }, (_, i) => ({ name: `f${i}`, content: 'true' })));
    const res = await svc.request({ method: 'POST', url, apiKey: key, payload: body.payload, headers: body.headers });
    expect({ status: res.statusCode, body: JSON.parse(res.body) }).toEqual({
      status: 400,
      body: { status: false, errors: [{ message: 'The multipart body has more parts or files than this request takes.' }] },
    });
  });

  it('multipart without a boundary: 400 or 415 in the envelope', async () => {
    const res = await svc.request({ method: 'POST', url: '/api/v1/imports', apiKey: key, headers: { 'content-type': 'multipart/form-data' }, payload: 'x' });
    expect([400, 415]).toContain(res.statusCode);
    expect(JSON.parse(res.body).status).toBe(false);
  });
});

describe('requests Node’s HTTP parser refuses', () => {
  /** Sends `raw` over a socket and reads the whole answer (the server closes the connection). */
  async function rawRequest(raw: Buffer): Promise<string> {
    const address = svc.app.server.listening ? svc.app.server.address() : (await svc.app.listen({ host: '127.0.0.1', port: 0 }), svc.app.server.address());
    const { port } = address as { port: number };
    return new Promise((resolve, reject) => {
      const chunks: Buffer[] = [];
      const socket = connect(port, '127.0.0.1', () => socket.write(raw));
      socket.on('data', (chunk) => chunks.push(chunk));
      socket.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
      socket.on('error', reject);
    });
  }

  it.each([
    [
      'a NUL in a header value',
      Buffer.from(`GET /api/v1/consignments/1/details HTTP/1.1\r\nHost: x\r\napikey: ab\u0000cd\r\n\r\n`),
      400,
      'The request is not valid HTTP (for example a NUL character or a line break in a header).',
    ],
    [
      'a broken request line',
      Buffer.from('GET /api/v1 HTTP/9\r\n\r\n'),
      400,
      'The request is not valid HTTP (for example a NUL character or a line break in a header).',
    ],
    [
      'headers over the size limit',
      Buffer.from(`GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`),
      431,
      'The request headers are too large.',
    ],
  ])('%s: answered in the envelope', async (_name, raw, status, message) => {
    const answer = await rawRequest(raw);
    expect(answer.split('\r\n')[0]).toBe(`HTTP/1.1 ${status} ${status === 400 ? 'Bad Request' : 'Request Header Fields Too Large'}`);
    expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4))).toEqual({ status: false, errors: [{ message }] });
  });
});

/** Found by contract fuzzing (schemathesis, .ci/contract-fuzz): each was a 500 before. */
describe('values outside what the database columns hold', () => {
  it('a provider id beyond 32 bits: 400 naming it on carrier accounts, not found on the public routes', async () => {
    for (const method of ['GET', 'PUT', 'DELETE'] as const) {
      const res = await svc.request({
        method,
        url: '/api/v1/carrier-accounts/1000000000000',
        apiKey: key,
        headers: { 'content-type': 'application/json' },
        payload: method === 'PUT' ? '{}' : undefined,
      });
      expectRefusal(res, 400, 'provider_id');
    }
    expectRefusal(await svc.request({ method: 'GET', url: '/api/v1/providers/100000000000000/track/0' }), 404);
    expectRefusal(await svc.request({ method: 'GET', url: '/api/v1/providers/100000000000000/logo.svg' }), 404);
    expectRefusal(
      await svc.request({
        method: 'POST',
        url: '/api/v1/carrier-accounts/100000000000000/status-updates',
        headers: { 'content-type': 'application/json' },
        payload: '{}',
      }),
      401,
    );
    expectRefusal(
      await svc.request({
        method: 'POST',
        url: '/api/v1/providers/100000000000000/events',
        headers: { 'content-type': 'application/json', authorization: 'Bearer x' },
        payload: '{}',
      }),
      401,
    );
  });

  it('a code beyond its smallint column (address_resolver_type, incoterms_type): 400 naming it, nothing written', async () => {
    const before = await svc.db.query<{ n: number }>('SELECT count(*)::int AS n FROM consignments');
    for (const field of ['address_resolver_type', 'incoterms_type']) {
      const res = await svc.sendJson('POST', '/api/v1/consignments/draft', key, { [field]: 1458069003, consignor: {}, consignee: {} });
      expectRefusal(res, 400, field);
    }
    const after = await svc.db.query<{ n: number }>('SELECT count(*)::int AS n FROM consignments');
    expect(after.rows[0].n).toBe(before.rows[0].n);
  });

  it('a label hash of 32 characters that are not all ASCII: 403', async () => {
    const res = await svc.request({ method: 'GET', url: `/api/v1/labels/595/CF00000000012.pdf?hash=${encodeURIComponent('ü'.repeat(16) + 'x'.repeat(16))}` });
    expectRefusal(res, 403);
  });

  it('a JSON null body where an object is expected: 400, not an empty change', async () => {
    const created = await svc.sendJson('POST', '/api/v1/consignments/draft', key, { consignor: {}, consignee: {} });
    const { id } = (JSON.parse(created.body) as { data: { id: number } }).data;
    for (const url of [`/api/v1/consignments/draft/${id}`, `/api/v1/consignments/draft/${id}/start-process`]) {
      const res = await svc.request({
        method: url.endsWith('process') ? 'POST' : 'PUT',
        url,
        apiKey: key,
        headers: { 'content-type': 'application/json' },
        payload: 'null',
      });
      expectRefusal(res, 400);
    }
  });
});
