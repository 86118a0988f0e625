import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createTcpServer, type AddressInfo, type Socket } from 'node:net';
import { createOutboundHttp, OutboundHttpError, TargetRefusedError, type OutboundHttp, type OutboundHttpOptions } from '../../../src/http/outbound';
import type { Resolver } from '../../../src/webhooks/ssrf';
import { useRecordingServer } from '../../support/recording-server';
import { failure } from '../../support/failure';

const srv = useRecordingServer();
const received = srv.received;

const clients: OutboundHttp[] = [];
afterEach(async () => {
  // Connections left by one test must not count in the next one's.
  await Promise.all(clients.splice(0).map((c) => c.close()));
  srv.server.closeAllConnections();
  srv.connections = 0;
});
const client = (options: Partial<OutboundHttpOptions> = {}) => {
  const c = createOutboundHttp({ allowPrivate: true, ...options });
  clients.push(c);
  return c;
};

/** Answers `size` bytes in 16 KiB chunks, with or without a Content-Length. */
const bigBody = (size: number, withLength: boolean) => (_req: IncomingMessage, res: ServerResponse) => {
  res.writeHead(200, withLength ? { 'content-length': String(size) } : {});
  let left = size;
  const pump = () => {
    while (left > 0) {
      const n = Math.min(left, 16 * 1024);
      left -= n;
      if (!res.write('x'.repeat(n))) return void res.once('drain', pump);
    }
    res.end();
  };
  pump();
};

