import {
  ActivityFailure,
  ApplicationFailure,
  currentUpdateInfo,
  patched,
  proxyActivities,
  proxyLocalActivities,
  upsertSearchAttributes,
} from '@temporalio/workflow';
import type { ConsignmentRecord } from '../src/domain/consignment';
import type { DraftInput } from '../src/domain/draft';
import type { BookedShipment, BookingOrder, ProcessingPlan } from '../src/domain/shipment';
import { cancelRule, canTransition, isDraft, isFinal, STATUS, statusName } from '../src/domain/statuses';
import { TRACKING_EVENT_STATUS } from '../src/domain/tracking';
import type { LifecycleActivities } from './activities';
import { failureReason } from './carrier-failures';
import type { CarrierEvent, ConsignmentState, ConsignmentWorkflowInput, CreateDraftRequest, ProcessRequest, ProcessResult } from './consignment.messages';
import { Lock } from './lock';
import { doublingRetry } from './retry';
import { SA } from './search-attributes';
import { publishingQueue, type PublishingQueue } from './status-publishing';

/** Read-model writes are short, local to the worker and idempotent: local activities, retried briefly. */
const READ_MODEL_WRITES = { startToCloseTimeout: '20 seconds', retry: doublingRetry('200 ms', '5 seconds', 6) } as const;

/** Carrier calls cross a network: regular activities, retried with backoff while the HTTP caller waits. */
const CARRIER_CALLS = { startToCloseTimeout: '30 seconds', retry: doublingRetry('500 ms', '10 seconds', 5) } as const;

/**
 * A booking activity tells Temporal every few seconds that it is alive: the try a dead worker (kill -9) was
 * running is retried after this, within a caller's carrier wait, instead of after its start-to-close timeout.
 * Long enough that a busy worker's beat is never late: a try timed out while it still runs would race its retry.
 */
const CARRIER_HEARTBEAT = { heartbeatTimeout: '15 seconds' } as const;

/** The read-model writes (local activities: they run in the worker that runs the workflow task). */
export const readModel = proxyLocalActivities<LifecycleActivities>(READ_MODEL_WRITES);
const carrier = proxyActivities<LifecycleActivities>(CARRIER_CALLS);
const localCarrier = proxyLocalActivities<LifecycleActivities>(CARRIER_CALLS);

/** Settling a booking in doubt: a few tries within a minute (a draft's change waits for it); the workflow tries again later. */
const settling = proxyActivities<LifecycleActivities>({
  startToCloseTimeout: '30 seconds',
  scheduleToCloseTimeout: '1 minute',
  retry: doublingRetry('500 ms', '5 seconds'),
  ...CARRIER_HEARTBEAT,
});

/**
 * Booking that keeps retrying a carrier that does not answer for `waitMs` (processing over HTTP: seconds;
 * imports: hours), then gives up. Retries honour a carrier's Retry-After (the activity's next retry delay).
 */
function bookingWithin(waitMs: number, inProcess = false) {
  const options = {
    startToCloseTimeout: '30 seconds',
    scheduleToCloseTimeout: waitMs,
    retry: doublingRetry('500 ms', waitMs > 10 * 60_000 ? '2 minutes' : '5 seconds'),
  } as const;
  return inProcess ? proxyLocalActivities<LifecycleActivities>(options) : proxyActivities<LifecycleActivities>({ ...options, ...CARRIER_HEARTBEAT });
}

/** The longest wait between tries of a carrier that keeps failing (tracking polls, settling a booking in doubt). */
export const MAX_CARRIER_BACKOFF_MS = 6 * 60 * 60 * 1000;
const SEEN_EVENTS_KEPT = 500;
const DEFAULT_BOOKING_GRACE_MS = 10 * 60 * 1000;

/** Patch marker: a processing that gives up on its carrier leaves a booking in doubt, which the workflow settles. */
const SETTLES_BOOKINGS_IN_DOUBT = 'settles-bookings-in-doubt';

