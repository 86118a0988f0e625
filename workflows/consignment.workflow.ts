import {
  ActivityFailure,
  allHandlersFinished,
  ApplicationFailure,
  condition,
  continueAsNew,
  proxyLocalActivities,
  setHandler,
  upsertSearchAttributes,
  workflowInfo,
} from '@temporalio/workflow';
import type { createActivities } from '../activities';
import type { ConsignmentRecord } from '../src/domain/consignment';
import { STATUS, STATUS_CATALOG, statusName } from '../src/domain/statuses';
import {
  consignmentStateQuery,
  createDraftUpdate,
  updateDraftUpdate,
  type ConsignmentState,
  type ConsignmentWorkflowInput,
} from './consignment.messages';
import { Lock } from './lock';
import { SA } from './search-attributes';

/** Read-model writes are short, local to the worker and idempotent: local activities, retried briefly. */
const READ_MODEL_WRITES = {
  startToCloseTimeout: '10 seconds',
  retry: { initialInterval: '200 ms', backoffCoefficient: 2, maximumInterval: '5 seconds', maximumAttempts: 6 },
} as const;

/** A creation that never completes (its request died before the update reached us) ends the workflow. */
const CREATION_TIMEOUT = '2 minutes';

const db = proxyLocalActivities<ReturnType<typeof createActivities>>(READ_MODEL_WRITES);

/** Business refusals travel to the caller as the ApplicationFailure the activity raised, not wrapped. */
function unwrap(error: unknown): unknown {
  return error instanceof ActivityFailure && error.cause instanceof ApplicationFailure ? error.cause : error;
}

function isFinal(status: number | null): boolean {
  return status !== null && STATUS_CATALOG[status]?.final === true;
}

/**
 * The lifecycle of one consignment and the single writer of its record (DESIGN.md principle 1).
 * Draft → (process → carrier statuses | cancel). Every change arrives as an Update or Signal; activities
 * persist it to the read model, and search attributes follow so operators can find it in the Temporal UI.
 */
export async function consignmentWorkflow(input: ConsignmentWorkflowInput): Promise<ConsignmentState> {
  const state: ConsignmentState = input.state ?? {
    uuid: input.uuid,
    creation: 'pending',
    consignmentId: null,
    status: null,
    referenceNo: null,
    providerId: null,
  };
  const lock = new Lock();

  const track = (record: ConsignmentRecord): ConsignmentRecord => {
    const changed = record.status !== state.status || record.reference_no !== state.referenceNo || record.provider_id !== state.providerId || state.consignmentId === null;
    Object.assign(state, { consignmentId: record.id, status: record.status, referenceNo: record.reference_no, providerId: record.provider_id });
    if (changed) {
      upsertSearchAttributes([
        { key: SA.ConsignmentId, value: record.id },
        { key: SA.ConsignmentStatus, value: statusName(record.status) },
        { key: SA.ReferenceNo, value: record.reference_no },
        { key: SA.ProviderId, value: record.provider_id },
      ]);
    }
    return record;
  };

  setHandler(consignmentStateQuery, () => state);

  setHandler(createDraftUpdate, (request) =>
    lock.run(async () => {
      if (state.creation === 'refused' && state.refusal) {
        throw ApplicationFailure.create({ ...state.refusal, nonRetryable: true });
      }
      try {
        const record = await db.insertDraft({ uuid: state.uuid, ...request });
        if (state.creation === 'pending') state.creation = 'created';
        return track(record);
      } catch (error) {
        const failure = unwrap(error);
        if (state.creation === 'pending' && failure instanceof ApplicationFailure && failure.nonRetryable) {
          state.creation = 'refused';
          state.refusal = { message: failure.message, type: failure.type ?? 'INTERNAL_ERROR', details: [...(failure.details ?? [])] };
        }
        throw failure;
      }
    }),
  );

  setHandler(
    updateDraftUpdate,
    (patch) => lock.run(async () => track(await db.updateDraft({ uuid: state.uuid, patch }).catch((e) => Promise.reject(unwrap(e))))),
    {
      validator: (_patch) => {
        if (state.creation !== 'created' || state.status !== STATUS.NEW_DRAFT) {
          throw ApplicationFailure.nonRetryable('Consignment not found or not in draft status.', 'NOT_DRAFT');
        }
      },
    },
  );

  if (state.creation === 'pending') {
    await condition(() => state.creation !== 'pending', CREATION_TIMEOUT);
    if ((state.creation as ConsignmentState['creation']) !== 'created') {
      await condition(allHandlersFinished);
      return state;
    }
  }

  // A draft lives until it reaches a final status; its history is kept bounded by continue-as-new.
  await condition(() => isFinal(state.status) || workflowInfo().continueAsNewSuggested);
  await condition(allHandlersFinished);
  if (!isFinal(state.status)) {
    return continueAsNew<typeof consignmentWorkflow>({ uuid: state.uuid, customerCode: input.customerCode, state });
  }
  return state;
}
