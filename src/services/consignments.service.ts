import { randomUUID } from 'node:crypto';
import { isServiceBarcode } from '../carriers/barcode';
import {
  findByTrackingCode,
  findConsignment,
  findConsignmentDetails,
  findConsignmentRef,
  groupedDraftCreator,
  listConsignments,
  countConsignmentsByStatus,
  refuseTakenReference,
  type ConsignmentDetails,
  type ConsignmentKey,
  type VersionedDetails,
} from '../db/consignments.repository';
import type { Caller } from '../db/customers.repository';
import type { Database } from '../db/database';
import { findLabelFile } from '../db/labels.repository';
import type { ConsignmentRecord, HistoryEntry } from '../domain/consignment';
import type { ConsignmentFilter } from '../domain/consignment-filter';
import { newDraft, type DraftInput } from '../domain/draft';
import type { LabelFormat } from '../domain/label';
import type { PageRequest } from '../domain/pagination';
import { DomainError } from '../domain/errors';
import { cancelRule, requireDraft } from '../domain/statuses';
import { isCarrierReported, type CarrierEvent } from '../domain/tracking';
import type { ProcessResult } from '../../workflows/consignment.messages';
import type { Metrics } from '../metrics';
import { cancelUpdateId, workflowStartOf, processKeyOf, processUpdateId, type ConsignmentStarter } from '../temporal/consignment.starter';
import type { DocumentService } from './documents.service';
import type { ProviderService } from './providers.service';

export interface ConsignmentServiceDeps {
  db: Database;
  consignmentStarter: ConsignmentStarter;
  providers: Pick<ProviderService, 'issue'>;
  /** how long processing over HTTP waits for a carrier that does not answer (CARRIER_WAIT_MS) */
  carrierWaitMs: number;
  /** new drafts are in the outbox: the relay (when in this process) starts their workflows now */
  draftsQueued?: () => void;
  /** uploaded documents, which drafts reference by id (absent: references are not checked) */
  documents?: Pick<DocumentService, 'unknownReferences'>;
  /** the process's metrics (consignments created) */
  metrics?: Pick<Metrics, 'consignments'>;
}

/**
 * A processing (or cancellation) asked under an Idempotency-Key: the key's uuid and which try of it this request
 * is (the API's idempotency record counts them; `next()` moves the key on once a try gave up on the carrier).
 */
export interface KeyedProcessing {
  key: string;
  attempt: { number: number; fresh: boolean; next(): Promise<number> };
}

const isCarrierUnavailable = (error: unknown) => error instanceof DomainError && error.code === 'CARRIER_UNAVAILABLE';

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
 * consignment's lifecycle workflow (its starter), which persists it. The checks here are fast refusals that
 * spare a workflow round trip; the workflow's activities decide for good.
 */