/** A booking that failed without the carrier refusing it (it never answered in time) is CARRIER_UNAVAILABLE. */
function carrierUnavailable(error: unknown): boolean {
  if (!(error instanceof ActivityFailure)) return false;
  return !(error.cause instanceof ApplicationFailure && error.cause.nonRetryable);
}

/** Business refusals travel to the caller as the ApplicationFailure the activity raised, not wrapped. */
function unwrap(error: unknown): unknown {
  return error instanceof ActivityFailure && error.cause instanceof ApplicationFailure ? error.cause : error;
}

function refuse(type: string, params: Record<string, string | number> = {}): never {
  throw ApplicationFailure.create({ message: type, type, nonRetryable: true, details: [[{ code: type, params }]] });
}

/**
 * One consignment's state and what its messages do to it: the workflow registers these methods as its handlers
 * and runs the tracking loop over the same object. Update handlers and the loop's own changes (carrier events,
 * settling a booking in doubt) take turns through one lock, so two of them never interleave around an activity.
 *
 * The handlers return the lock's promise as it is (no `async` wrapper, no extra `await`): an added await would
 * move their commands within an activation, and a workflow replaying its history must issue them in the order
 * it recorded.
 */
export class ConsignmentLifecycle {
  readonly state: ConsignmentState;
  /** The ids of carrier events already applied, as a set (state.seenEvents keeps the newest). */
  private readonly seen: Set<string>;
  private readonly lock = new Lock();
  private readonly bookingGrace: number;
  readonly publishing: PublishingQueue;

  constructor(input: ConsignmentWorkflowInput) {
    this.state = input.state ?? {
      uuid: input.uuid,
      creation: 'pending',
      consignmentId: null,
      status: null,
      referenceNo: null,
      providerId: null,
      trackingCode: null,
      seenEvents: [],
    };
    this.seen = new Set(this.state.seenEvents ?? []);
    this.bookingGrace = input.bookingGraceMs ?? DEFAULT_BOOKING_GRACE_MS;
    this.publishing = publishingQueue(this.state);
  }

  // ---- rules the validators and handlers share ----

  requireDraft(): void {
    if (this.state.deleted) refuse('CONSIGNMENT_NOT_FOUND');
    if (this.state.creation !== 'created' || !isDraft(this.state.status)) refuse('NOT_DRAFT');
  }

  /** A final status, or the draft deleted: nothing more will happen to it. */
  ended(): boolean {
    return isFinal(this.state.status) || this.state.deleted === true;
  }

  /** The cancel rule of the status table (cancelRule), for this consignment's status now. */
  requireCancellable() {
    const { state } = this;
    if (state.creation !== 'created' || state.status === null || state.deleted) refuse('CONSIGNMENT_NOT_FOUND');
    const rule = cancelRule(state.status);
    if (rule.refusal) refuse(rule.refusal.code, rule.refusal.params);
    return rule;
  }

  /** The draft may be processed, or it was processed under this request's key (whose answer is then given again). */
  requireProcessable(request: ProcessRequest): void {
    if (!this.ownProcessing(request)) this.requireDraft();
  }

  bookingInDoubt(): boolean {
    const { state } = this;
    return state.bookingInDoubt !== undefined && state.creation === 'created' && isDraft(state.status) && !state.deleted;
  }

  /** Whether the carrier event was applied (or dropped) already. */
  hasSeen(eventId: string): boolean {
    return this.seen.has(eventId);
  }

  // ---- update handlers ----

  /**
   * Creates the draft: kept only so that histories recorded with it replay (test/workflows/histories/); nothing
   * sends it now. It can go once no history there, and no running workflow, uses it.
   */
  createDraft(request: CreateDraftRequest): Promise<ConsignmentRecord> {
    const { state } = this;
    return this.guarded(async () => {
      if (state.creation === 'refused' && state.refusal) {
        throw ApplicationFailure.create({ ...state.refusal, nonRetryable: true });
      }
      try {
        const record = await readModel.insertDraft({ uuid: state.uuid, ...request });
        if (state.creation === 'pending') state.creation = 'created';
        return this.followRecord(record);
      } catch (error) {
        const failure = unwrap(error);
        if (state.creation === 'pending' && failure instanceof ApplicationFailure && failure.nonRetryable) {
          state.creation = 'refused';
          state.refusal = { message: failure.message, type: failure.type ?? 'INTERNAL_ERROR', details: [...(failure.details ?? [])] };
        }
        throw failure;
      }
    });
  }

