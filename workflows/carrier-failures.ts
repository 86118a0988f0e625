import { ActivityFailure, ApplicationFailure } from '@temporalio/workflow';

/** How the carrier activities' failures read in a workflow: shared by the consignment workflow and the tracking poller. */

/** What a failed activity says, in one line: a refusal's reason, else the failure's own message. */
export function failureReason(error: ActivityFailure): string {
  const cause = error.cause;
  if (cause instanceof ApplicationFailure) {
    const issues = cause.details?.[0];
    const issue = Array.isArray(issues) ? (issues[0] as { code?: unknown; params?: Record<string, unknown> } | undefined) : undefined;
    if (typeof issue?.params?.reason === 'string') return issue.params.reason;
    if (typeof issue?.code === 'string') return `${issue.code}${issue.params ? ` ${JSON.stringify(issue.params)}` : ''}`;
  }
  return (cause?.message ?? error.message).slice(0, 500);
}

/**
 * How long a carrier asked us to wait (its 429's Retry-After), when its rate limit is why the activity failed:
 * the carrier activities raise CARRIER_BUSY with `{ retryAfterMs }` (5 s when a failure does not say).
 */
export function carrierBusyFor(error: ActivityFailure): number | undefined {
  const cause = error.cause;
  if (!(cause instanceof ApplicationFailure) || cause.type !== 'CARRIER_BUSY') return undefined;
  const asked = (cause.details?.[0] as { retryAfterMs?: unknown } | undefined)?.retryAfterMs;
  return typeof asked === 'number' && asked > 0 ? asked : 5_000;
}
