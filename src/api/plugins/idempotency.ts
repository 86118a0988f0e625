import { createHash, randomUUID } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { claimIdempotencyKey, saveIdempotentResponse } from '../../db/idempotency.repository';
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
 * Runs `execute(uuid)` at most once per (customer, scope, Idempotency-Key) within 24 h. Requests without the
 * header get a fresh uuid. A replay answers the stored response (header `Idempotent-Replayed: true`); the same
 * key with another body is 422. Concurrent duplicates share the claimed uuid, so they reach one workflow and one record.
 * Only requests that passed validation get here (validation failures are not remembered, as with Stripe).
 */
export async function idempotent(
  db: Queryable,
  request: FastifyRequest,
  reply: FastifyReply,
  scope: string,
  execute: (uuid: string) => Promise<IdempotentResult>,
): Promise<unknown> {
  const header = request.headers['idempotency-key'];
  if (header === undefined) {
    const result = await execute(randomUUID());
    return reply.code(result.status).send(result.body);
  }
  if (typeof header !== 'string' || !KEY_PATTERN.test(header)) throw new DomainError('IDEMPOTENCY_KEY_INVALID', { field: 'Idempotency-Key' });
  const identity = { customerId: request.caller.customerId, scope, key: header };
  const requestHash = createHash('sha256')
    .update(canonical(request.body ?? null))
    .digest('hex');
  const claim = await claimIdempotencyKey(db, { ...identity, requestHash, resourceUuid: randomUUID() });
  if (claim.request_hash !== requestHash) throw new DomainError('IDEMPOTENCY_KEY_REUSED', { field: 'Idempotency-Key' });
  if (claim.response_status !== null) {
    return reply.code(claim.response_status).header('idempotent-replayed', 'true').send(claim.response_body);
  }
  let result: IdempotentResult;
  try {
    result = await execute(claim.resource_uuid);
  } catch (error) {
    // A business refusal is part of the request's outcome and is replayed too; faults are not remembered.
    const refusal = classify(error);
    if (!refusal || httpStatusOf(refusal.code) >= 500) throw error;
    result = { status: httpStatusOf(refusal.code), body: errorEnvelope(refusal.issues, request.locale) };
  }
  await saveIdempotentResponse(db, identity, result.status, result.body);
  return reply.code(result.status).send(result.body);
}
