import { Agent as HttpAgent, request as httpRequest, type ClientRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import { isIP } from 'node:net';
import { performance } from 'node:perf_hooks';
import { bareHostname, resolveTarget, TargetRefusedError, type ResolvedAddress, type Resolver } from './ssrf';

/**
 * One webhook POST over node:http(s) (undici 8 does not load on the Node 20 we support): connect and
 * response timeouts, a cap on the response body read, no redirects followed, and the connection made
 * to the address the SSRF check vetted, while Host and TLS SNI stay the endpoint's name.
 */
export const DELIVERY_LIMITS = {
  /** TCP connect */
  connectTimeoutMs: 5_000,
  /** from sending to the end of the response (TLS handshake included) */
  responseTimeoutMs: 10_000,
  /** more of a response body is not read */
  maxResponseBytes: 64 * 1024,
  /** kept with the delivery record */
  storedResponseChars: 1_024,
} as const;

export interface WebhookPost {
  url: string;
  headers: Record<string, string>;
  body: string;
}

export interface PostResult {
  /** the HTTP status, null when no answer arrived */
  status: number | null;
  latencyMs: number;
  /** why the attempt failed; null for an answer (whatever its status) */
  error: string | null;
  /** the start of the response body */
  responseBody: string | null;
}

export interface WebhookSenderOptions {
  allowPrivate: boolean;
  resolve?: Resolver;
  connectTimeoutMs?: number;
  responseTimeoutMs?: number;
  maxResponseBytes?: number;
  userAgent?: string;
}

export interface WebhookSender {
  post(request: WebhookPost): Promise<PostResult>;
  close(): void;
}

/** A `lookup` that answers with the vetted addresses only (net asks with `all: true` for happy eyeballs). */
function pinnedLookup(addresses: ResolvedAddress[]): LookupFunction {
  return ((_hostname: string, options: { family?: number | string; all?: boolean }, callback: (...args: unknown[]) => void) => {
    const family = options?.family === 6 || options?.family === 'IPv6' ? 6 : options?.family === 4 || options?.family === 'IPv4' ? 4 : 0;
    const usable = family ? addresses.filter((a) => a.family === family) : addresses;
    if (usable.length === 0) return callback(Object.assign(new Error(`no IPv${family} address vetted`), { code: 'ENOTFOUND' }));
    if (options?.all) return callback(null, usable.map((a) => ({ address: a.address, family: a.family })));
    return callback(null, usable[0].address, usable[0].family);
  }) as unknown as LookupFunction;
}

function describe(error: unknown): string {
  const e = error as { code?: string; message?: string };
  return (e.message || e.code || String(error)).slice(0, 500);
}

/**
 * A sender with its own keep-alive connection pools (one per process; `close` ends them). A pooled
 * socket was connected to an address vetted when it was opened; each post vets the host again first.
 */
export function createWebhookSender(options: WebhookSenderOptions): WebhookSender {
  const limits = {
    connectTimeoutMs: options.connectTimeoutMs ?? DELIVERY_LIMITS.connectTimeoutMs,
    responseTimeoutMs: options.responseTimeoutMs ?? DELIVERY_LIMITS.responseTimeoutMs,
    maxResponseBytes: options.maxResponseBytes ?? DELIVERY_LIMITS.maxResponseBytes,
  };
  const agentOptions = { keepAlive: true, maxSockets: 64, maxFreeSockets: 16, timeout: 30_000 };
  const httpAgent = new HttpAgent(agentOptions);
  const httpsAgent = new HttpsAgent(agentOptions);
  const userAgent = options.userAgent ?? 'consignflow-webhooks/1';

  async function post(request: WebhookPost): Promise<PostResult> {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    let url: URL;
    let addresses: ResolvedAddress[];
    try {
      url = new URL(request.url);
      addresses = await resolveTarget(url, { allowPrivate: options.allowPrivate, resolve: options.resolve });
    } catch (error) {
      const reason = error instanceof TargetRefusedError ? error.message : `invalid endpoint URL (${describe(error)})`;
      return { status: null, latencyMs: elapsed(), error: reason, responseBody: null };
    }
    const secure = url.protocol === 'https:';
    const hostname = bareHostname(url);
    const body = Buffer.from(request.body, 'utf8');

    return new Promise<PostResult>((resolve) => {
      let settled = false;
      const finish = (result: Omit<PostResult, 'latencyMs'>) => {
        if (settled) return;
        settled = true;
        clearTimeout(deadline);
        resolve({ ...result, latencyMs: elapsed() });
      };
      const deadline = setTimeout(() => {
        finish({ status: null, error: `no complete response within ${limits.responseTimeoutMs} ms`, responseBody: null });
        req.destroy();
      }, limits.responseTimeoutMs);

      const req: ClientRequest = (secure ? httpsRequest : httpRequest)({
        protocol: url.protocol,
        hostname,
        port: url.port || (secure ? 443 : 80),
        path: `${url.pathname}${url.search}`,
        method: 'POST',
        agent: secure ? httpsAgent : httpAgent,
        lookup: pinnedLookup(addresses),
        ...(secure && !isIP(hostname) ? { servername: hostname } : {}),
        headers: {
          ...request.headers,
          'content-type': 'application/json',
          'content-length': String(body.length),
          'user-agent': userAgent,
        },
      });
      req.on('socket', (socket) => {
        if (!socket.connecting) return; // a reused keep-alive connection
        const timer = setTimeout(() => {
          finish({ status: null, error: `connect timeout after ${limits.connectTimeoutMs} ms`, responseBody: null });
          req.destroy();
        }, limits.connectTimeoutMs);
        socket.once('connect', () => clearTimeout(timer));
        socket.once('close', () => clearTimeout(timer));
      });
      req.on('error', (error) => finish({ status: null, error: describe(error), responseBody: null }));
      req.on('response', (res: IncomingMessage) => {
        const status = res.statusCode ?? 0;
        const chunks: Buffer[] = [];
        let size = 0;
        const done = () => {
          const text = Buffer.concat(chunks).toString('utf8').slice(0, DELIVERY_LIMITS.storedResponseChars);
          const location = res.headers.location;
          // Redirects are answers, not instructions: following one could lead to an unvetted address.
          const error = status >= 300 && status < 400 ? `redirect not followed (HTTP ${status}${location ? ` to ${String(location).slice(0, 200)}` : ''})` : null;
          finish({ status, error, responseBody: text || null });
        };
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size <= limits.maxResponseBytes) chunks.push(chunk);
          else {
            // Enough read: the status is known; the rest is not our business.
            chunks.push(chunk.subarray(0, Math.max(0, limits.maxResponseBytes - (size - chunk.length))));
            done();
            res.destroy();
          }
        });
        res.on('end', done);
        res.on('error', (error) => finish({ status, error: `response interrupted: ${describe(error)}`, responseBody: null }));
        res.on('close', done);
      });
      req.end(body);
    });
  }

  return {
    post,
    close: () => {
      httpAgent.destroy();
      httpsAgent.destroy();
    },
  };
}