  updateDraft(patch: DraftInput): Promise<ConsignmentRecord> {
    return this.guarded(async () => {
      this.requireDraft();
      await this.releaseBookingInDoubt();
      return this.followRecord(await readModel.updateDraft({ uuid: this.state.uuid, patch }));
    });
  }

  processDraft(request: ProcessRequest): Promise<ProcessResult> {
    return this.guarded(() => this.process(request));
  }

  cancel(): Promise<{ consignmentId: number; status: number }> {
    const { state } = this;
    return this.guarded(async () => {
      const rule = this.requireCancellable();
      const from = state.status!;
      if (rule.carrier) {
        const result = await carrier.cancelBooking
          .executeWithOptions({ summary: `Cancel ${state.trackingCode} at provider ${state.providerId}` }, [
            {
              uuid: state.uuid,
              providerId: state.providerId!,
              trackingCode: state.trackingCode!,
              carrierReference: state.carrierReference,
              inTransit: rule.inTransit,
            },
          ])
          .catch((error: unknown) => (carrierUnavailable(error) && patched(SETTLES_BOOKINGS_IN_DOUBT) ? refuse('CARRIER_UNAVAILABLE') : Promise.reject(error)));
        if (!result.accepted) refuse('CANCEL_FAILED', { reason: result.reason ?? 'refused by the carrier' });
      }
      const written = await readModel.recordStatus({
        uuid: state.uuid,
        from,
        to: STATUS.CANCELLED,
        eventKey: 'cancelled',
        message: 'Cancelled at the customer’s request',
        location: null,
        occurredAt: null,
      });
      const record = this.followRecord(written.record);
      this.publishing.publish(written);
      return { consignmentId: record.id, status: record.status };
    });
  }

  deleteDraft(): Promise<{ consignmentId: number }> {
    const { state } = this;
    return this.guarded(async () => {
      this.requireDraft();
      await this.releaseBookingInDoubt();
      const written = await readModel.deleteDraft({ uuid: state.uuid });
      state.deleted = true;
      upsertSearchAttributes([{ key: SA.ConsignmentStatus, value: 'DELETED' }]);
      this.publishing.publish(written);
      return { consignmentId: state.consignmentId! };
    });
  }

  // ---- signal handlers: they only note what came; the tracking loop acts on it ----

  /** A burst of carrier events costs one history event each until applied; what is not applied yet carries over a continue-as-new. */
  queueCarrierEvent(event: CarrierEvent): void {
    (this.state.pendingEvents ??= []).push(event);
  }

  carrierChanged(): void {
    this.state.carrierChanged = true;
  }

  // ---- the tracking loop's changes ----

  /** At-least-once delivery: a redelivered event is dropped; one that would move the consignment backwards (or out of a final status) too. */
  applyCarrierEvent(event: CarrierEvent): Promise<void> {
    const { state } = this;
    return this.lock.run(async () => {
      if (this.seen.has(event.eventId)) return;
      const to: number | undefined = TRACKING_EVENT_STATUS[event.event];
      if (state.status === null || to === undefined || !canTransition(state.status, to)) {
        this.remember(event.eventId);
        return;
      }
      const written = await readModel.recordStatus({
        uuid: state.uuid,
        from: state.status,
        to,
        eventKey: event.eventId,
        message: event.message ?? null,
        location: event.location ?? null,
        occurredAt: event.occurredAt,
      });
      this.remember(event.eventId);
      this.followRecord(written.record);
      this.publishing.publish(written);
    });
  }

