import { setTimeout as sleep } from 'node:timers/promises';
import { WithStartWorkflowOperation, type Client } from '@temporalio/client';
import { WorkflowExecutionAlreadyStartedError } from '@temporalio/common';
import type { consignmentWorkflow } from '../../workflows/consignment.workflow';
import {
  cancelUpdate,
  carrierChangedSignal,
  carrierEventSignal,
  createDraftUpdate,
  processDraftUpdate,
  updateDraftUpdate,
  type ConsignmentWorkflowInput,
  type ProcessRequest,
  type ProcessResult,
} from '../../workflows/consignment.messages';
import { SA } from '../../workflows/search-attributes';
import type { ConsignmentRecord } from '../domain/consignment';
import type { DraftInput } from '../domain/draft';
import { DomainError, type ErrorCode } from '../domain/errors';
import { STATUS, statusName } from '../domain/statuses';
import type { CarrierEvent } from '../domain/tracking';
import { toDomainError } from './failures';

/** The workflow type, started by name: this module imports the workflow's code as a type only. */
const WORKFLOW_TYPE = 'consignmentWorkflow';

/** One lifecycle workflow per consignment (deterministic, so retries and duplicates collapse). */
export const consignmentWorkflowId = (uuid: string): string => `consignment:${uuid}`;

export interface ConsignmentStarterDeps {
  client: Client;
  taskQueue: string;
  /** history length at which a consignment workflow continues as new */
  historyLimit?: number;
  /** polling interval for carriers without push */
  pollIntervalMs?: number;
}

/** Who a consignment belongs to, as its workflow and the Temporal UI show it. */
export interface Owner {
  customerId: number;
  userId: number | null;
  customerCode: string;
}

/** A draft already in the read model whose lifecycle workflow is to be started (imports). */
export interface CreatedDraft {
  id: number;
  uuid: string;
  referenceNo: string | null;
  providerId: number | null;
}

/** Runs a workflow call; what it failed with comes back as the DomainError the workflow or activity raised. */
async function call<T>(fn: () => Promise<T>, notFound: ErrorCode = 'CONSIGNMENT_NOT_FOUND'): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    throw toDomainError(error, notFound);
  }
}

/**
 * How consignment lifecycle workflows are started, updated and signalled: the only code that does (the API's
 * services, the import activities and the worker's activities all come here).
 */
