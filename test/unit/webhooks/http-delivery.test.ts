import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createWebhookSender, type WebhookSender } from '../../../src/webhooks/http-delivery';
import type { Resolver } from '../../../src/webhooks/ssrf';
import { useRecordingServer } from '../../support/recording-server';

const srv = useRecordingServer();
const received = srv.received;

const senders: WebhookSender[] = [];
const sender = (options: Parameters<typeof createWebhookSender>[0]) => {
  const s = createWebhookSender(options);
  senders.push(s);
  return s;
};
afterAll(() => senders.forEach((s) => s.close()));

describe('webhook HTTP delivery', () => {
  it('POSTs the body with the given headers and reports status and latency', async () => {
    // The receiver takes HOLD_MS to answer: the latency is whole milliseconds, at least that, and at most what the caller waited.
    const HOLD_MS = 60;
    srv.handler = (_req, res) => void setTimeout(() => res.writeHead(201, { 'content-type': 'text/plain' }).end('thanks'), HOLD_MS);
    const started = performance.now();
    const result = await sender({ allowPrivate: true }).post({
      url: `${srv.origin}/hooks/a?x=1`,
      headers: { 'X-Api-Key': 'k1', 'webhook-id': 'e1' },
      body: '{"a":1}',
    });
    const waited = performance.now() - started;
    expect(result).toMatchObject({ status: 201, error: null, responseBody: 'thanks' });
    expect(Number.isInteger(result.latencyMs)).toBe(true);
    expect(result.latencyMs).toBeGreaterThanOrEqual(HOLD_MS);
    expect(result.latencyMs).toBeLessThanOrEqual(Math.ceil(waited));
    expect(received).toHaveLength(1);
    expect(received[0]).toMatchObject({ method: 'POST', url: '/hooks/a?x=1', body: '{"a":1}' });
    expect(received[0].headers).toMatchObject({ 'x-api-key': 'k1', 'webhook-id': 'e1', 'content-type': 'application/json', host: `127.0.0.1:${srv.port}` });
  });

  it('refuses a private target without sending anything unless private targets are allowed', async () => {
    const result = await sender({ allowPrivate: false }).post({ url: `${srv.origin}/x`, headers: {}, body: '{}' });
    expect(result.status).toBeNull();
    expect(result.error).toMatch(/loopback/);
    expect(received).toHaveLength(0);
  });

  it('vets the name at each delivery and connects to the vetted address, keeping the Host header (DNS rebinding)', async () => {
    let answers = [[{ address: '127.0.0.1', family: 4 as const }]];
    const resolve: Resolver = async () => answers.shift() ?? [{ address: '10.0.0.7', family: 4 }];
    // allowPrivate is needed for the loopback receiver itself; the second answer is then refused by a strict sender
    const loose = sender({ allowPrivate: true, resolve });
    const ok = await loose.post({ url: `http://hooks.example.test:${srv.port}/r`, headers: {}, body: '{}' });
    expect(ok.status).toBe(200);
    expect(received[0].headers.host).toBe(`hooks.example.test:${srv.port}`);
    answers = [[{ address: '10.0.0.7', family: 4 }]];
    const strict = sender({ allowPrivate: false, resolve });
    const refused = await strict.post({ url: `http://hooks.example.test:${srv.port}/r`, headers: {}, body: '{}' });
    expect(refused.error).toMatch(/private address \(10\.0\.0\.7\)/);
    expect(received).toHaveLength(1);
  });

  it('does not follow redirects', async () => {
    srv.handler = (_req, res) => res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data' }).end();
    const result = await sender({ allowPrivate: true }).post({ url: `${srv.origin}/r`, headers: {}, body: '{}' });
    expect(result.status).toBe(302);
    expect(result.error).toMatch(/redirect not followed \(HTTP 302 to http:\/\/169\.254\.169\.254/);
    expect(received).toHaveLength(1);
  });

  it('reads at most the response cap and keeps only the start of the body', async () => {
    srv.handler = (_req, res) => {
      res.writeHead(200);
      const chunk = 'x'.repeat(16 * 1024);
      let sent = 0;
      const pump = () => {
        while (sent < 4096 && res.write(chunk)) sent++;
        if (sent < 4096) res.once('drain', pump);
        else res.end();
      };
      pump();
    };
    const result = await sender({ allowPrivate: true, maxResponseBytes: 1024 }).post({ url: `${srv.origin}/big`, headers: {}, body: '{}' });
    expect(result.status).toBe(200);
    expect(result.error).toBeNull();
    expect(result.responseBody).toHaveLength(1024);
  });

  it('gives up on a receiver that does not answer in time', async () => {
    srv.handler = () => undefined; // never answers
    const result = await sender({ allowPrivate: true, responseTimeoutMs: 300 }).post({ url: `${srv.origin}/slow`, headers: {}, body: '{}' });
    expect(result.status).toBeNull();
    expect(result.error).toBe('no complete response within 300 ms');
  });

  it('reports a refused connection as an error', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const deadPort = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const result = await sender({ allowPrivate: true }).post({ url: `http://127.0.0.1:${deadPort}/`, headers: {}, body: '{}' });
    expect(result.status).toBeNull();
    expect(result.error).toMatch(/ECONNREFUSED/);
  });
});
