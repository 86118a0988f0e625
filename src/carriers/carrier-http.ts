import { OutboundHttpError, TargetRefusedError, type OutboundResponse } from '../http/outbound';
import { CarrierBusyError, CarrierRefusedError } from './carrier';

/**
 * How every carrier adapter that calls an HTTP API classifies what went wrong, so activities treat all
 * carriers alike: a refusal (not retried), a carrier asking us to wait (retried after its Retry-After), or a
 * fault a retry can fix. Texts name no host or address: a carrier account's base_url is part of its
 * credentials, kept out of answers, logs and workflow histories.
 */

/** The carrier did not answer, or answered with a fault a retry can fix. */
export class RemoteUnavailableError extends Error {
  constructor(
    readonly carrierId: number,
    reason: string,
  ) {
    super(`carrier ${carrierId}: ${reason}`);
    this.name = 'RemoteUnavailableError';
  }
}

/** An outbound failure in words that name no host or address. */
export function outboundFailureText(error: unknown): string {
  if (error instanceof TargetRefusedError)
    return 'the remote resolves to a private, loopback or link-local address (allowed only with WEBHOOK_ALLOW_PRIVATE=1)';
  if (error instanceof OutboundHttpError) {
    if (error.code === 'TIMEOUT') return `the remote did not answer in time (${error.timeout ?? 'deadline'} timeout)`;
    if (error.code === 'CONNECTION_FAILED' || error.code === 'RESPONSE_INTERRUPTED') return `the remote could not be reached (${error.code})`;
    return `the remote's answer was not usable (${error.code})`;
  }
  return error instanceof Error ? error.message : String(error);
}

/** A failed call (nothing usable came back) as the error activities understand. */
export function carrierCallFault(carrierId: number, error: unknown): Error {
  if (error instanceof CarrierBusyError || error instanceof CarrierRefusedError || error instanceof RemoteUnavailableError) return error;
  if (error instanceof TargetRefusedError) return new CarrierRefusedError(carrierId, outboundFailureText(error));
  if (error instanceof OutboundHttpError) {
    return error.code === 'INVALID_REQUEST'
      ? new CarrierRefusedError(carrierId, outboundFailureText(error))
      : new RemoteUnavailableError(carrierId, outboundFailureText(error));
  }
  return error instanceof Error ? error : new Error(String(error));
}

const TRANSIENT_STATUSES = new Set([408, 425, 500, 502, 503, 504]);
const DEFAULT_RETRY_AFTER_MS = 5_000;

/** `Retry-After` in seconds or as an HTTP date, at least a second; 5 s when absent or unreadable. */
export function retryAfterMs(header: string | string[] | undefined): number {
  const value = Array.isArray(header) ? header[0] : header;
  if (!value) return DEFAULT_RETRY_AFTER_MS;
  const seconds = Number(value);
  if (Number.isFinite(seconds) && seconds >= 0) return Math.max(1_000, seconds * 1_000);
  const at = Date.parse(value);
  return Number.isNaN(at) ? DEFAULT_RETRY_AFTER_MS : Math.max(1_000, at - Date.now());
}

/**
 * An answer a retry can fix (429 with its Retry-After, 5xx, 408, 425) or one refusing the account's
 * credentials (401, 403) as its error; any other answer is the caller's to read.
 */
export function checkCarrierAnswer<R extends OutboundResponse<unknown>>(carrierId: number, res: R, who: { name: string; secret: string }): R {
  if (res.status === 429) throw new CarrierBusyError(carrierId, retryAfterMs(res.headers['retry-after']), `${who.name}'s rate limit was reached`);
  if (TRANSIENT_STATUSES.has(res.status)) throw new RemoteUnavailableError(carrierId, `${who.name} answered HTTP ${res.status}`);
  if (res.status === 401 || res.status === 403)
    throw new CarrierRefusedError(carrierId, `${who.name} refused the account's ${who.secret} (HTTP ${res.status})`);
  return res;
}
