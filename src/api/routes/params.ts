import { DomainError } from '../../domain/errors';

const MAX_ID = 2_147_483_647 * 1024; // bigserial ids, kept well inside Number's safe range

/** A positive integer path id, or a 404-free 400 naming the parameter. */
export function parseId(value: string, field: string): number {
  if (!/^\d{1,15}$/.test(value) || Number(value) < 1 || Number(value) > MAX_ID) {
    throw new DomainError('VALIDATION_FAILED', [{ code: 'INVALID_ID', field }]);
  }
  return Number(value);
}
