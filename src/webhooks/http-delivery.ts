import { performance } from 'node:perf_hooks';
import { createOutboundHttp, OutboundHttpError } from '../http/outbound';
import { TargetRefusedError, type Resolver } from './ssrf';

/**
 * One webhook POST through the outbound HTTP client (src/http/outbound.ts, undici): connect and response
 * timeouts, a cap on the response body read, no redirects followed, and the connection made to the address
 * the SSRF check vetted (at each post), while Host and TLS SNI stay the endpoint's name.
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

function describe(error: unknown): string {
  const e = error as { code?: string; message?: string };
  return (e.message || e.code || String(error)).slice(0, 500);
}

/** The delivery record's `error` for a failed attempt (docs/webhooks.md: `connect ECONNREFUSED 93.184.216.34:443`, …). */
function failureText(error: unknown): string {
  if (error instanceof TargetRefusedError) return error.message;
  // A connection failure is recorded as net reported it, without the client's prefix.
  if (error instanceof OutboundHttpError && error.code === 'CONNECTION_FAILED' && error.cause !== undefined) return describe(error.cause);
  return describe(error);
}

/**
 * A sender with its own keep-alive connection pools (one per process; `close` ends them). A pooled
 * socket was connected to an address vetted when it was opened; each post vets the host again first.
 */
export function createWebhookSender(options: WebhookSenderOptions): WebhookSender {
  const responseTimeoutMs = options.responseTimeoutMs ?? DELIVERY_LIMITS.responseTimeoutMs;
  const http = createOutboundHttp({
    allowPrivate: options.allowPrivate,
    resolve: options.resolve,
    connectTimeoutMs: options.connectTimeoutMs ?? DELIVERY_LIMITS.connectTimeoutMs,
    // The whole-response deadline (timeoutMs) decides; undici's own header/body timers only back it up.
    timeoutMs: responseTimeoutMs,
    headersTimeoutMs: responseTimeoutMs + 1_000,
    bodyTimeoutMs: responseTimeoutMs + 1_000,
    maxResponseBytes: options.maxResponseBytes ?? DELIVERY_LIMITS.maxResponseBytes,
    // Enough read: the status is known; the rest is not our business.
    oversize: 'truncate',
    connections: 64,
    keepAliveTimeoutMs: 30_000,
  });
  const userAgent = options.userAgent ?? 'consignflow-webhooks/1';

  async function post(request: WebhookPost): Promise<PostResult> {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    let url: URL;
    try {
      url = new URL(request.url);
    } catch (error) {
      return { status: null, latencyMs: elapsed(), error: `invalid endpoint URL (${describe(error)})`, responseBody: null };
    }
    try {
      const response = await http.request({
        method: 'POST',
        url,
        headers: { ...request.headers, 'content-type': 'application/json', 'user-agent': userAgent },
        body: Buffer.from(request.body, 'utf8'),
      });
      const status = response.status;
      const text = response.body.toString('utf8').slice(0, DELIVERY_LIMITS.storedResponseChars);
      const location = response.headers.location;
      // Redirects are answers, not instructions: following one could lead to an unvetted address.
      const error = status >= 300 && status < 400 ? `redirect not followed (HTTP ${status}${location ? ` to ${String(location).slice(0, 200)}` : ''})` : null;
      return { status, latencyMs: elapsed(), error, responseBody: text || null };
    } catch (error) {
      const status = error instanceof OutboundHttpError ? (error.details.status ?? null) : null;
      return { status, latencyMs: elapsed(), error: failureText(error), responseBody: null };
    }
  }

  return {
    post,
    close: () => void http.close().catch(() => undefined),
  };
}
