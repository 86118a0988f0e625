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
