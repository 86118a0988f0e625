import { ApplicationFailure, WorkflowExecutionAlreadyStartedError, WorkflowNotFoundError } from '@temporalio/common';
import { WorkflowUpdateFailedError } from '@temporalio/client';
import { DomainError, isErrorCode, type ErrorCode, type Issue } from '../domain/errors';

/**
 * Turns what a workflow update failed with back into the DomainError the activity raised, so the API
 * answers a refusal the same way wherever it was decided. Anything else is returned as it is.
 */
export function toDomainError(error: unknown, notFound: ErrorCode = 'CONSIGNMENT_NOT_FOUND'): unknown {
  // A completed workflow: gone for updates, and (update-with-start) never started again.
  if (error instanceof WorkflowNotFoundError || error instanceof WorkflowExecutionAlreadyStartedError) return new DomainError(notFound);
  let cause: unknown = error instanceof WorkflowUpdateFailedError ? error.cause : error;
  while (cause && !(cause instanceof ApplicationFailure) && (cause as { cause?: unknown }).cause) cause = (cause as { cause?: unknown }).cause;
  if (cause instanceof ApplicationFailure && isErrorCode(cause.type)) {
    const issues = cause.details?.[0];
    return new DomainError(cause.type, Array.isArray(issues) && issues.length > 0 ? (issues as Issue[]) : undefined);
  }
  return error;
}
