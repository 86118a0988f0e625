import type { LookupFunction } from 'node:net';
import { Agent, request as undiciRequest } from 'undici';
import { bareHostname, resolveTarget, type ResolvedAddress, type Resolver } from '../webhooks/ssrf';

export { TargetRefusedError } from '../webhooks/ssrf';

/**
 * Outbound HTTP (carriers, remote shipping services, webhooks) on undici, with one policy for every caller:
 *
 * - one undici `Agent` per client: a keep-alive pool per origin of at most `connections` sockets, idle sockets
 *   closed after `keepAliveTimeoutMs` (or sooner when the server's Keep-Alive header says so); `close()` ends them;
 * - explicit limits: `connectTimeoutMs` (TCP connect and, for https, the TLS handshake), `headersTimeoutMs`
 *   (request sent → response headers), `bodyTimeoutMs` (idle gap between body chunks) and a whole-request
 *   deadline `timeoutMs` (from sending, i.e. after the SSRF resolution, which ssrf.ts bounds at 5 s, through
 *   connecting to the end of the body), per request if wanted. The deadline is a plain timer; undici's
 *   headers/body timers are coarse (they may fire up to about a second late), so they back the deadline up;
 * - no redirects: no redirect interceptor is composed, so a 3xx is returned as it is (its `location` untouched);
 * - a response body cap `maxResponseBytes`: past it the client stops reading and closes that connection, then
 *   either fails with `RESPONSE_TOO_LARGE` (`oversize: 'error'`, the default; also when a Content-Length
 *   announces more) or returns the first `maxResponseBytes` bytes with `truncated: true` (`oversize: 'truncate'`);
 * - the private-network policy (the one setting WEBHOOK_ALLOW_PRIVATE): before each request the host is resolved
 *   and vetted by `resolveTarget` (src/webhooks/ssrf.ts: public unicast addresses only unless `allowPrivate`),
 *   and a new connection goes to a vetted address (a pinned `lookup`), while the Host header and TLS SNI stay
 *   the URL's hostname. A refused host throws `TargetRefusedError` and nothing is sent. A pooled socket was
 *   connected to an address vetted when it was opened; the host is vetted again before each request anyway.
 *
 * Failures other than a refused target are `OutboundHttpError`s with a `code` (see OutboundErrorCode) and
 * `transient` (worth retrying: timeouts, connection failures, interrupted responses).
 */

export type OutboundErrorCode =
  /** a limit ran out: see `timeout` for which one */
  | 'TIMEOUT'
  /** no answer: connection refused/reset, unreachable, TLS failure, the socket closed before the response headers */
  | 'CONNECTION_FAILED'
  /** the connection broke while the response body was being read */
  | 'RESPONSE_INTERRUPTED'
  /** the body (or its Content-Length) exceeded maxResponseBytes with `oversize: 'error'`, or a truncated body was asked for as JSON */
  | 'RESPONSE_TOO_LARGE'
  /** an answer that is not HTTP, or not the JSON `json()` was asked for */
  | 'INVALID_RESPONSE'
  /** the request itself is malformed (URL, header, method): nothing was sent */
  | 'INVALID_REQUEST';

export type TimeoutKind = 'connect' | 'headers' | 'body' | 'deadline';

const TRANSIENT: ReadonlySet<OutboundErrorCode> = new Set(['TIMEOUT', 'CONNECTION_FAILED', 'RESPONSE_INTERRUPTED']);

export class OutboundHttpError extends Error {
  /** a retry may succeed (timeouts, connection failures, interrupted responses) */
  readonly transient: boolean;
  constructor(
    readonly code: OutboundErrorCode,
    message: string,
    readonly details: { timeout?: TimeoutKind; status?: number; cause?: unknown } = {},
  ) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.name = 'OutboundHttpError';
    this.transient = TRANSIENT.has(code);
  }
  /** which limit ran out, for `TIMEOUT` */
  get timeout(): TimeoutKind | undefined {
    return this.details.timeout;
  }
}

export const OUTBOUND_DEFAULTS = {
  connectTimeoutMs: 5_000,
  headersTimeoutMs: 10_000,
  bodyTimeoutMs: 10_000,
  timeoutMs: 30_000,
  maxResponseBytes: 1024 * 1024,
  connections: 16,
  keepAliveTimeoutMs: 10_000,
} as const;