describe('outbound HTTP client', () => {
  it('sends and receives JSON', async () => {
    srv.handler = (req, res) => {
      const sent = JSON.parse(received[received.length - 1].body) as { n: number };
      res.writeHead(201, { 'content-type': 'application/json', 'x-echo': req.headers['x-trace'] ?? '' }).end(JSON.stringify({ doubled: sent.n * 2 }));
    };
    const result = await client({ userAgent: 'cf-test/1' }).json<{ doubled: number }>({
      method: 'POST',
      url: `${srv.origin}/labels?x=1`,
      headers: { 'X-Trace': 't1' },
      json: { n: 21 },
    });
    expect(result.status).toBe(201);
    expect(result.body).toEqual({ doubled: 42 });
    expect(result.headers['x-echo']).toBe('t1');
    expect(result.truncated).toBe(false);
    expect(received).toHaveLength(1);
    expect(received[0]).toMatchObject({ method: 'POST', url: '/labels?x=1', body: '{"n":21}' });
    expect(received[0].headers).toMatchObject({
      'content-type': 'application/json',
      accept: 'application/json',
      'user-agent': 'cf-test/1',
      host: `127.0.0.1:${srv.port}`,
    });
  });

  it('returns the raw body as a Buffer, and fails json() on a body that is not JSON', async () => {
    srv.handler = (_req, res) => res.writeHead(502, { 'content-type': 'text/html' }).end('<h1>bad gateway</h1>');
    const raw = await client().request({ method: 'GET', url: `${srv.origin}/x` });
    expect(raw.status).toBe(502);
    expect(Buffer.isBuffer(raw.body)).toBe(true);
    expect(raw.body.toString()).toBe('<h1>bad gateway</h1>');
    const error = await failure(client().json({ method: 'GET', url: `${srv.origin}/x` }));
    expect(error).toBeInstanceOf(OutboundHttpError);
    expect(error).toMatchObject({ code: 'INVALID_RESPONSE', transient: false, details: { status: 502 } });
  });

  it('returns a redirect as it is, without following it', async () => {
    srv.handler = (req, res) => (req.url === '/from' ? res.writeHead(302, { location: `${srv.origin}/to` }).end() : res.end('followed'));
    const result = await client().request({ method: 'GET', url: `${srv.origin}/from` });
    expect(result.status).toBe(302);
    expect(result.headers.location).toBe(`${srv.origin}/to`);
    expect(result.body.length).toBe(0);
    expect(received.map((r) => r.url)).toEqual(['/from']);
  });

  describe('response size cap', () => {
    it.each([
      ['with a Content-Length', true],
      ['chunked', false],
    ])('fails with RESPONSE_TOO_LARGE past maxResponseBytes by default (%s)', async (_label, withLength) => {
      srv.handler = bigBody(256 * 1024, withLength);
      const error = await failure(client({ maxResponseBytes: 64 * 1024 }).request({ method: 'GET', url: `${srv.origin}/big` }));
      expect(error).toBeInstanceOf(OutboundHttpError);
      expect(error).toMatchObject({ code: 'RESPONSE_TOO_LARGE', transient: false, details: { status: 200 } });
    });

    it('keeps a body of exactly maxResponseBytes whole', async () => {
      srv.handler = bigBody(64 * 1024, false);
      const result = await client({ maxResponseBytes: 64 * 1024 }).request({ method: 'GET', url: `${srv.origin}/exact` });
      expect(result.body.length).toBe(64 * 1024);
      expect(result.truncated).toBe(false);
    });

    it("with oversize: 'truncate' returns the first maxResponseBytes and stops reading", async () => {
      srv.handler = bigBody(64 * 1024 * 1024, false);
      const started = performance.now();
      const result = await client({ maxResponseBytes: 1000, oversize: 'truncate' }).request({ method: 'GET', url: `${srv.origin}/huge` });
      expect(result.status).toBe(200);
      expect(result.truncated).toBe(true);
      expect(result.body.length).toBe(1000);
      expect(performance.now() - started).toBeLessThan(2_000); // 64 MiB were not read
    });
  });

  describe('timeouts', () => {
    it('gives up at the request deadline on a server that never answers', async () => {
      srv.handler = () => undefined;
      const started = performance.now();
      const error = await failure(client({ timeoutMs: 10_000 }).request({ method: 'POST', url: `${srv.origin}/slow`, body: '{}', timeoutMs: 200 }));
      const waited = performance.now() - started;
      expect(error).toBeInstanceOf(OutboundHttpError);
      expect(error).toMatchObject({ code: 'TIMEOUT', timeout: 'deadline', transient: true, message: 'no complete response within 200 ms' });
      expect(waited).toBeGreaterThanOrEqual(190);
      expect(waited).toBeLessThan(2_000);
    });

    it('gives up when the connection is not ready within connectTimeoutMs (the TLS handshake included)', async () => {
      // a TCP listener that accepts and never answers the TLS ClientHello
      const sockets: Socket[] = [];
      const silent = createTcpServer((socket) => void sockets.push(socket));
      await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
      try {
        const started = performance.now();
        const error = await failure(
          client({ connectTimeoutMs: 200 }).request({ method: 'GET', url: `https://127.0.0.1:${(silent.address() as AddressInfo).port}/` }),
        );
        expect(error).toBeInstanceOf(OutboundHttpError);
        expect(error).toMatchObject({ code: 'TIMEOUT', timeout: 'connect', transient: true, message: 'connect timeout after 200 ms' });
        expect(performance.now() - started).toBeLessThan(2_000);
        expect(sockets).toHaveLength(1);
      } finally {
        sockets.forEach((s) => s.destroy());
        await new Promise((resolve) => silent.close(resolve));
      }
    });

    it('gives up when the response headers do not come within headersTimeoutMs', async () => {
      srv.handler = () => undefined;
      const error = await failure(client({ headersTimeoutMs: 200 }).request({ method: 'GET', url: `${srv.origin}/slow` }));
      expect(error).toMatchObject({ code: 'TIMEOUT', timeout: 'headers', transient: true });
    });

    it('gives up when the body stalls for bodyTimeoutMs', async () => {
      srv.handler = (_req, res) => res.writeHead(200).write('partial'); // never ends
      const error = await failure(client({ bodyTimeoutMs: 200 }).request({ method: 'GET', url: `${srv.origin}/stall` }));
      expect(error).toMatchObject({ code: 'TIMEOUT', timeout: 'body', transient: true });
    });
  });

  it('reuses one keep-alive connection for sequential requests', async () => {
    const http = client();
    for (let i = 0; i < 3; i++) expect((await http.request({ method: 'GET', url: `${srv.origin}/k${i}` })).status).toBe(200);
    expect(received).toHaveLength(3);
    expect(srv.connections).toBe(1);
  });

  it('reports a refused connection as a transient CONNECTION_FAILED', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const deadPort = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const error = await failure(client().request({ method: 'GET', url: `http://127.0.0.1:${deadPort}/` }));
    expect(error).toBeInstanceOf(OutboundHttpError);
    expect(error).toMatchObject({ code: 'CONNECTION_FAILED', transient: true });
    expect((error as Error).message).toMatch(/ECONNREFUSED/);
  });

  describe('private-network policy', () => {
    it('refuses a loopback URL unless private targets are allowed', async () => {
      const refused = await failure(client({ allowPrivate: false }).request({ method: 'GET', url: `${srv.origin}/p` }));
      expect(refused).toBeInstanceOf(TargetRefusedError);
      expect((refused as Error).message).toMatch(/loopback/);
      expect(received).toHaveLength(0);
      expect(srv.connections).toBe(0);

      const allowed = await client({ allowPrivate: true }).request({ method: 'GET', url: `${srv.origin}/p` });
      expect(allowed.status).toBe(200);
      expect(received).toHaveLength(1);
    });

    it('refuses a hostname that resolves to a loopback address', async () => {
      const resolve: Resolver = async () => [{ address: '127.0.0.1', family: 4 }];
      const refused = await failure(client({ allowPrivate: false, resolve }).request({ method: 'GET', url: `http://carrier.example.test:${srv.port}/p` }));
      expect(refused).toBeInstanceOf(TargetRefusedError);
      expect((refused as Error).message).toBe('target refused: carrier.example.test resolves to a loopback address (127.0.0.1)');
      expect(received).toHaveLength(0);
      expect(srv.connections).toBe(0);
    });

    it('connects to the vetted address and keeps the hostname in the Host header', async () => {
      // carrier.example.test does not resolve outside the stub: the answer can only come through the pinned lookup
      const asked: string[] = [];
      const resolve: Resolver = async (hostname) => {
        asked.push(hostname);
        return [{ address: '127.0.0.1', family: 4 }];
      };
      const http = client({ allowPrivate: true, resolve });
      const first = await http.request({ method: 'GET', url: `http://carrier.example.test:${srv.port}/a` });
      const second = await http.request({ method: 'GET', url: `http://carrier.example.test:${srv.port}/b` });
      expect([first.status, second.status]).toEqual([200, 200]);
      expect(received.map((r) => r.headers.host)).toEqual([`carrier.example.test:${srv.port}`, `carrier.example.test:${srv.port}`]);
      expect(asked).toEqual(['carrier.example.test', 'carrier.example.test']); // vetted at each request
    });

    it('vets the host again before a request on a pooled connection', async () => {
      let resolves = true;
      const resolve: Resolver = async () => {
        if (!resolves) throw Object.assign(new Error('gone'), { code: 'ENOTFOUND' });
        return [{ address: '127.0.0.1', family: 4 }];
      };
      const http = client({ allowPrivate: true, resolve });
      expect((await http.request({ method: 'GET', url: `http://rebind.example.test:${srv.port}/1` })).status).toBe(200);
      resolves = false; // a keep-alive connection to the vetted address is still open
      const refused = await failure(http.request({ method: 'GET', url: `http://rebind.example.test:${srv.port}/2` }));
      expect(refused).toBeInstanceOf(TargetRefusedError);
      expect((refused as Error).message).toMatch(/does not resolve \(ENOTFOUND\)/);
      expect(received.map((r) => r.url)).toEqual(['/1']);
    });
  });

  it('close() ends the pooled connections', async () => {
    const openConnections = () => new Promise<number>((resolve) => srv.server.getConnections((_e, n) => resolve(n)));
    const http = createOutboundHttp({ allowPrivate: true });
    await http.request({ method: 'GET', url: `${srv.origin}/c` });
    expect(await openConnections()).toBe(1);
    await http.close();
    for (let i = 0; i < 50 && (await openConnections()) > 0; i++) await new Promise((r) => setTimeout(r, 10));
    expect(await openConnections()).toBe(0);
  });
});
