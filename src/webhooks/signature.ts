import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Standard Webhooks signing (https://www.standardwebhooks.com): the secret is `whsec_` + base64 of random
 * bytes; each delivery carries `webhook-id`, `webhook-timestamp` (unix seconds) and `webhook-signature`
 * = `v1,` + base64(HMAC-SHA256(secret bytes, `${id}.${timestamp}.${body}`)).
 */
export const SECRET_PREFIX = 'whsec_';

/** A new signing secret: 32 random bytes. */
export function generateSecret(): string {
  return SECRET_PREFIX + randomBytes(32).toString('base64');
}

/** The key bytes of a `whsec_…` secret (the base64 part decoded). */
export function secretBytes(secret: string): Buffer {
  return Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, 'base64');
}

/** `v1,<base64 signature>` of one delivery. */
export function sign(secret: string, id: string, timestamp: number, body: string): string {
  return 'v1,' + createHmac('sha256', secretBytes(secret)).update(`${id}.${timestamp}.${body}`, 'utf8').digest('base64');
}

/** The three Standard Webhooks headers of one delivery attempt. */
export function signatureHeaders(
  secret: string,
  id: string,
  body: string,
  now: Date = new Date(),
): Record<'webhook-id' | 'webhook-timestamp' | 'webhook-signature', string> {
  const timestamp = Math.floor(now.getTime() / 1000);
  return { 'webhook-id': id, 'webhook-timestamp': String(timestamp), 'webhook-signature': sign(secret, id, timestamp, body) };
}

/**
 * What a receiver does (kept here for tests and the docs' example): the timestamp within `toleranceSeconds`
 * of now, and one of the space-separated `v1,` signatures equal to the expected one (constant time).
 */
export function verify(
  secret: string,
  headers: { id: string; timestamp: string; signature: string },
  body: string,
  options: { now?: Date; toleranceSeconds?: number } = {},
): boolean {
  const timestamp = Number(headers.timestamp);
  const now = Math.floor((options.now ?? new Date()).getTime() / 1000);
  if (!Number.isInteger(timestamp) || Math.abs(now - timestamp) > (options.toleranceSeconds ?? 300)) return false;
  const expected = Buffer.from(sign(secret, headers.id, timestamp, body).slice(3), 'base64');
  return headers.signature.split(' ').some((candidate) => {
    const [version, value] = candidate.split(',', 2);
    if (version !== 'v1' || !value) return false;
    const given = Buffer.from(value, 'base64');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}