export interface OutboundHttpOptions {
  /** the private-network policy: true accepts private, loopback and link-local targets (WEBHOOK_ALLOW_PRIVATE) */
  allowPrivate: boolean;
  /** name resolution for the SSRF check (tests stub it); default: the system resolver */
  resolve?: Resolver;
  /** TCP connect, plus the TLS handshake for https (default 5 s) */
  connectTimeoutMs?: number;
  /** request sent → response headers (default 10 s) */
  headersTimeoutMs?: number;
  /** longest gap between two body chunks (default 10 s) */
  bodyTimeoutMs?: number;
  /** whole-request deadline, from sending (after resolving) to the end of the body (default 30 s; per request: `timeoutMs`) */
  timeoutMs?: number;
  /** response body cap in bytes (default 1 MiB) */
  maxResponseBytes?: number;
  /** past the cap: fail with RESPONSE_TOO_LARGE (default) or keep the first maxResponseBytes and set `truncated` */
  oversize?: 'error' | 'truncate';
  /** sockets per origin (default 16) */
  connections?: number;
  /** idle time before a pooled socket is closed (default 10 s) */
  keepAliveTimeoutMs?: number;
  /** sent unless the request sets its own user-agent */
  userAgent?: string;
}

export type HttpMethod = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface OutboundRequest {
  method: HttpMethod;
  url: string | URL;
  headers?: Record<string, string>;
  body?: string | Buffer | Uint8Array;
  /** whole-request deadline for this request (overrides the client's timeoutMs) */
  timeoutMs?: number;
}

export type ResponseHeaders = Record<string, string | string[] | undefined>;

export interface OutboundResponse<B = Buffer> {
  status: number;
  headers: ResponseHeaders;
  body: B;
  /** the body was cut at maxResponseBytes (only with `oversize: 'truncate'`) */
  truncated: boolean;
}

export interface JsonRequest extends Omit<OutboundRequest, 'body'> {
  /** serialised with JSON.stringify; content-type application/json is added */
  json?: unknown;
}

export interface OutboundHttp {
  /** One request; any status is an answer (3xx included). Throws TargetRefusedError or OutboundHttpError. */
  request(request: OutboundRequest): Promise<OutboundResponse>;
  /** A JSON request (accept: application/json): the body parsed, null when empty; unparsable → INVALID_RESPONSE. */
  json<T = unknown>(request: JsonRequest): Promise<OutboundResponse<T | null>>;
  /** Ends the connection pools (in-flight requests finish first). */
  close(): Promise<void>;
}

/** Host → addresses vetted for the requests in flight to it, which the pinned lookup answers from. */
class VettedAddresses {
  private readonly byHost = new Map<string, { addresses: ResolvedAddress[]; users: number }>();

