import { WithStartWorkflowOperation, WorkflowUpdateFailedError, type Client } from '@temporalio/client';
import type { UpdateDefinition } from '@temporalio/common';
import { WorkflowExecutionAlreadyStartedError } from '@temporalio/common';
import type { consignmentWorkflow } from '../../workflows/consignment.workflow';
import {
  cancelUpdate,
  carrierChangedSignal,
  deleteDraftUpdate,
  carrierEventSignal,
  processDraftUpdate,
  updateDraftUpdate,
  type ConsignmentWorkflowInput,
  type ProcessRequest,
  type ProcessResult,
} from '../../workflows/consignment.messages';
import { SA } from '../../workflows/search-attributes';
import type { ConsignmentRef } from '../db/consignments.repository';
import type { DraftStart } from '../db/outbox.repository';
import type { ConsignmentRecord } from '../domain/consignment';
import type { DraftInput } from '../domain/draft';
import { DomainError, type ErrorCode } from '../domain/errors';
import { STATUS, statusName } from '../domain/statuses';
import type { CarrierEvent } from '../domain/tracking';
import { timeStage } from '../stage-timing';
import { toDomainError } from './failures';

/** The workflow type, started by name: this module imports the workflow's code as a type only. */
const WORKFLOW_TYPE = 'consignmentWorkflow';

/** One lifecycle workflow per consignment (deterministic, so retries and duplicates collapse). */
export const consignmentWorkflowId = (uuid: string): string => `consignment:${uuid}`;

/**
 * The key of a processing that one request (its Idempotency-Key's uuid) or one import order asks for, shared by
 * every try of it; the consignment records it when processed.
 */
export const processKeyOf = (uuid: string): string => `process-${uuid}`;

/**
 * The workflow update id of try `attempt` of that processing. A try that gave up on the carrier (CARRIER_UNAVAILABLE)
 * is no outcome to replay, so the next try is another update; the first try's id is the key itself.
 */
export const processUpdateId = (uuid: string, attempt = 1): string => (attempt === 1 ? processKeyOf(uuid) : `${processKeyOf(uuid)}.${attempt}`);

/** The workflow update id of try `attempt` of a cancellation one request (its Idempotency-Key's uuid) asks for. */
export const cancelUpdateId = (uuid: string, attempt = 1): string => (attempt === 1 ? `cancel-${uuid}` : `cancel-${uuid}.${attempt}`);

export interface ConsignmentStarterDeps {
  client: Client;
  taskQueue: string;
  /** history length at which a consignment workflow continues as new */
  historyLimit?: number;
  /** polling interval for carriers without push */
  pollIntervalMs?: number;
  /** how long a booking in doubt waits for the client before the workflow settles it (BOOKING_GRACE_MS) */
  bookingGraceMs?: number;
}

/**
 * A draft in the read model whose lifecycle workflow may not run yet: what its start needs. The relay starts
 * it from the outbox; a change that comes first starts it itself (update-with-start).
 */
export type { DraftStart };

/**
 * What starting a consignment's workflow needs, from its record, for the customer whose code is `customerCode`. Every
 * change is an update-with-start, so a draft's update and a processed consignment's cancel take it alike.
 */
export const workflowStartOf = (record: ConsignmentRef, customerCode: string): DraftStart => ({
  id: record.id,
  uuid: record.uuid,
  referenceNo: record.reference_no,
  providerId: record.provider_id,
  importId: record.import_id,
  customerCode,
});

/**
 * The relay's starts run below the default priority (3 of 1–5): the engine dispatches a waiting request's
 * workflow tasks (update-with-start at the default) ahead of a backlog of created drafts' first tasks. A
 * workflow keeps the priority it started with.
 */
const RELAY_PRIORITY = { priorityKey: 4 };

/** temporal.api.enums.v1.TaskQueueType.TASK_QUEUE_TYPE_WORKFLOW */
const TASK_QUEUE_TYPE_WORKFLOW = 1;

/** Runs a workflow call; what it failed with comes back as the DomainError the workflow or activity raised. */
async function call<T>(fn: () => Promise<T>, notFound: ErrorCode = 'CONSIGNMENT_NOT_FOUND'): Promise<T> {
  try {
    return await timeStage('engine', fn);
  } catch (error) {
    throw toDomainError(error, notFound);
  }
}

/**
 * How consignment lifecycle workflows are started, updated and signalled: the only code that does (the API's
 * services, the import activities and the worker's activities all come here).
 */