export function createConsignmentStarter(deps: ConsignmentStarterDeps) {
  const settings = (): Pick<ConsignmentWorkflowInput, 'historyLimit' | 'pollIntervalMs'> => ({ historyLimit: deps.historyLimit, pollIntervalMs: deps.pollIntervalMs });
  const handle = (uuid: string) => deps.client.workflow.getHandle<typeof consignmentWorkflow>(consignmentWorkflowId(uuid));

  return {
    /** Creates the draft as a new lifecycle workflow (update-with-start); `uuid` fixes the workflow for idempotent retries. */
    create(owner: Owner, draft: DraftInput, uuid: string, importId?: string): Promise<ConsignmentRecord> {
      const start = new WithStartWorkflowOperation<typeof consignmentWorkflow>(WORKFLOW_TYPE, {
        workflowId: consignmentWorkflowId(uuid),
        taskQueue: deps.taskQueue,
        args: [{ uuid, customerCode: owner.customerCode, ...settings() }],
        workflowIdConflictPolicy: 'USE_EXISTING',
        staticSummary: `Consignment ${draft.reference_no ?? uuid} of ${owner.customerCode}`,
        typedSearchAttributes: [
          { key: SA.CustomerCode, value: owner.customerCode },
          { key: SA.ConsignmentStatus, value: statusName(STATUS.NEW_DRAFT) },
          ...(draft.reference_no ? [{ key: SA.ReferenceNo, value: draft.reference_no }] : []),
          ...(importId ? [{ key: SA.ImportId, value: importId }] : []),
        ],
      });
      return call(() =>
        deps.client.workflow.executeUpdateWithStart(createDraftUpdate, {
          args: [{ customerId: owner.customerId, userId: owner.userId, draft, importId: importId ?? null }],
          startWorkflowOperation: start,
        }),
      );
    },

    /**
     * Starts the workflows of drafts already written to the read model (imports), as they resume after
     * continue-as-new: created. Starting one that runs already changes nothing; a closed one (final status)
     * is never started again.
     */
    async startCreated(owner: Pick<Owner, 'customerCode'>, draft: CreatedDraft, importId: string): Promise<void> {
      try {
        await deps.client.workflow.start<typeof consignmentWorkflow>(WORKFLOW_TYPE, {
          workflowId: consignmentWorkflowId(draft.uuid),
          taskQueue: deps.taskQueue,
          args: [
            {
              uuid: draft.uuid,
              customerCode: owner.customerCode,
              ...settings(),
              state: { uuid: draft.uuid, creation: 'created', consignmentId: draft.id, status: STATUS.NEW_DRAFT, referenceNo: draft.referenceNo, providerId: draft.providerId, trackingCode: null, seenEvents: [] },
            },
          ],
          workflowIdConflictPolicy: 'USE_EXISTING',
          workflowIdReusePolicy: 'REJECT_DUPLICATE',
          staticSummary: `Consignment ${draft.referenceNo ?? draft.uuid} of ${owner.customerCode}, import ${importId}`,
          typedSearchAttributes: [
            { key: SA.CustomerCode, value: owner.customerCode },
            { key: SA.ConsignmentStatus, value: statusName(STATUS.NEW_DRAFT) },
            { key: SA.ConsignmentId, value: draft.id },
            { key: SA.ImportId, value: importId },
            ...(draft.referenceNo ? [{ key: SA.ReferenceNo, value: draft.referenceNo }] : []),
            ...(draft.providerId != null ? [{ key: SA.ProviderId, value: draft.providerId }] : []),
          ],
        });
      } catch (error) {
        if (!(error instanceof WorkflowExecutionAlreadyStartedError)) throw error;
      }
    },

    /**
     * Waits until the worker has run the consignment workflow's first task (started, task scheduled, started,
     * completed: four history events). Back-pressure for imports, which can start workflows faster than
     * workers run them.
     */
    async workerCaughtUp(uuid: string, onWait: () => void = () => undefined): Promise<void> {
      for (let pause = 50; ; pause = Math.min(pause * 2, 1000)) {
        const { historyLength } = await handle(uuid).describe();
        if (historyLength >= 4) return;
        onWait();
        await sleep(pause);
      }
    },

    update: (uuid: string, patch: DraftInput): Promise<ConsignmentRecord> => call(() => handle(uuid).executeUpdate(updateDraftUpdate, { args: [patch] })),

    process: (uuid: string, request: ProcessRequest): Promise<ProcessResult> => call(() => handle(uuid).executeUpdate(processDraftUpdate, { args: [request] }), 'NOT_DRAFT'),

    cancel: (uuid: string): Promise<{ consignmentId: number; status: number }> => call(() => handle(uuid).executeUpdate(cancelUpdate, { args: [] })),

    /**
     * Hands a carrier's tracking event to the workflow (a Signal: at least once, deduplicated there by event
     * id). False when the workflow has finished: a consignment in a final status takes no more events.
     */
    async carrierEvent(uuid: string, event: CarrierEvent): Promise<boolean> {
      try {
        await handle(uuid).signal(carrierEventSignal, event);
        return true;
      } catch (error) {
        if (toDomainError(error) instanceof DomainError) return false;
        throw error;
      }
    },

    /** Tells the workflow its carrier has news (it then asks the carrier). False when the workflow has finished. */
    async carrierChanged(uuid: string): Promise<boolean> {
      try {
        await handle(uuid).signal(carrierChangedSignal);
        return true;
      } catch (error) {
        if (toDomainError(error) instanceof DomainError) return false;
        throw error;
      }
    },
  };
}

export type ConsignmentStarter = ReturnType<typeof createConsignmentStarter>;
