import { ApplicationFailure } from '@temporalio/common';
import { DomainError } from '../src/domain/errors';

/**
 * Business refusals leave an activity as non-retryable ApplicationFailures typed with the DomainError code
 * (their issues in `details`); anything else is a transient fault that Temporal retries.
 */
export async function asActivity<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    if (error instanceof DomainError) {
      throw ApplicationFailure.create({ message: error.code, type: error.code, nonRetryable: true, details: [error.issues] });
    }
    throw error;
  }
}

/** True for a unique-constraint violation on `constraint` (pg and PGlite both report SQLSTATE 23505). */
export function isUniqueViolation(error: unknown, constraint: string): boolean {
  const e = error as { code?: string; constraint?: string; message?: string };
  return e?.code === '23505' && (e.constraint === constraint || (e.message ?? '').includes(constraint));
}
