import { randomUUID } from 'node:crypto';
import { WithStartWorkflowOperation, type Client } from '@temporalio/client';
import { consignmentWorkflow } from '../../../workflows/consignment.workflow';
import { createDraftUpdate, updateDraftUpdate } from '../../../workflows/consignment.messages';
import { consignmentWorkflowId } from '../../../workflows/ids';
import { SA } from '../../../workflows/search-attributes';
import { findConsignment, findConsignmentUuid, findHistory, isReferenceTaken, type ConsignmentKey } from '../../db/consignments.repository';
import type { Caller } from '../../db/customers.repository';
import type { Queryable } from '../../db/database';
import type { ConsignmentRecord, HistoryEntry } from '../../domain/consignment';
import type { DraftInput } from '../../domain/draft';
import { DomainError } from '../../domain/errors';
import { statusName, STATUS } from '../../domain/statuses';
import { toDomainError } from '../../temporal/failures';

export interface ConsignmentServiceDeps {
  db: Queryable;
  temporal: Client;
  taskQueue: string;
  /** provider ids that exist (the carrier registry) */
  providerExists: (id: number) => boolean;
}

async function viaWorkflow<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw toDomainError(error);
  }
}

/**
 * Drafts and lookups. Reads come from the PostgreSQL read model; every change goes through the
 * consignment's lifecycle workflow, which persists it (DESIGN.md principle 1).
 */
export function createConsignmentService(deps: ConsignmentServiceDeps) {
  const checkProvider = (draft: DraftInput) => {
    if (draft.provider_id != null && !deps.providerExists(draft.provider_id)) {
      throw new DomainError('VALIDATION_FAILED', [{ code: 'PROVIDER_NOT_FOUND', field: 'provider_id', params: { provider_id: draft.provider_id } }]);
    }
  };

  return {
    /** Creates a draft as a new lifecycle workflow (update-with-start); `uuid` fixes the workflow for idempotent retries. */
    async createDraft(caller: Caller, draft: DraftInput, uuid: string = randomUUID(), importId?: string): Promise<ConsignmentRecord> {
      checkProvider(draft);
      // Fast refusal without starting a workflow; the unique index still decides races.
      if (draft.reference_no && (await isReferenceTaken(deps.db, caller.customerId, draft.reference_no, uuid))) {
        throw new DomainError('REFERENCE_USED', { field: 'reference_no' });
      }
      const start = new WithStartWorkflowOperation(consignmentWorkflow, {
        workflowId: consignmentWorkflowId(uuid),
        taskQueue: deps.taskQueue,
        args: [{ uuid, customerCode: caller.customerCode }],
        workflowIdConflictPolicy: 'USE_EXISTING',
        staticSummary: `Consignment ${draft.reference_no ?? uuid} of ${caller.customerCode}`,
        typedSearchAttributes: [
          { key: SA.CustomerCode, value: caller.customerCode },
          { key: SA.ConsignmentStatus, value: statusName(STATUS.NEW_DRAFT) },
          ...(draft.reference_no ? [{ key: SA.ReferenceNo, value: draft.reference_no }] : []),
          ...(importId ? [{ key: SA.ImportId, value: importId }] : []),
        ],
      });
      return viaWorkflow(() =>
        deps.temporal.workflow.executeUpdateWithStart(createDraftUpdate, {
          args: [{ customerId: caller.customerId, userId: caller.userId, draft, importId: importId ?? null }],
          startWorkflowOperation: start,
        }),
      );
    },

    async updateDraft(caller: Caller, id: number, patch: DraftInput): Promise<ConsignmentRecord> {
      checkProvider(patch);
      const uuid = await findConsignmentUuid(deps.db, caller.customerId, id);
      if (!uuid) throw new DomainError('CONSIGNMENT_NOT_FOUND');
      if (patch.reference_no && (await isReferenceTaken(deps.db, caller.customerId, patch.reference_no, uuid))) {
        throw new DomainError('REFERENCE_USED', { field: 'reference_no' });
      }
      const handle = deps.temporal.workflow.getHandle(consignmentWorkflowId(uuid));
      return viaWorkflow(() => handle.executeUpdate(updateDraftUpdate, { args: [patch] }));
    },

    /** A customer's consignment with its history, or CONSIGNMENT_NOT_FOUND (also for another customer's). */
    async find(key: Exclude<ConsignmentKey, { uuid: string }>): Promise<{ consignment: ConsignmentRecord; history: HistoryEntry[] }> {
      const consignment = await findConsignment(deps.db, key);
      if (!consignment) throw new DomainError('CONSIGNMENT_NOT_FOUND');
      return { consignment, history: await findHistory(deps.db, consignment.id) };
    },
  };
}

export type ConsignmentService = ReturnType<typeof createConsignmentService>;
