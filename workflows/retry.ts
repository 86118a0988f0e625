import type { RetryPolicy } from '@temporalio/workflow';

/**
 * The retry policy of every activity profile: waits that double from `initialInterval` up to `maximumInterval`,
 * `maximumAttempts` at most (none when absent: a schedule-to-close timeout or the workflow's own course ends them).
 */
export function doublingRetry(
  initialInterval: RetryPolicy['initialInterval'],
  maximumInterval: RetryPolicy['maximumInterval'],
  maximumAttempts?: number,
): RetryPolicy {
  return { initialInterval, backoffCoefficient: 2, maximumInterval, ...(maximumAttempts !== undefined && { maximumAttempts }) };
}