export function createConsignmentStarter(deps: ConsignmentStarterDeps) {
  const settings = (): Pick<ConsignmentWorkflowInput, 'historyLimit' | 'pollIntervalMs' | 'bookingGraceMs'> => ({
    historyLimit: deps.historyLimit,
    pollIntervalMs: deps.pollIntervalMs,
    ...(deps.bookingGraceMs !== undefined ? { bookingGraceMs: deps.bookingGraceMs } : {}),
  });
  const handle = (uuid: string) => deps.client.workflow.getHandle<typeof consignmentWorkflow>(consignmentWorkflowId(uuid));

  /**
   * How a draft's workflow starts, whoever starts it first: as it resumes after continue-as-new, created.
   * A running one is used as it is; a closed one (a final status) is never started again.
   */
  const startOptions = (draft: DraftStart, priority?: { priorityKey: number }) => ({
    workflowId: consignmentWorkflowId(draft.uuid),
    taskQueue: deps.taskQueue,
    args: [
      {
        uuid: draft.uuid,
        customerCode: draft.customerCode,
        ...settings(),
        state: {
          uuid: draft.uuid,
          creation: 'created' as const,
          consignmentId: draft.id,
          status: STATUS.NEW_DRAFT,
          referenceNo: draft.referenceNo,
          providerId: draft.providerId,
          trackingCode: null,
          seenEvents: [],
        },
      },
    ] as [ConsignmentWorkflowInput],
    workflowIdConflictPolicy: 'USE_EXISTING' as const,
    workflowIdReusePolicy: 'REJECT_DUPLICATE' as const,
    ...(priority ? { priority } : {}),
    staticSummary: `Consignment ${draft.referenceNo ?? draft.uuid} of ${draft.customerCode}${draft.importId ? `, import ${draft.importId}` : ''}`,
    typedSearchAttributes: [
      { key: SA.CustomerCode, value: draft.customerCode },
      { key: SA.ConsignmentStatus, value: statusName(STATUS.NEW_DRAFT) },
      { key: SA.ConsignmentId, value: draft.id },
      ...(draft.importId ? [{ key: SA.ImportId, value: draft.importId }] : []),
      ...(draft.referenceNo ? [{ key: SA.ReferenceNo, value: draft.referenceNo }] : []),
      ...(draft.providerId != null ? [{ key: SA.ProviderId, value: draft.providerId }] : []),
    ],
  });
  const relayStartOptions = (draft: DraftStart) => startOptions(draft, RELAY_PRIORITY);
  /**
   * An Update sent with the start of the workflow, so it never waits for the relay. With an `updateId` (a
   * request's Idempotency-Key) a retry of the same request attaches to the update the first one sent, running
   * or finished, instead of sending a second: the key lives in the workflow's history, so it survives a crash
   * of the API or the worker with it.
   */
  const updateWithStart = <R, A extends unknown[]>(
    update: UpdateDefinition<R, A>,
    draft: DraftStart,
    args: A,
    notFound?: ErrorCode,
    updateId?: string,
  ): Promise<R> =>
    call(
      () =>
        deps.client.workflow.executeUpdateWithStart(update, {
          args,
          ...(updateId ? { updateId } : {}),
          startWorkflowOperation: new WithStartWorkflowOperation<typeof consignmentWorkflow>(WORKFLOW_TYPE, startOptions(draft)),
        }),
      notFound,
    );
  /** The outcome of an update sent earlier with `updateId`, if the workflow has it (undefined: no such update). */
  const earlierUpdate = async <R>(uuid: string, updateId: string): Promise<{ result: R } | undefined> => {
    try {
      return { result: await handle(uuid).getUpdateHandle<R>(updateId).result() };
    } catch (error) {
      // The update ran and was refused: that refusal is its outcome. Anything else (no such update, no such workflow): none.
      if (error instanceof WorkflowUpdateFailedError) throw toDomainError(error);
      return undefined;
    }
  };

  return {
    /**
     * Starts a created draft's workflow (the relay). Starting one that runs already changes nothing; a closed
     * one is not started again. True when this call started it.
     */
    async startDraft(draft: DraftStart): Promise<boolean> {
      try {
        await deps.client.workflow.start<typeof consignmentWorkflow>(WORKFLOW_TYPE, relayStartOptions(draft));
        return true;
      } catch (error) {
        if (error instanceof WorkflowExecutionAlreadyStartedError) return false;
        throw error;
      }
    },

    /** The options startDraft starts a workflow with (the workflow tests add a shorter workflow task timeout to them). */
    relayStartOptions,

    update: (draft: DraftStart, patch: DraftInput): Promise<ConsignmentRecord> => updateWithStart(updateDraftUpdate, draft, [patch]),

    process: (draft: DraftStart, request: ProcessRequest, updateId?: string): Promise<ProcessResult> =>
      updateWithStart(processDraftUpdate, draft, [request], 'NOT_DRAFT', updateId),

    /** What the processing sent with `updateId` answered, when the workflow has it. */
    processed: (uuid: string, updateId: string) => earlierUpdate<ProcessResult>(uuid, updateId),

    cancel: (draft: DraftStart, updateId?: string): Promise<{ consignmentId: number; status: number }> =>
      updateWithStart(cancelUpdate, draft, [], undefined, updateId),

    /** What the cancellation sent with `updateId` answered, when the workflow has it. */
    cancelled: (uuid: string, updateId: string) => earlierUpdate<{ consignmentId: number; status: number }>(uuid, updateId),

    deleteDraft: (draft: DraftStart): Promise<{ consignmentId: number }> => updateWithStart(deleteDraftUpdate, draft, []),

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

    /**
     * How many workflow tasks wait in the task queue for a worker (the engine's approximate backlog; 0 when the
     * server does not report it). The relay paces its starts by it, so created drafts never queue ahead of the
     * workflow task a waiting HTTP request needs.
     */
    async workflowBacklog(): Promise<number> {
      const answer = await deps.client.workflowService.describeTaskQueue({
        namespace: deps.client.options.namespace,
        taskQueue: { name: deps.taskQueue },
        taskQueueType: TASK_QUEUE_TYPE_WORKFLOW,
        reportStats: true,
      });
      return Number(answer.stats?.approximateBacklogCount ?? 0);
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