export function createConsignmentService(deps: ConsignmentServiceDeps) {
  /** What a draft names must be the caller's to use: its provider, its documents. Every problem at once. */
  const checkReferences = async (caller: Caller, draft: DraftInput) => {
    const [provider, documents] = await Promise.all([
      deps.providers.issue(caller.customerId, draft.provider_id),
      deps.documents?.unknownReferences(caller, draft.documents) ?? [],
    ]);
    const issues = [...(provider ? [provider] : []), ...documents];
    if (issues.length > 0) throw new DomainError('VALIDATION_FAILED', issues);
  };

  /** The answer of a processing: the consignment, its barcodes and its label in the format asked (or the carrier's one). */
  const processOutcome = async (result: ProcessResult, format: LabelFormat): Promise<ProcessOutcome> => {
    // A carrier's own label exists in the format asked for (the carrier made that one); ours in both.
    const label = (await findLabelFile(deps.db, result.labelId, format)) ?? (await findLabelFile(deps.db, result.labelId, format === 'pdf' ? 'zpl' : 'pdf'));
    if (!label) throw new Error(`label ${result.labelId} of consignment ${result.consignmentId} is missing`);
    const labelFormat: LabelFormat = typeof label.content === 'string' ? 'zpl' : 'pdf';
    return {
      consignment: result.consignmentId,
      barcode: result.barcode,
      svcBarcode: result.barcode,
      providerTrackingCode: result.trackingCode,
      trackingUrl: result.trackingUrl,
      contentType: LABEL_CONTENT_TYPES[labelFormat],
      base64label: Buffer.from(label.content).toString('base64'),
    };
  };

  // Concurrent creates share one createDrafts on PGlite (groupedDraftCreator).
  const createOne = groupedDraftCreator(deps.db);
  return {
    /**
     * Creates a draft (createDrafts: its row and its outbox entry in one statement, so all or nothing; the
     * relay starts its workflow) and answers at once. `uuid` makes a retry find the draft it created.
     */
    async createDraft(caller: Caller, draft: DraftInput, uuid: string = randomUUID()): Promise<ConsignmentRecord> {
      await checkReferences(caller, draft);
      const { record, created } = await createOne(newDraft({ uuid, customerId: caller.customerId, userId: caller.userId ?? null, draft })).catch(
        async (error: unknown) => {
          // A concurrent duplicate of this very request (same uuid) may have taken the reference_no first.
          const first = error instanceof DomainError && error.code === 'REFERENCE_USED' ? await findConsignment(deps.db, { uuid }) : undefined;
          if (first?.customer_id === caller.customerId) return { record: first, created: false };
          throw error;
        },
      );
      if (created) deps.metrics?.consignments.inc({ event: 'created' });
      deps.draftsQueued?.();
      return record;
    },

    async updateDraft(caller: Caller, id: number, patch: DraftInput): Promise<ConsignmentRecord> {
      await checkReferences(caller, patch);
      const current = await findConsignmentRef(deps.db, caller.customerId, id);
      if (!current) throw new DomainError('CONSIGNMENT_NOT_FOUND');
      await refuseTakenReference(deps.db, caller.customerId, patch.reference_no, current.uuid);
      return deps.consignmentStarter.update(workflowStartOf(current, caller.customerCode), patch);
    },

    /**
     * Deletes a draft (status 24; otherwise NOT_DRAFT): through its workflow, which removes the row (its
     * reference is free again), reports `consignment.deleted` to webhooks and ends.
     */
    async deleteDraft(caller: Caller, id: number): Promise<{ consignment: number }> {
      const current = await findConsignmentRef(deps.db, caller.customerId, id);
      if (!current) throw new DomainError('CONSIGNMENT_NOT_FOUND');
      requireDraft(current.status);
      const result = await deps.consignmentStarter.deleteDraft(workflowStartOf(current, caller.customerCode));
      return { consignment: result.consignmentId };
    },

    /** A customer's consignment with its history and labels, or CONSIGNMENT_NOT_FOUND (also for another customer's). */
    async find(key: Exclude<ConsignmentKey, { uuid: string }>): Promise<ConsignmentDetails> {
      const found = await findConsignmentDetails(deps.db, key);
      if (!found) throw new DomainError('CONSIGNMENT_NOT_FOUND');
      return found.details;
    },

    /**
     * What `find` answers, with the version of the details where the database knows it: the same version of
     * the same consignment is the same details (VersionedDetails), so what was made of them may be used again.
     */
    async lookup(key: Exclude<ConsignmentKey, { uuid: string }>): Promise<VersionedDetails> {
      const found = await findConsignmentDetails(deps.db, key);
      if (!found) throw new DomainError('CONSIGNMENT_NOT_FOUND');
      return found;
    },

    /** A page of the caller's consignments matching `filter`, newest first, in detail form, and the total. */
    async list(caller: Caller, filter: ConsignmentFilter, page: PageRequest): Promise<{ rows: ConsignmentDetails[]; total: number }> {
      return listConsignments(deps.db, caller.customerId, filter, page);
    },

    /** How many of the caller's consignments matching `filter` (statuses aside) are in each status: the console's tabs. */
    async countByStatus(caller: Caller, filter: ConsignmentFilter): Promise<Map<number, number>> {
      return countConsignmentsByStatus(deps.db, caller.customerId, filter);
    },

    /**
     * Applies the optional patch and processes the draft through its workflow, in one update, all or nothing.
     * `keyed` (a request's Idempotency-Key) makes a retry answer what the first request got: a processing
     * still running is waited for, a finished one (its answer lost to a crash) is answered again, even though
     * the draft is no longer a draft. A try that gave up on the carrier (CARRIER_UNAVAILABLE) is no outcome: the
     * next request with the key processes again, as the next attempt, through the booking's look-up first.
     */
    async processDraft(
      caller: Caller,
      id: number,
      patch: DraftInput | null,
      format: LabelFormat,
      options: { carrierWaitMs?: number; keyed?: KeyedProcessing } = {},
    ): Promise<ProcessOutcome> {
      const { keyed } = options;
      if (patch) await checkReferences(caller, patch);
      const current = await findConsignmentRef(deps.db, caller.customerId, id);
      if (!current) throw new DomainError('DRAFT_NOT_FOUND');
      if (keyed && !keyed.attempt.fresh) {
        // An earlier request with this key: what its try came to, unless it gave up on the carrier.
        const earlier = await deps.consignmentStarter
          .processed(current.uuid, processUpdateId(keyed.key, keyed.attempt.number))
          .catch(async (error: unknown) => {
            if (!isCarrierUnavailable(error)) throw error;
            await keyed.attempt.next();
            return undefined;
          });
        if (earlier) return processOutcome(earlier.result, format);
        // Not a draft any more: the workflow answers a processing made under this key (the settled booking of an
        // earlier try, or a try whose update a crash took from the engine) and refuses anything else.
      } else {
        requireDraft(current.status);
      }
      await refuseTakenReference(deps.db, caller.customerId, patch?.reference_no, current.uuid);
      const request = { patch, labelFormat: format, carrierWaitMs: options.carrierWaitMs ?? deps.carrierWaitMs };
      try {
        const result = await deps.consignmentStarter.process(
          workflowStartOf(current, caller.customerCode),
          keyed ? { ...request, processKey: processKeyOf(keyed.key) } : request,
          keyed && processUpdateId(keyed.key, keyed.attempt.number),
        );
        return processOutcome(result, format);
      } catch (error) {
        if (keyed && isCarrierUnavailable(error)) await keyed.attempt.next();
        throw error;
      }
    },

    /**
     * Cancels by id, barcode or reference, resolved within the caller's customer: a valid service barcode
     * (CF + digits + check digit) is a barcode; an all-digit value is an id, or a reference_no when no such id
     * exists; anything else is a reference_no.
     */
    async cancel(caller: Caller, value: string, keyed?: KeyedProcessing): Promise<{ consignment: number }> {
      const customerId = caller.customerId;
      let record: ConsignmentRecord | undefined;
      if (isServiceBarcode(value)) record = await findConsignment(deps.db, { barcode: value, customerId });
      if (!record && /^\d{1,15}$/.test(value)) record = await findConsignment(deps.db, { id: Number(value), customerId });
      if (!record) record = await findConsignment(deps.db, { referenceNo: value, customerId });
      if (!record) throw new DomainError('CONSIGNMENT_NOT_FOUND');
      const updateId = () => keyed && cancelUpdateId(keyed.key, keyed.attempt.number);
      // A retry (same Idempotency-Key) of a cancellation that went through answers as the first request would have;
      // one whose carrier did not answer (CARRIER_UNAVAILABLE) is tried again.
      if (keyed && !keyed.attempt.fresh) {
        const earlier = await deps.consignmentStarter.cancelled(record.uuid, updateId()!).catch(async (error: unknown) => {
          if (!isCarrierUnavailable(error)) throw error;
          await keyed.attempt.next();
          return undefined;
        });
        if (earlier) return { consignment: earlier.result.consignmentId };
      }
      // Final statuses answer from the read model: their workflows may have completed.
      const { refusal } = cancelRule(record.status);
      if (refusal) throw new DomainError(refusal.code, { params: refusal.params });
      try {
        const result = await deps.consignmentStarter.cancel(workflowStartOf(record, caller.customerCode), updateId());
        return { consignment: result.consignmentId };
      } catch (error) {
        if (keyed && isCarrierUnavailable(error)) await keyed.attempt.next();
        throw error;
      }
    },

    /**
     * Hands a carrier's tracking event to the consignment's workflow. Sandbox events and carrier pushes both
     * come this way; undefined when no consignment has that tracking code.
     */
    async ingestCarrierEvent(providerId: number, trackingCode: string, event: CarrierEvent): Promise<{ consignment: number } | undefined> {
      const target = await findByTrackingCode(deps.db, providerId, trackingCode);
      if (!target) return undefined;
      await deps.consignmentStarter.carrierEvent(target.uuid, event);
      return { consignment: target.id };
    },

    /**
     * A carrier account's status webhook named one of its shipments (by the carrier's barcode, our tracking
     * code, or by our reference there): its workflow asks the carrier. Undefined when it names none of ours.
     */
    async carrierChanged(
      account: { providerId: number; customerId: number },
      names: { trackingCode?: string; reference?: string; statusName?: string },
    ): Promise<{ consignment: number } | undefined> {
      // A status no carrier reports (the processing we did ourselves, a cancellation): a lookup would find nothing to apply.
      if (names.statusName !== undefined && isCarrierReported(names.statusName) === false) return undefined;
      let target: { id: number; uuid: string } | undefined;
      if (names.trackingCode) target = await findByTrackingCode(deps.db, account.providerId, names.trackingCode);
      if (!target && names.reference) {
        const byReference =
          (await findConsignment(deps.db, { referenceNo: names.reference, customerId: account.customerId })) ??
          (isServiceBarcode(names.reference) ? await findConsignment(deps.db, { barcode: names.reference, customerId: account.customerId }) : undefined);
        if (byReference?.provider_id === account.providerId) target = byReference;
      }
      if (!target) return undefined;
      await deps.consignmentStarter.carrierChanged(target.uuid);
      return { consignment: target.id };
    },

    labelFile: (labelId: number, format: LabelFormat) => findLabelFile(deps.db, labelId, format),

    /** The public tracking view of a carrier's tracking code (no customer scope: the code is the secret). */
    async track(providerId: number, trackingCode: string): Promise<{ consignment: ConsignmentRecord; history: HistoryEntry[] } | undefined> {
      if (!Number.isSafeInteger(providerId) || trackingCode.length > 100) return undefined;
      const target = await findByTrackingCode(deps.db, providerId, trackingCode);
      const found = target && (await findConsignmentDetails(deps.db, { uuid: target.uuid }))?.details;
      return found && { consignment: found.consignment, history: found.history };
    },
  };
}

export type ConsignmentService = ReturnType<typeof createConsignmentService>;
