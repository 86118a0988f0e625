import { defineQuery, defineSignal, defineUpdate } from '@temporalio/workflow';
import type { ConsignmentRecord } from '../src/domain/consignment';
import type { DraftInput } from '../src/domain/draft';
import type { LabelFormat } from '../src/domain/label';
import type { BookingOrder, ProcessingPlan } from '../src/domain/shipment';
import type { CarrierEvent, TrackingEventName } from '../src/domain/tracking';

export interface ConsignmentWorkflowInput {
  uuid: string;
  customerCode: string;
  /** continue as new once the history has this many events (default 2,000; Temporal's own suggestion also counts) */
  historyLimit?: number;
  /** how often a carrier without push is asked for tracking events (default 15 minutes) */
  pollIntervalMs?: number;
  /**
   * how long a booking in doubt (a processing that answered CARRIER_UNAVAILABLE after its carrier may have booked)
   * waits for the client to process again before the workflow settles it itself (default 10 minutes)
   */
  bookingGraceMs?: number;
  /** how long a started workflow waits for its createDraft update before it ends (default 2 minutes) */
  creationTimeoutMs?: number;
  /** carried over by continue-as-new */
  state?: ConsignmentState;
}

export interface ConsignmentState {
  uuid: string;
  creation: 'pending' | 'created' | 'refused';
  consignmentId: number | null;
  status: number | null;
  referenceNo: string | null;
  providerId: number | null;
  trackingCode?: string | null;
  /** the carrier's own id of the shipment (a remote consignment id), when it has one */
  carrierReference?: string | null;
  /** the last status the carrier reported (its tracking event), for operators */
  lastCarrierStatus?: string | null;
  /** the carrier said something changed: ask it now instead of at the next poll */
  carrierChanged?: boolean;
  /** the carrier does not push events: its account's tracking poller asks it (a history without the `tracked-by-poller` marker polls on a timer of its own) */
  pollCarrier?: boolean;
  /** tracking polls failed in a row (refused or not answered): the next poll waits longer, doubling each time */
  trackingFailures?: number;
  /** every failed poll so far, for the history entries' keys */
  trackingFailuresTotal?: number;
  /** ids of carrier events already applied (the newest few hundred), so redelivered events are recognised */
  seenEvents?: string[];
  /** status events written but not yet handed to webhook delivery, oldest first (carried over by continue-as-new) */
  unpublished?: string[];
  /** carrier events received but not applied yet (carried over by continue-as-new) */
  pendingEvents?: CarrierEvent[];
  /** the draft was deleted: its row is gone, the workflow ends once its events are out */
  deleted?: boolean;
  /** the processing that made the draft a consignment, by its key: a request with the same key gets its answer again */
  processed?: { key: string; result: ProcessResult };
  /** a processing gave up on its carrier after it may have booked: settled at `dueAt`, or first by the draft's next change */
  bookingInDoubt?: BookingInDoubt;
  /** the refusal a duplicate creation request gets again */
  refusal?: { message: string; type: string; details: unknown[] };
}

/** What a processing that gave up on its carrier was doing: enough to finish it (adopt) or to cancel what it booked. */
export interface BookingInDoubt {
  order: BookingOrder;
  plan: ProcessingPlan;
  /** the processing's key (ProcessRequest.processKey, or its update's id) */
  processKey?: string;
  /** workflow time (ms) at which the workflow settles it itself */
  dueAt: number;
  /** settling attempts that failed (the next waits longer) */
  failures: number;
}

export interface CreateDraftRequest {
  customerId: number;
  userId: number | null;
  draft: DraftInput;
  importId?: string | null;
}

/**
 * Replay only: creates the draft (update-with-start). No production code sends it (the relay starts the workflows of
 * drafts the API created); kept while a recorded history in test/workflows/histories/ or a running workflow uses it.
 */
export const createDraftUpdate = defineUpdate<ConsignmentRecord, [CreateDraftRequest]>('createDraft');
/** Partial update of a draft in status 24. */
export const updateDraftUpdate = defineUpdate<ConsignmentRecord, [DraftInput]>('updateDraft');
export const consignmentStateQuery = defineQuery<ConsignmentState>('state');

export type { CarrierEvent, TrackingEventName };

export interface ProcessRequest {
  /** draft fields applied before processing, all or nothing */
  patch: DraftInput | null;
  /** the label format asked for; a carrier that makes its own label makes this one (default pdf) */
  labelFormat?: LabelFormat;
  /**
   * How long booking keeps retrying a carrier that does not answer before processing is refused with
   * CARRIER_UNAVAILABLE and the draft left as it was (default: a few quick retries).
   */
  carrierWaitMs?: number;
  /**
   * What names this processing across its tries (the request's Idempotency-Key); default the update's id. Every
   * try of one key shares it: the consignment records it, and a try that finds the draft processed under it gets
   * that processing's answer instead of NOT_DRAFT.
   */
  processKey?: string;
}

export interface ProcessResult {
  consignmentId: number;
  status: number;
  barcode: string;
  trackingCode: string;
  trackingUrl: string;
  labelId: number;
}

/** Processes a draft: validate, choose and book a carrier, create the label. */
export const processDraftUpdate = defineUpdate<ProcessResult, [ProcessRequest]>('processDraft');
/** Deletes a draft in status 24: its row goes (its reference is free again) and the workflow ends. */
export const deleteDraftUpdate = defineUpdate<{ consignmentId: number }, []>('deleteDraft');
/** Cancels the consignment (cancelRule); the carrier decides once the shipment is in transit. */
export const cancelUpdate = defineUpdate<{ consignmentId: number; status: number }, []>('cancel');
/** A tracking event from the consignment's carrier (push endpoint, sandbox endpoint or polling). */
export const carrierEventSignal = defineSignal<[CarrierEvent]>('carrierEvent');
/** The carrier says the shipment changed (a remote's status webhook) without saying how: the workflow asks it. */
export const carrierChangedSignal = defineSignal<[]>('carrierChanged');
