import type { Client } from '@temporalio/client';
import { trackingPollerWakeSignal, type TrackingPollerInput } from '../../workflows/tracking-poller.messages';
import type { trackingPollerWorkflow } from '../../workflows/tracking-poller.workflow';
import { SA } from '../../workflows/search-attributes';

/** The workflow type, started by name: this module imports the workflow's code as a type only. */
const WORKFLOW_TYPE = 'trackingPollerWorkflow';

/**
 * One tracking poller per provider (carrier account) of one installation (its task queue: provider ids are only
 * unique within a database), so however many workers ask, one runs.
 */
export const trackingPollerWorkflowId = (providerId: number, taskQueue: string): string => `tracking-poller:${providerId}@${taskQueue}`;

/** Tracking is background work: below the relay's starts (4) and far below what a caller waits for (3). */
const POLLER_PRIORITY = { priorityKey: 5 };

export interface TrackingPollerStarterDeps {
  client: Client;
  taskQueue: string;
  /** CARRIER_POLL_INTERVAL_MS */
  intervalMs: number;
}

/** How tracking pollers are started: the only code that does. */
export function createTrackingPollerStarter(deps: TrackingPollerStarterDeps) {
  return {
    /**
     * Starts the provider's poller, or wakes the one that runs (its next round comes now, at this worker's interval);
     * a poller that ended (its account gone) may start again.
     */
    async ensure(providerId: number): Promise<void> {
      await deps.client.workflow.signalWithStart<typeof trackingPollerWorkflow, []>(WORKFLOW_TYPE, {
        workflowId: trackingPollerWorkflowId(providerId, deps.taskQueue),
        taskQueue: deps.taskQueue,
        args: [{ providerId, intervalMs: deps.intervalMs } satisfies TrackingPollerInput],
        signal: trackingPollerWakeSignal,
        signalArgs: [],
        priority: POLLER_PRIORITY,
        staticSummary: `Tracking poller of provider ${providerId}`,
        typedSearchAttributes: [{ key: SA.ProviderId, value: providerId }],
      });
    },
  };
}

export type TrackingPollerStarter = ReturnType<typeof createTrackingPollerStarter>;