  /** Nobody processed again within the grace period: settled here; a failure is tried again later, each wait doubled. */
  settleInBackground(): Promise<void> {
    const { state } = this;
    return this.lock.run(async () => {
      // Settled meanwhile, or left in doubt again (later) by another processing that gave up.
      if (!this.bookingInDoubt() || Date.now() < state.bookingInDoubt!.dueAt) return;
      try {
        await this.settleBookingInDoubt('adopt');
      } catch (error) {
        if (!(error instanceof ActivityFailure)) throw error;
        const doubt = state.bookingInDoubt!;
        doubt.failures += 1;
        const waitMs = Math.min(this.bookingGrace * 2 ** doubt.failures, MAX_CARRIER_BACKOFF_MS);
        doubt.dueAt = Date.now() + waitMs;
        if (doubt.failures === 1) {
          const note = `A booking in doubt at provider ${doubt.order.providerId} could not be settled yet (${failureReason(error)}); trying again in ${Math.round(waitMs / 60_000)} min`;
          await readModel.recordNotes({ uuid: state.uuid, notes: [note], eventKey: 'booking-in-doubt' }).catch(() => undefined);
        }
      }
    });
  }

  // ---- inside ----

  /** An update handler's body: holds the lock, and its failures reach the caller as the refusal an activity raised. */
  private guarded<T>(fn: () => Promise<T>): Promise<T> {
    return this.lock.run(fn, unwrap);
  }

  /** The workflow's state and search attributes follow the record an activity stored. */
  private followRecord(record: ConsignmentRecord): ConsignmentRecord {
    const { state } = this;
    const changed =
      record.status !== state.status || record.reference_no !== state.referenceNo || record.provider_id !== state.providerId || state.consignmentId === null;
    const barcodeNew = record.barcode !== null && state.trackingCode !== record.tracking_code;
    Object.assign(state, {
      consignmentId: record.id,
      status: record.status,
      referenceNo: record.reference_no,
      providerId: record.provider_id,
      trackingCode: record.tracking_code,
    });
    if (changed || barcodeNew) {
      upsertSearchAttributes([
        { key: SA.ConsignmentId, value: record.id },
        { key: SA.ConsignmentStatus, value: statusName(record.status) },
        { key: SA.ReferenceNo, value: record.reference_no },
        { key: SA.ProviderId, value: record.provider_id },
        { key: SA.Barcode, value: record.barcode },
      ]);
    }
    return record;
  }

  private remember(eventId: string): void {
    this.seen.add(eventId);
    this.state.seenEvents = [...(this.state.seenEvents ?? []), eventId].slice(-SEEN_EVENTS_KEPT);
  }

  private ownProcessing(request: ProcessRequest): boolean {
    return request.processKey !== undefined && this.state.processed?.key === request.processKey;
  }

  /** Validate, choose and book a carrier, write the consignment: nothing is written until the carrier has booked. */
  private async process(request: ProcessRequest): Promise<ProcessResult> {
    const { state } = this;
    if (this.ownProcessing(request)) return state.processed!.result;
    this.requireDraft();
    // The processing's key goes with it: run again after a crash lost this update's history, the plan recognises
    // the processing as its own (the booking and the write are idempotent already).
    const processKey = request.processKey ?? currentUpdateInfo()?.id;
    const plan = await readModel.planProcessing({ uuid: state.uuid, patch: request.patch, processKey });
    // Built-in carriers run in the worker's process: their bookings are local activities, which spares the engine
    // an activity task and a workflow task. The recorded plan decides (a plan that does not say `carrierInProcess`
    // books with the regular activity), so a replay books the way its history did.
    const inProcess = plan.carrierInProcess === true;
    const booker = request.carrierWaitMs ? bookingWithin(request.carrierWaitMs, inProcess) : inProcess ? localCarrier : carrier;
    const order: BookingOrder = {
      uuid: state.uuid,
      providerId: plan.providerId,
      shipment: plan.shipment,
      serviceBarcode: plan.serviceBarcode,
      draft: plan.draft,
      reference: plan.draft.reference_no ?? plan.serviceBarcode,
      labelFormat: request.labelFormat ?? 'pdf',
    };
    const booking = await booker.bookShipment
      .executeWithOptions({ summary: `Book ${order.reference} with provider ${plan.providerId}` }, [order])
      .catch((error: unknown) => {
        if (!carrierUnavailable(error)) {
          // The booking activity settled every earlier try before it was refused.
          state.bookingInDoubt = undefined;
          throw error;
        }
        // The carrier may have booked before we gave up: settled by the next processing, the draft's next change,
        // or the workflow itself once the client had time to process again.
        if (patched(SETTLES_BOOKINGS_IN_DOUBT)) state.bookingInDoubt = { order, plan, processKey, dueAt: Date.now() + this.bookingGrace, failures: 0 };
        return refuse('CARRIER_UNAVAILABLE');
      });
    state.bookingInDoubt = undefined;
    return await this.finishProcessing(plan, booking, processKey);
  }