  hold(host: string, addresses: ResolvedAddress[]): () => void {
    const entry = this.byHost.get(host);
    // Concurrent requests to one host: the latest vetting wins; every answer kept here passed the same policy.
    if (entry) {
      entry.addresses = addresses;
      entry.users++;
    } else this.byHost.set(host, { addresses, users: 1 });
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const current = this.byHost.get(host);
      if (current && --current.users <= 0) this.byHost.delete(host);
    };
  }

  /** A `lookup` for net/tls.connect that answers with vetted addresses only (net asks with `all: true` for happy eyeballs). */
  readonly lookup = ((hostname: string, options: { family?: number | string; all?: boolean }, callback: (...args: unknown[]) => void) => {
    const addresses = this.byHost.get(hostname)?.addresses ?? [];
    const family = options?.family === 6 || options?.family === 'IPv6' ? 6 : options?.family === 4 || options?.family === 'IPv4' ? 4 : 0;
    const usable = family ? addresses.filter((a) => a.family === family) : addresses;
    if (usable.length === 0) {
      return callback(
        Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname} (no ${family ? `IPv${family} ` : ''}address vetted)`), { code: 'ENOTFOUND', hostname }),
      );
    }
    if (options?.all)
      return callback(
        null,
        usable.map((a) => ({ address: a.address, family: a.family })),
      );
    return callback(null, usable[0].address, usable[0].family);
  }) as unknown as LookupFunction;
}

function causeText(error: unknown): string {
  const e = error as { code?: string; message?: string; errors?: unknown[] };
  // net's happy eyeballs reports every address tried in an AggregateError with an empty message
  if (!e?.message && Array.isArray(e?.errors) && e.errors.length > 0) return causeText(e.errors[0]);
  const message = e?.message || e?.code || String(error);
  return (e?.code && !message.includes(e.code) ? `${message} (${e.code})` : message).slice(0, 500);
}

const INVALID_REQUEST_CODES = new Set([
  'UND_ERR_INVALID_ARG',
  'UND_ERR_NOT_SUPPORTED',
  'UND_ERR_REQ_CONTENT_LENGTH_MISMATCH',
  'ERR_INVALID_URL',
  'ERR_INVALID_ARG_TYPE',
  'ERR_INVALID_ARG_VALUE',
]);

export function createOutboundHttp(options: OutboundHttpOptions): OutboundHttp {
  const limits = {
    connectTimeoutMs: options.connectTimeoutMs ?? OUTBOUND_DEFAULTS.connectTimeoutMs,
    headersTimeoutMs: options.headersTimeoutMs ?? OUTBOUND_DEFAULTS.headersTimeoutMs,
    bodyTimeoutMs: options.bodyTimeoutMs ?? OUTBOUND_DEFAULTS.bodyTimeoutMs,
    timeoutMs: options.timeoutMs ?? OUTBOUND_DEFAULTS.timeoutMs,
    maxResponseBytes: options.maxResponseBytes ?? OUTBOUND_DEFAULTS.maxResponseBytes,
  };
  const oversize = options.oversize ?? 'error';
  const vetted = new VettedAddresses();
  const keepAliveTimeout = options.keepAliveTimeoutMs ?? OUTBOUND_DEFAULTS.keepAliveTimeoutMs;
  const agent = new Agent({
    connections: options.connections ?? OUTBOUND_DEFAULTS.connections,
    pipelining: 1,
    keepAliveTimeout,
    keepAliveMaxTimeout: Math.max(keepAliveTimeout, 60_000),
    headersTimeout: limits.headersTimeoutMs,
    bodyTimeout: limits.bodyTimeoutMs,
    connect: { timeout: limits.connectTimeoutMs, lookup: vetted.lookup },
  });

  /** An undici/net failure as an OutboundHttpError; `status` once the response headers had arrived. */
  function classify(error: unknown, status?: number): OutboundHttpError {
    if (error instanceof OutboundHttpError) return error;
    const code = (error as { code?: string })?.code ?? '';
    switch (code) {
      case 'UND_ERR_CONNECT_TIMEOUT':
        return new OutboundHttpError('TIMEOUT', `connect timeout after ${limits.connectTimeoutMs} ms`, { timeout: 'connect', cause: error });
      case 'UND_ERR_HEADERS_TIMEOUT':
        return new OutboundHttpError('TIMEOUT', `no response headers within ${limits.headersTimeoutMs} ms`, { timeout: 'headers', cause: error });
      case 'UND_ERR_BODY_TIMEOUT':
        return new OutboundHttpError('TIMEOUT', `response body stalled for ${limits.bodyTimeoutMs} ms`, { timeout: 'body', cause: error });
      case 'UND_ERR_RES_EXCEEDED_MAX_SIZE':
        return new OutboundHttpError('RESPONSE_TOO_LARGE', `response larger than ${limits.maxResponseBytes} bytes`, { cause: error });
    }
    if (INVALID_REQUEST_CODES.has(code) || (!code && error instanceof TypeError)) {
      return new OutboundHttpError('INVALID_REQUEST', `invalid request: ${causeText(error)}`, { cause: error });
    }
    if (code.startsWith('HPE_') || (error as Error)?.name === 'HTTPParserError') {
      return new OutboundHttpError('INVALID_RESPONSE', `invalid HTTP response: ${causeText(error)}`, { cause: error });
    }
    if (status !== undefined) return new OutboundHttpError('RESPONSE_INTERRUPTED', `response interrupted: ${causeText(error)}`, { status, cause: error });
    return new OutboundHttpError('CONNECTION_FAILED', `connection failed: ${causeText(error)}`, { cause: error });
  }

  async function request(req: OutboundRequest): Promise<OutboundResponse> {
    let url: URL;
    try {
      url = typeof req.url === 'string' ? new URL(req.url) : req.url;
    } catch (error) {
      throw new OutboundHttpError('INVALID_REQUEST', `invalid URL (${causeText(error)})`, { cause: error });
    }
    // The private-network policy: a refused host throws TargetRefusedError before anything is sent
    // (resolving is bounded by ssrf.ts itself, 5 s).
    const addresses = await resolveTarget(url, { allowPrivate: options.allowPrivate, resolve: options.resolve });
    const release = vetted.hold(bareHostname(url), addresses);
    const timeoutMs = req.timeoutMs ?? limits.timeoutMs;
    const controller = new AbortController();
    const deadline = setTimeout(
      () => controller.abort(new OutboundHttpError('TIMEOUT', `no complete response within ${timeoutMs} ms`, { timeout: 'deadline' })),
      timeoutMs,
    );
    try {
      const headers: Record<string, string> = { ...req.headers };
      if (options.userAgent && !Object.keys(headers).some((k) => k.toLowerCase() === 'user-agent')) headers['user-agent'] = options.userAgent;

      let response: Awaited<ReturnType<typeof undiciRequest>>;
      try {
        response = await undiciRequest(url, { dispatcher: agent, method: req.method, headers, body: req.body, signal: controller.signal });
      } catch (error) {
        throw classify(error);
      }

      const { statusCode: status, headers: responseHeaders, body } = response;
      const max = limits.maxResponseBytes;
      const declared = Number(responseHeaders['content-length']);
      if (oversize === 'error' && req.method !== 'HEAD' && Number.isFinite(declared) && declared > max) {
        body.destroy();
        throw new OutboundHttpError('RESPONSE_TOO_LARGE', `response of ${declared} bytes is larger than ${max} bytes`, { status });
      }
      const chunks: Buffer[] = [];
      let size = 0;
      let truncated = false;
      try {
        for await (const chunk of body as AsyncIterable<Buffer>) {
          if (size + chunk.length > max) {
            if (oversize === 'error') throw new OutboundHttpError('RESPONSE_TOO_LARGE', `response larger than ${max} bytes`, { status });
            chunks.push(chunk.subarray(0, max - size));
            size = max;
            truncated = true;
            break; // leaving the loop destroys the body: the rest is not read and that socket is closed
          }
          size += chunk.length;
          chunks.push(chunk);
        }
      } catch (error) {
        body.destroy();
        throw classify(error, status);
      }
      // undici hands the socket back to the pool one event-loop turn after the body ended: a caller's next
      // request sent right away would find it busy and open a second connection (a second TLS handshake).
      if (!truncated) await new Promise<void>((resolve) => setImmediate(resolve));
      return { status, headers: responseHeaders as ResponseHeaders, body: Buffer.concat(chunks, size), truncated };
    } catch (error) {
      // Whatever undici wrapped it in, a fired deadline is the reason.
      if (controller.signal.aborted && !(error instanceof OutboundHttpError && error.code === 'RESPONSE_TOO_LARGE')) throw controller.signal.reason;
      throw error;
    } finally {
      clearTimeout(deadline);
      release();
    }
  }

  async function json<T>(req: JsonRequest): Promise<OutboundResponse<T | null>> {
    const { json: payload, ...rest } = req;
    const headers: Record<string, string> = { accept: 'application/json', ...req.headers };
    let body: string | undefined;
    if (payload !== undefined) {
      body = JSON.stringify(payload);
      if (!Object.keys(headers).some((k) => k.toLowerCase() === 'content-type')) headers['content-type'] = 'application/json';
    }
    const response = await request({ ...rest, headers, body });
    if (response.truncated)
      throw new OutboundHttpError('RESPONSE_TOO_LARGE', `JSON response larger than ${limits.maxResponseBytes} bytes`, { status: response.status });
    const text = response.body.toString('utf8');
    if (text.trim() === '') return { ...response, body: null };
    try {
      return { ...response, body: JSON.parse(text) as T };
    } catch (error) {
      throw new OutboundHttpError('INVALID_RESPONSE', `HTTP ${response.status} answer is not JSON (${causeText(error)})`, {
        status: response.status,
        cause: error,
      });
    }
  }

  return { request, json, close: () => agent.close() };
}
