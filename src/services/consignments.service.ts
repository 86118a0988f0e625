import { randomUUID } from 'node:crypto';
import { WithStartWorkflowOperation, type Client } from '@temporalio/client';
import { consignmentWorkflow } from '../../workflows/consignment.workflow';
import {
  cancelUpdate,
  carrierEventSignal,
  createDraftUpdate,
  processDraftUpdate,
  updateDraftUpdate,
  type CarrierEvent,
} from '../../workflows/consignment.messages';
import { consignmentWorkflowId } from '../../workflows/ids';
import { SA } from '../../workflows/search-attributes';
import { isServiceBarcode } from '../carriers/barcode';
import { findByTrackingCode, findConsignment, findConsignmentUuid, findHistory, isReferenceTaken, type ConsignmentKey } from '../db/consignments.repository';
import { findLabelFile, findLabels, type LabelSummary } from '../db/labels.repository';
import type { Caller } from '../db/customers.repository';
import type { Queryable } from '../db/database';
import type { ConsignmentRecord, HistoryEntry } from '../domain/consignment';
import type { DraftInput } from '../domain/draft';
import { DomainError, type ErrorCode } from '../domain/errors';
import { STATUS, statusName } from '../domain/statuses';
import { toDomainError } from '../temporal/failures';

export interface ConsignmentServiceDeps {
  db: Queryable;
  temporal: Client;
  taskQueue: string;
  /** provider ids that exist (the carrier registry) */
  providerExists: (id: number) => boolean;
  /** history length at which a consignment workflow continues as new */
  historyLimit?: number;
  /** polling interval for carriers without push */
  pollIntervalMs?: number;
}

async function viaWorkflow<T>(call: () => Promise<T>, notFound: ErrorCode = 'CONSIGNMENT_NOT_FOUND'): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw toDomainError(error, notFound);
  }
}

export type LabelFormat = 'pdf' | 'zpl';
export const LABEL_CONTENT_TYPES: Record<LabelFormat, string> = { pdf: 'application/pdf', zpl: 'application/zpl' };

export interface ProcessOutcome {
  consignment: number;
  barcode: string;
  svcBarcode: string;
  providerTrackingCode: string;
  trackingUrl: string;
  contentType: string;
  base64label: string;
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
        args: [{ uuid, customerCode: caller.customerCode, historyLimit: deps.historyLimit, pollIntervalMs: deps.pollIntervalMs }],
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

    /** A customer's consignment with its history and labels, or CONSIGNMENT_NOT_FOUND (also for another customer's). */
    async find(key: Exclude<ConsignmentKey, { uuid: string }>): Promise<{ consignment: ConsignmentRecord; history: HistoryEntry[]; labels: LabelSummary[] }> {
      const consignment = await findConsignment(deps.db, key);
      if (!consignment) throw new DomainError('CONSIGNMENT_NOT_FOUND');
      const [history, labels] = await Promise.all([findHistory(deps.db, consignment.id), findLabels(deps.db, consignment.id)]);
      return { consignment, history, labels };
    },

    /** SPEC §4.5: applies the optional patch and processes the draft in one update, all or nothing. */
    async processDraft(caller: Caller, id: number, patch: DraftInput | null, format: LabelFormat): Promise<ProcessOutcome> {
      if (patch) checkProvider(patch);
      const current = await findConsignment(deps.db, { id, customerId: caller.customerId });
      if (!current) throw new DomainError('DRAFT_NOT_FOUND');
      if (current.status !== STATUS.NEW_DRAFT) throw new DomainError('NOT_DRAFT');
      if (patch?.reference_no && (await isReferenceTaken(deps.db, caller.customerId, patch.reference_no, current.uuid))) {
        throw new DomainError('REFERENCE_USED', { field: 'reference_no' });
      }
      const handle = deps.temporal.workflow.getHandle(consignmentWorkflowId(current.uuid));
      const result = await viaWorkflow(() => handle.executeUpdate(processDraftUpdate, { args: [{ patch }] }), 'NOT_DRAFT');
      const label = await findLabelFile(deps.db, result.labelId, format);
      if (!label) throw new Error(`label ${result.labelId} of consignment ${result.consignmentId} is missing`);
      return {
        consignment: result.consignmentId,
        barcode: result.barcode,
        svcBarcode: result.barcode,
        providerTrackingCode: result.trackingCode,
        trackingUrl: result.trackingUrl,
        contentType: LABEL_CONTENT_TYPES[format],
        base64label: Buffer.from(label.content).toString('base64'),
      };
    },

    /**
     * SPEC §4.6. `value` is resolved within the caller's customer: a valid service barcode (CF + digits +
     * check digit) is a barcode; an all-digit value is an id, or a reference_no when no such id exists;
     * anything else is a reference_no.
     */
    async cancel(caller: Caller, value: string): Promise<{ consignment: number }> {
      const customerId = caller.customerId;
      let record: ConsignmentRecord | undefined;
      if (isServiceBarcode(value)) record = await findConsignment(deps.db, { barcode: value, customerId });
      if (!record && /^\d{1,15}$/.test(value)) record = await findConsignment(deps.db, { id: Number(value), customerId });
      if (!record) record = await findConsignment(deps.db, { referenceNo: value, customerId });
      if (!record) throw new DomainError('CONSIGNMENT_NOT_FOUND');
      // Final statuses answer from the read model: their workflows may have completed.
      if (record.status === STATUS.DELIVERED) throw new DomainError('ALREADY_DELIVERED');
      if (record.status === STATUS.CANCELLED) throw new DomainError('ALREADY_CANCELLED');
      if (record.status === STATUS.RETURNED) throw new DomainError('CANCEL_FAILED', { params: { reason: 'the shipment was returned to the consignor' } });
      const handle = deps.temporal.workflow.getHandle(consignmentWorkflowId(record.uuid));
      const result = await viaWorkflow(() => handle.executeUpdate(cancelUpdate, { args: [] }));
      return { consignment: result.consignmentId };
    },

    /**
     * Hands a carrier's tracking event to the consignment's workflow (a Signal: at least once, deduplicated
     * there by event id). Sandbox events and carrier pushes both come this way.
     */
    async ingestCarrierEvent(providerId: number, trackingCode: string, event: CarrierEvent): Promise<{ consignment: number } | undefined> {
      const target = await findByTrackingCode(deps.db, providerId, trackingCode);
      if (!target) return undefined;
      try {
        await deps.temporal.workflow.getHandle(consignmentWorkflowId(target.uuid)).signal(carrierEventSignal, event);
      } catch (error) {
        // A consignment in a final status has finished its workflow: a late event changes nothing.
        if (!(toDomainError(error) instanceof DomainError)) throw error;
      }
      return { consignment: target.id };
    },

    labelFile: (labelId: number, format: LabelFormat) => findLabelFile(deps.db, labelId, format),

    /** The public tracking view of a carrier's tracking code (no customer scope: the code is the secret). */
    async track(providerId: number, trackingCode: string): Promise<{ consignment: ConsignmentRecord; history: HistoryEntry[] } | undefined> {
      if (!Number.isSafeInteger(providerId) || trackingCode.length > 100) return undefined;
      const target = await findByTrackingCode(deps.db, providerId, trackingCode);
      const consignment = target && (await findConsignment(deps.db, { uuid: target.uuid }));
      return consignment ? { consignment, history: await findHistory(deps.db, consignment.id) } : undefined;
    },
  };
}

export type ConsignmentService = ReturnType<typeof createConsignmentService>;