  /**
   * Writes the processing the carrier booked (the draft becomes a consignment with its label), or, should that
   * fail, cancels the booking: a booking without a processed consignment would be a label nobody uses.
   */
  private async finishProcessing(plan: ProcessingPlan, booking: BookedShipment, processKey: string | undefined): Promise<ProcessResult> {
    const { state } = this;
    try {
      const done = await readModel.completeProcessing({ uuid: state.uuid, plan, booking });
      state.pollCarrier = !plan.carrierPushes;
      state.carrierReference = booking.carrierReference ?? null;
      this.followRecord(done.record);
      this.publishing.publish(done);
      const result = {
        consignmentId: done.record.id,
        status: done.record.status,
        barcode: done.record.barcode!,
        trackingCode: booking.trackingCode,
        trackingUrl: booking.trackingUrl,
        labelId: done.labelId,
      };
      if (processKey !== undefined) state.processed = { key: processKey, result };
      state.bookingInDoubt = undefined;
      return result;
    } catch (error) {
      await carrier.cancelBooking.executeWithOptions({ summary: `Compensate: cancel booking ${booking.trackingCode} at provider ${plan.providerId}` }, [
        { uuid: state.uuid, providerId: plan.providerId, trackingCode: booking.trackingCode, carrierReference: booking.carrierReference, inTransit: false },
      ]);
      throw error;
    }
  }

  /**
   * Settles a booking in doubt: `adopt` (nobody processed again in time) finishes the processing with what the
   * carrier turns out to hold, `release` (the draft is about to change) cancels it there. Either way the history says
   * what was found.
   */
  private async settleBookingInDoubt(mode: 'adopt' | 'release'): Promise<void> {
    const { state } = this;
    const doubt = state.bookingInDoubt!;
    const settled = await settling.settleBooking.executeWithOptions(
      { summary: `${mode === 'adopt' ? 'Settle' : 'Release'} a booking in doubt at provider ${doubt.order.providerId}` },
      [{ ...doubt.order, mode }],
    );
    if (settled.booking) {
      await this.finishProcessing(doubt.plan, { ...settled.booking, notes: [...(settled.booking.notes ?? []), ...settled.notes] }, doubt.processKey);
      return;
    }
    if (settled.notes.length > 0) await readModel.recordNotes({ uuid: state.uuid, notes: settled.notes, eventKey: `booking-settled:${doubt.dueAt}` });
    state.bookingInDoubt = undefined;
  }

  /** Before a draft changes: what an earlier processing may have booked for it is cancelled, or the change waits (503). */
  private async releaseBookingInDoubt(): Promise<void> {
    if (!this.bookingInDoubt()) return;
    await this.settleBookingInDoubt('release').catch((error: unknown) =>
      carrierUnavailable(error) ? refuse('CARRIER_UNAVAILABLE') : Promise.reject(unwrap(error)),
    );
  }
}
