/**
 * The activities each workflow calls, as contracts (types only). Workflows proxy these interfaces; the
 * factories in activities/ implement them (`satisfies`), and workflow tests replace them with typed fakes.
 * Declared here, beside the workflows, so workflow code never imports activity code, not even as a type.
 */
import type { ConsignmentRecord } from '../src/domain/consignment';
import type { DraftInput } from '../src/domain/draft';
import type { ImportState, ParseCursor } from '../src/domain/imports';
import type { OrderEventState } from '../src/domain/order-source';
import type { BookedShipment, BookingOrder, ProcessingPlan } from '../src/domain/shipment';

export type { BookingOrder };
import type { CarrierEvent } from '../src/domain/tracking';
import type { WrittenEvent } from '../src/domain/webhook';
import type { CreateDraftRequest } from './consignment.messages';
import type { ParsedPage } from './import.messages';
import type { DeliveryBatchResult, QueuedEvent } from './webhook-delivery.messages';

/** A status change the lifecycle workflow writes (guarded by `from`, keyed by `eventKey`). */
export interface StatusChange {
  uuid: string;
  from: number;
  to: number;
  eventKey: string;
  message: string | null;
  location: string | null;
  occurredAt: string | null;
}

/** Read-model writes of the consignment lifecycle: each one transaction, safe to retry. */
export interface ConsignmentActivities {
  /**
   * Replay-only: the write of the workflow's createDraft handler, which no production code sends (drafts are
   * created by createDrafts with their outbox entry, and the relay starts their workflows). Kept only so that
   * the recorded histories in test/workflows/histories/ that call it still replay; it can go, with the
   * handler, once no recorded history calls it.
   */
  insertDraft(request: CreateDraftRequest & { uuid: string }): Promise<ConsignmentRecord>;
  updateDraft(request: { uuid: string; patch: DraftInput }): Promise<ConsignmentRecord>;
  planProcessing(request: { uuid: string; patch: DraftInput | null; processKey?: string }): Promise<ProcessingPlan>;
  completeProcessing(request: {
    uuid: string;
    plan: ProcessingPlan;
    booking: BookedShipment;
  }): Promise<{ record: ConsignmentRecord; labelId: number } & WrittenEvent>;
  recordStatus(change: StatusChange): Promise<{ record: ConsignmentRecord } & WrittenEvent>;
  /**
   * Records a tracking poll that failed (refused by the carrier, or not answered after its retries): a history
   * entry in the consignment's current status, a metric and a log line naming the account (never a secret).
   */
  recordTrackingFailure(failure: {
    uuid: string;
    providerId: number;
    reason: string;
    refused: boolean;
    failures: number;
    eventKey: string;
    retryInMs: number;
  }): Promise<void>;
  /** Notes in the consignment's history, in its current status (one entry each, keyed `eventKey:i`, so a retry adds none). */
  recordNotes(request: { uuid: string; notes: string[]; eventKey: string }): Promise<void>;
  /** Deletes the draft with its deletion event (NOT_DRAFT when it is not a draft); a retry after it went finds the event. */
  deleteDraft(request: { uuid: string }): Promise<WrittenEvent>;
}

/** Calls to carriers, keyed by the consignment uuid so a retry never books twice. */
export interface CarrierActivities {
  bookShipment(request: BookingOrder): Promise<BookedShipment>;
  /**
   * Settles what a processing that gave up on its carrier may have left there, booking nothing: `adopt` answers
   * the booking the carrier holds (to be finished as the processing), `release` cancels it; notes for the history.
   */
  settleBooking(request: BookingOrder & { mode: 'adopt' | 'release' }): Promise<{ booking?: BookedShipment; notes: string[] }>;
  trackShipment(request: { providerId: number; trackingCode: string; carrierReference?: string | null }): Promise<CarrierEvent[]>;
  cancelBooking(request: {
    uuid: string;
    providerId: number;
    trackingCode: string;
    carrierReference?: string | null;
    inTransit: boolean;
  }): Promise<{ accepted: boolean; reason?: string }>;
}

/** Handing a status event to webhook delivery. */
export interface StatusEventActivities {
  publishStatusEvent(request: { eventId: string }): Promise<void>;
}

/** What one tracking round did (the poller's next wait follows from it). */
export interface TrackingRound {
  /** the provider has no carrier any more (its account is gone): the poller ends */
  gone: boolean;
  asked: number;
  requests: number;
  /** consignments whose carrier said something new (their workflows were signalled) */
  changed: number;
  /** consignments whose answer was an error */
  failed: number;
  /** until the next consignment is due; absent when none is tracked */
  nextDueInMs?: number;
  /** the interval the round asked by (the worker's CARRIER_POLL_INTERVAL_MS; absent: the poller's own): its waits follow it */
  intervalMs?: number;
}

/** The tracking poller's work: a round over one provider's consignments in flight, and a round that failed. */
export interface TrackingActivities {
  trackingRound(request: { providerId: number; intervalMs: number }): Promise<TrackingRound>;
  recordTrackingRoundFailure(failure: {
    providerId: number;
    reason: string;
    refused: boolean;
    failures: number;
    retryInMs: number;
    since: number;
  }): Promise<void>;
}

export type LifecycleActivities = ConsignmentActivities & CarrierActivities & StatusEventActivities;

export interface WebhookDeliveryActivities {
  deliverWebhookEvents(request: { webhookId: number; events: QueuedEvent[] }): Promise<DeliveryBatchResult>;
  disableFailingWebhook(request: { webhookId: number; eventId: string; windowMs: number }): Promise<void>;
}

export interface ImportActivities {
  startImport(request: { importId: string }): Promise<void>;
  finishImport(request: {
    importId: string;
    state: Exclude<ImportState, 'queued' | 'running'>;
    error: { code: string; params?: Record<string, string | number> } | null;
  }): Promise<void>;
  parseImportPage(request: { importId: string; from: ParseCursor; maxOrders: number }): Promise<ParsedPage>;
  createImportBatch(request: { importId: string; fromSeq: number; toSeq: number; concurrency: number }): Promise<{ done: number }>;
}

/** Live order feeds: one received order event becomes a draft (or cancels one), then optionally a label. */
export interface OrderFeedActivities {
  /** Creates the event's draft, or cancels the order's draft or consignment; records the outcome. Safe to retry. */
  applyOrderEvent(request: { eventId: number }): Promise<{ state: OrderEventState; process: boolean }>;
  /** Processes the event's draft (booking and label); records processed or failed. Safe to retry. */
  processOrderEvent(request: { eventId: number }): Promise<{ state: OrderEventState }>;
}

/** Marketplace order sources: a pull of the packages changed since the last one, and the write-backs of what was shipped. */
export interface MarketplaceActivities {
  /** Pulls the source's packages changed since its last pull into order events (each started); records the pull. Safe to retry. */
  pullOrderSource(request: { sourceId: string }): Promise<{ packages: number; events: number }>;
  /** Writes back every processed package of the source not written back yet; records each outcome on its event. Safe to retry. */
  writeBackOrderSource(request: { sourceId: string }): Promise<{ done: number; refused: number }>;
}

export type AllActivities = LifecycleActivities &
  WebhookDeliveryActivities &
  ImportActivities &
  OrderFeedActivities &
  TrackingActivities &
  MarketplaceActivities;
