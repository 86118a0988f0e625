import { createHash, randomUUID } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { claimIdempotencyKey, nextIdempotencyAttempt, saveIdempotentResponse } from '../../db/idempotency.repository';
import type { Queryable } from '../../db/database';
import { DomainError } from '../../domain/errors';
import { classify, errorEnvelope, httpStatusOf } from '../errors';

const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

/** Stable JSON (sorted keys) so the same body hashes the same whatever the key order. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

export interface IdempotentResult {
  status: number;
  body: unknown;
}

/**
 * Which try of the key's work a request is on. A fault (a 5xx, e.g. CARRIER_UNAVAILABLE) is not an outcome: the
 * next request with the key does the work again, as the next attempt (docs/api.md, "Idempotency").
 */
export interface IdempotentAttempt {
  /** 1 for the first request with the key; one more for each try that ended without an outcome */
  number: number;
  /** no earlier request with the key did any of its work */
  fresh: boolean;
  /** the try `number` ended without an outcome: the key moves to the next try (once, however many requests saw it end); its number */
  next(): Promise<number>;
}

/** Each request's body as sent: a retry is the same request when it sends the same JSON, whatever validation makes of it. */
const sentBodies = new WeakMap<FastifyRequest, unknown>();

/**
 * Keeps the body as sent for `idempotent`, before a route's body schema replaces it (app.ts, for routes with one).
 * A route without one (a multipart upload) sets request.body itself to what identifies the request.
 */
export function rememberSentBody(request: FastifyRequest): void {
  sentBodies.set(request, request.body);
}

/**
 * Runs `execute(uuid)` until it has an outcome, once per (customer, scope, Idempotency-Key) within 24 h: a success
 * or a refusal is stored and replayed, a fault is not (the next request runs again; `attempt` says which try it
 * is, for work that must name its tries apart). Requests without the header get a fresh uuid. A replay answers
 * the stored response (header `Idempotent-Replayed: true`); the same key with another body is 422. Concurrent
 * duplicates share the claimed uuid, so they reach one workflow and one record.
 * Only requests that passed validation get here (validation failures are not remembered, as with Stripe).
 */
export async function idempotent(
  db: Queryable,
  request: FastifyRequest,
  reply: FastifyReply,
  scope: string,
  execute: (uuid: string, attempt?: IdempotentAttempt) => Promise<IdempotentResult>,
): Promise<unknown> {
  const header = request.headers['idempotency-key'];
  if (header === undefined) {
    const result = await execute(randomUUID());
    return reply.code(result.status).send(result.body);
  }
  if (typeof header !== 'string' || !KEY_PATTERN.test(header)) throw new DomainError('IDEMPOTENCY_KEY_INVALID', { field: 'Idempotency-Key' });
  const identity = { customerId: request.caller.customerId, scope, key: header };
  const requestHash = createHash('sha256')
    .update(canonical((sentBodies.has(request) ? sentBodies.get(request) : request.body) ?? null))
    .digest('hex');
  const claim = await claimIdempotencyKey(db, { ...identity, requestHash, resourceUuid: randomUUID() });
  if (claim.request_hash !== requestHash) throw new DomainError('IDEMPOTENCY_KEY_REUSED', { field: 'Idempotency-Key' });
  if (claim.response_status !== null) {
    return reply.code(claim.response_status).header('idempotent-replayed', 'true').send(claim.response_body);
  }
  const attempt: IdempotentAttempt = {
    number: claim.attempt,
    fresh: claim.fresh,
    next: async () => (attempt.number = await nextIdempotencyAttempt(db, identity, attempt.number)),
  };
  let result: IdempotentResult;
  try {
    result = await execute(claim.resource_uuid, attempt);
  } catch (error) {
    // A business refusal is part of the request's outcome and is replayed too; faults are not remembered.
    const refusal = classify(error);
    if (!refusal || httpStatusOf(refusal.code) >= 500) throw error;
    result = { status: httpStatusOf(refusal.code), body: errorEnvelope(refusal.issues, request.locale) };
  }
  await saveIdempotentResponse(db, identity, result.status, result.body);
  return reply.code(result.status).send(result.body);
}
