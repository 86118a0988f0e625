import type { Client } from '@temporalio/client';
import { WorkflowExecutionAlreadyStartedError } from '@temporalio/common';
import type { orderEventWorkflow } from '../../workflows/order-event.workflow';
import { SA } from '../../workflows/search-attributes';

const WORKFLOW_TYPE = 'orderEventWorkflow';

/**
 * One workflow per received order event: a restart of the same event collapses onto it. The source's uuid
 * makes it unique in the namespace (event row ids are not: another database using the same Temporal namespace
 * counts from 1 too, and a start would find its finished workflow and run nothing).
 */
export const orderEventWorkflowId = (sourceId: string, eventId: number): string => `order-event:${sourceId}:${eventId}`;

export interface OrderEventStarterDeps {
  client: Client;
  taskQueue: string;
}

/** How order-event workflows are started: the only code that does. */
export function createOrderEventStarter(deps: OrderEventStarterDeps) {
  return {
    /**
     * Starts the event's workflow; a running one is kept (USE_EXISTING) and a finished one is not run again
     * (REJECT_DUPLICATE): a relay that starts an event twice changes nothing.
     */
    async start(request: { sourceId: string; eventId: number; customerCode?: string; summary: string }): Promise<void> {
      try {
        await deps.client.workflow.start<typeof orderEventWorkflow>(WORKFLOW_TYPE, {
          workflowId: orderEventWorkflowId(request.sourceId, request.eventId),
          taskQueue: deps.taskQueue,
          args: [{ eventId: request.eventId }],
          workflowIdConflictPolicy: 'USE_EXISTING',
          workflowIdReusePolicy: 'REJECT_DUPLICATE',
          staticSummary: request.summary,
          ...(request.customerCode ? { typedSearchAttributes: [{ key: SA.CustomerCode, value: request.customerCode }] } : {}),
        });
      } catch (error) {
        if (!(error instanceof WorkflowExecutionAlreadyStartedError)) throw error;
      }
    },
  };
}

export type OrderEventStarter = ReturnType<typeof createOrderEventStarter>;
