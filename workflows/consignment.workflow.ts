import {
  ActivityFailure,
  allHandlersFinished,
  ApplicationFailure,
  condition,
  currentUpdateInfo,
  continueAsNew,
  patched,
  proxyActivities,
  proxyLocalActivities,
  setHandler,
  upsertSearchAttributes,
  workflowInfo,
} from '@temporalio/workflow';
import type { ConsignmentRecord } from '../src/domain/consignment';
import type { BookedShipment, BookingOrder, ProcessingPlan } from '../src/domain/shipment';
import { cancelRule, canTransition, isDraft, isFinal, STATUS, statusName } from '../src/domain/statuses';
import { TRACKING_EVENT_STATUS } from '../src/domain/tracking';
import type { WrittenEvent } from '../src/domain/webhook';
import type { LifecycleActivities } from './activities';
import {
  cancelUpdate,
  deleteDraftUpdate,
  carrierChangedSignal,
  carrierEventSignal,
  consignmentStateQuery,
  createDraftUpdate,
  processDraftUpdate,
  updateDraftUpdate,
  type ConsignmentState,
  type ProcessRequest,
  type ProcessResult,
  type CarrierEvent,
  type ConsignmentWorkflowInput,
} from './consignment.messages';
import { Lock } from './lock';
import { SA } from './search-attributes';
import { carrierBusyFor, failureReason } from './carrier-failures';
import { doublingRetry } from './retry';

/** Read-model writes are short, local to the worker and idempotent: local activities, retried briefly. */
const READ_MODEL_WRITES = { startToCloseTimeout: '20 seconds', retry: doublingRetry('200 ms', '5 seconds', 6) } as const;

/** Carrier calls cross a network: regular activities, retried with backoff while the HTTP caller waits. */
const CARRIER_CALLS = { startToCloseTimeout: '30 seconds', retry: doublingRetry('500 ms', '10 seconds', 5) } as const;

/** A creation that never completes (its request died before the update reached us) ends the workflow. */
const DEFAULT_CREATION_TIMEOUT_MS = 2 * 60 * 1000;
const SEEN_EVENTS_KEPT = 500;
const DEFAULT_HISTORY_LIMIT = 2000;
const DEFAULT_POLL_INTERVAL_MS = 15 * 60 * 1000;

/**
 * Handing a status event to webhook delivery must eventually happen, however long the outage. Nobody waits on it:
 * it runs below the priority of work a caller waits for (3), as the relay's starts do (docs/architecture.md).
 */
const EVENT_PUBLISHING = { startToCloseTimeout: '30 seconds', retry: doublingRetry('1 second', '1 minute'), priority: { priorityKey: 4 } } as const;

/**
 * Asking a carrier for tracking events: a few quick retries for a blip. A poll that still fails, or that the
 * carrier refuses (credentials rotated, account closed), is recorded and asked again later with a growing
 * wait: tracking never ends the consignment's workflow, which stays operable (cancel, carrier events).
 */
const CARRIER_TRACKING = { startToCloseTimeout: '30 seconds', retry: doublingRetry('1 second', '30 seconds', 3) } as const;
/** The longest wait between polls while a carrier keeps failing. */
const MAX_TRACKING_BACKOFF_MS = 6 * 60 * 60 * 1000;
/** Patch marker: a poll refused by the carrier's rate limit waits out its Retry-After instead of counting as a failure. */
const TRACKING_WAITS_OUT_RATE_LIMIT = 'tracking-waits-out-rate-limit';

/** The read-model writes (local activities: they run in the worker that runs the workflow task). */
const readModel = proxyLocalActivities<LifecycleActivities>(READ_MODEL_WRITES);
const carrier = proxyActivities<LifecycleActivities>(CARRIER_CALLS);
const tracking = proxyActivities<LifecycleActivities>(CARRIER_TRACKING);
/**
 * Publishing stays a regular activity: it runs beside the workflow's ending, and a local activity there would
 * be run again whenever the final workflow task is refused for a signal that came in meanwhile.
 */
const events = proxyActivities<LifecycleActivities>(EVENT_PUBLISHING);

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

/**
 * A booking activity tells Temporal every few seconds that it is alive: the try a dead worker (kill -9) was
 * running is retried after this, within a caller's carrier wait, instead of after its start-to-close timeout.
 * Long enough that a busy worker's beat is never late: a try timed out while it still runs would race its retry.
 */
const CARRIER_HEARTBEAT = { heartbeatTimeout: '15 seconds' } as const;

/** Settling a booking in doubt: a few tries within a minute (a draft's change waits for it); the workflow tries again later. */
const settling = proxyActivities<LifecycleActivities>({
  startToCloseTimeout: '30 seconds',
  scheduleToCloseTimeout: '1 minute',
  retry: doublingRetry('500 ms', '5 seconds'),
  ...CARRIER_HEARTBEAT,
});

/**
 * Patch marker: the account's tracking poller asks the carrier (docs/carriers.md, "Tracking"); the workflow keeps no
 * poll timer and waits for what the poller, a push or a carrier's "changed" signal brings.
 */
const TRACKED_BY_POLLER = 'tracked-by-poller';

/** Patch marker: a processing that gives up on its carrier leaves a booking in doubt, which the workflow settles. */
const SETTLES_BOOKINGS_IN_DOUBT = 'settles-bookings-in-doubt';
const DEFAULT_BOOKING_GRACE_MS = 10 * 60 * 1000;
const localCarrier = proxyLocalActivities<LifecycleActivities>(CARRIER_CALLS);

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
 * The lifecycle of one consignment and the single writer of its record (docs/architecture.md, principle 1):
 * draft → processed (label, carrier) → carrier statuses → delivered | returned, or cancelled.
 * Every change arrives as an Update (the HTTP caller waits for the result) or a Signal (carrier events);
 * activities persist it to the read model, and search attributes follow for the Temporal UI.
 */
export async function consignmentWorkflow(input: ConsignmentWorkflowInput): Promise<ConsignmentState> {
  const state: ConsignmentState = input.state ?? {
    uuid: input.uuid,
    creation: 'pending',
    consignmentId: null,
    status: null,
    referenceNo: null,
    providerId: null,
    trackingCode: null,
    seenEvents: [],
  };
  const seen = new Set(state.seenEvents ?? []);
  const lock = new Lock();
  const bookingGrace = input.bookingGraceMs ?? DEFAULT_BOOKING_GRACE_MS;
  // Status events are published one after another, in the order of the changes (webhooks keep that order).
  // The HTTP caller does not wait for them; what is not published yet carries over a continue-as-new, and a
  // final status waits until all are out.
  let publishing: Promise<void> | null = null;
  let stopPublishing = false;
  /** Queues a written event for publishing (not one the write handed over already: nobody subscribed to it). */
  const publish = (written?: WrittenEvent) => {
    const queue = (state.unpublished ??= []);
    if (written && !written.dispatched) queue.push(written.eventId);
    if (publishing || stopPublishing || queue.length === 0) return;
    publishing = (async () => {
      try {
        while (!stopPublishing && queue.length > 0) {
          await events.publishStatusEvent({ eventId: queue[0] });
          queue.shift();
        }
      } finally {
        publishing = null;
      }
    })();
  };
  publish(); // events a previous run left unpublished

  /** The workflow's state and search attributes follow the record an activity stored. */
  const followRecord = (record: ConsignmentRecord): ConsignmentRecord => {
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
  };
  const remember = (eventId: string) => {
    seen.add(eventId);
    state.seenEvents = [...(state.seenEvents ?? []), eventId].slice(-SEEN_EVENTS_KEPT);
  };
  const requireDraft = () => {
    if (state.deleted) refuse('CONSIGNMENT_NOT_FOUND');
    if (state.creation !== 'created' || !isDraft(state.status)) refuse('NOT_DRAFT');
  };
  /** A final status, or the draft deleted: nothing more will happen to it. */
  const ended = () => isFinal(state.status) || state.deleted === true;
  /** The cancel rule of the status table (cancelRule), for this consignment's status now. */
  const requireCancellable = () => {
    if (state.creation !== 'created' || state.status === null || state.deleted) refuse('CONSIGNMENT_NOT_FOUND');
    const rule = cancelRule(state.status);
    if (rule.refusal) refuse(rule.refusal.code, rule.refusal.params);
    return rule;
  };

  /** The draft may be processed, or it was processed under this request's key (whose answer is then given again). */
  const ownProcessing = (request: ProcessRequest) => request.processKey !== undefined && state.processed?.key === request.processKey;
  const requireProcessable = (request: ProcessRequest) => {
    if (!ownProcessing(request)) requireDraft();
  };
  const bookingInDoubt = () => state.bookingInDoubt !== undefined && state.creation === 'created' && isDraft(state.status) && !state.deleted;

  /**
   * Writes the processing the carrier booked (the draft becomes a consignment with its label), or, should that
   * fail, cancels the booking: a booking without a processed consignment would be a label nobody uses.
   */
  const finishProcessing = async (plan: ProcessingPlan, booking: BookedShipment, processKey: string | undefined): Promise<ProcessResult> => {
    try {
      const done = await readModel.completeProcessing({ uuid: state.uuid, plan, booking });
      state.pollCarrier = !plan.carrierPushes;
      state.carrierReference = booking.carrierReference ?? null;
      followRecord(done.record);
      publish(done);
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
  };

  /** Validate, choose and book a carrier, write the consignment: nothing is written until the carrier has booked. */
  const processDraft = async (request: ProcessRequest): Promise<ProcessResult> => {
    if (ownProcessing(request)) return state.processed!.result;
    requireDraft();
    // The processing's key goes with it: run again after a crash lost this update's history, the plan recognises
    // the processing as its own (the booking and the write are idempotent already).
    const processKey = request.processKey ?? currentUpdateInfo()?.id;
    try {
      const plan = await readModel.planProcessing({ uuid: state.uuid, patch: request.patch, processKey });
      // Built-in carriers run in the worker's process: their bookings are local activities, which spares the
      // engine an activity task and a workflow task. Decided by the recorded plan, so histories from before
      // the plan said so replay with their regular activity.
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
          if (patched(SETTLES_BOOKINGS_IN_DOUBT)) state.bookingInDoubt = { order, plan, processKey, dueAt: Date.now() + bookingGrace, failures: 0 };
          return refuse('CARRIER_UNAVAILABLE');
        });
      state.bookingInDoubt = undefined;
      return await finishProcessing(plan, booking, processKey);
    } catch (error) {
      throw unwrap(error);
    }
  };

  /**
   * Settles a booking in doubt: `adopt` (nobody processed again in time) finishes the processing with what the
   * carrier turns out to hold, `release` (the draft is about to change) cancels it there. Either way the history says
   * what was found.
   */
  const settleBookingInDoubt = async (mode: 'adopt' | 'release') => {
    const doubt = state.bookingInDoubt!;
    const settled = await settling.settleBooking.executeWithOptions(
      { summary: `${mode === 'adopt' ? 'Settle' : 'Release'} a booking in doubt at provider ${doubt.order.providerId}` },
      [{ ...doubt.order, mode }],
    );
    if (settled.booking) {
      await finishProcessing(doubt.plan, { ...settled.booking, notes: [...(settled.booking.notes ?? []), ...settled.notes] }, doubt.processKey);
      return;
    }
    if (settled.notes.length > 0) await readModel.recordNotes({ uuid: state.uuid, notes: settled.notes, eventKey: `booking-settled:${doubt.dueAt}` });
    state.bookingInDoubt = undefined;
  };

  /** Before a draft changes: what an earlier processing may have booked for it is cancelled, or the change waits (503). */
  const releaseBookingInDoubt = async () => {
    if (!bookingInDoubt()) return;
    await settleBookingInDoubt('release').catch((error: unknown) =>
      carrierUnavailable(error) ? refuse('CARRIER_UNAVAILABLE') : Promise.reject(unwrap(error)),
    );
  };

  /** Nobody processed again within the grace period: settled here; a failure is tried again later, each wait doubled. */
  const settleInBackground = () =>
    lock.run(async () => {
      // Settled meanwhile, or left in doubt again (later) by another processing that gave up.
      if (!bookingInDoubt() || Date.now() < state.bookingInDoubt!.dueAt) return;
      try {
        await settleBookingInDoubt('adopt');
      } catch (error) {
        if (!(error instanceof ActivityFailure)) throw error;
        const doubt = state.bookingInDoubt!;
        doubt.failures += 1;
        const waitMs = Math.min(bookingGrace * 2 ** doubt.failures, MAX_TRACKING_BACKOFF_MS);
        doubt.dueAt = Date.now() + waitMs;
        if (doubt.failures === 1) {
          const note = `A booking in doubt at provider ${doubt.order.providerId} could not be settled yet (${failureReason(error)}); trying again in ${Math.round(waitMs / 60_000)} min`;
          await readModel.recordNotes({ uuid: state.uuid, notes: [note], eventKey: 'booking-in-doubt' }).catch(() => undefined);
        }
      }
    });

  setHandler(consignmentStateQuery, () => state);

  // Histories only: before the outbox, drafts were created by this update (update-with-start). No production code
  // sends it now; workflows started that way (and their recorded histories, test/workflows/histories/) still
  // replay through it, so it stays until no such workflow runs. Replayed by test/workflows/consignment-replay.test.ts.
  setHandler(createDraftUpdate, (request) =>
    lock.run(async () => {
      if (state.creation === 'refused' && state.refusal) {
        throw ApplicationFailure.create({ ...state.refusal, nonRetryable: true });
      }
      try {
        const record = await readModel.insertDraft({ uuid: state.uuid, ...request });
        if (state.creation === 'pending') state.creation = 'created';
        return followRecord(record);
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
    (patch) =>
      lock.run(async () => {
        requireDraft();
        await releaseBookingInDoubt();
        return followRecord(await readModel.updateDraft({ uuid: state.uuid, patch }).catch((e) => Promise.reject(unwrap(e))));
      }),
    { validator: (..._args: unknown[]) => requireDraft() },
  );

  setHandler(processDraftUpdate, (request) => lock.run(() => processDraft(request)), { validator: (request) => requireProcessable(request) });
  setHandler(
    cancelUpdate,
    () =>
      lock.run(async () => {
        const rule = requireCancellable();
        const from = state.status!;
        try {
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
              .catch((error: unknown) =>
                carrierUnavailable(error) && patched(SETTLES_BOOKINGS_IN_DOUBT) ? refuse('CARRIER_UNAVAILABLE') : Promise.reject(error),
              );
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
          const record = followRecord(written.record);
          publish(written);
          return { consignmentId: record.id, status: record.status };
        } catch (error) {
          throw unwrap(error);
        }
      }),
    { validator: () => void requireCancellable() },
  );

  setHandler(
    deleteDraftUpdate,
    () =>
      lock.run(async () => {
        requireDraft();
        await releaseBookingInDoubt();
        try {
          const written = await readModel.deleteDraft({ uuid: state.uuid });
          state.deleted = true;
          upsertSearchAttributes([{ key: SA.ConsignmentStatus, value: 'DELETED' }]);
          publish(written);
          return { consignmentId: state.consignmentId! };
        } catch (error) {
          throw unwrap(error);
        }
      }),
    { validator: () => requireDraft() },
  );

  // Signals only queue: the main loop applies them one by one, so a burst of carrier events costs one
  // history event each until applied, and what is not applied yet carries over a continue-as-new.
  setHandler(carrierEventSignal, (event) => {
    (state.pendingEvents ??= []).push(event);
  });
  setHandler(carrierChangedSignal, () => {
    state.carrierChanged = true;
  });

  /** At-least-once delivery: a redelivered event is dropped; one that would move the consignment backwards (or out of a final status) too. */
  const applyCarrierEvent = (event: CarrierEvent) =>
    lock.run(async () => {
      if (seen.has(event.eventId)) return;
      const to: number | undefined = TRACKING_EVENT_STATUS[event.event];
      if (state.status === null || to === undefined || !canTransition(state.status, to)) {
        remember(event.eventId);
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
      remember(event.eventId);
      followRecord(written.record);
      publish(written);
    });

  // Histories only: a workflow started without state waited for its createDraft (the relay starts drafts created).
  if (state.creation === 'pending') {
    await condition(() => state.creation !== 'pending', input.creationTimeoutMs ?? DEFAULT_CREATION_TIMEOUT_MS);
    if ((state.creation as ConsignmentState['creation']) !== 'created') {
      await condition(allHandlersFinished);
      return state;
    }
  }

  // The consignment lives until a final status, for weeks if the carrier is slow; continue-as-new keeps its
  // history bounded (the state, including the ids of recent carrier events, carries over).
  const historyLimit = input.historyLimit ?? DEFAULT_HISTORY_LIMIT;
  const historyFull = () => workflowInfo().continueAsNewSuggested || workflowInfo().historyLength >= historyLimit;
  const pending = () => state.pendingEvents ?? [];
  const polling = () => state.pollCarrier === true && !ended();
  const askCarrier = () => polling() && state.carrierChanged === true;
  const wake = () => ended() || historyFull() || pending().length > 0 || askCarrier();
  const pollInterval = input.pollIntervalMs ?? DEFAULT_POLL_INTERVAL_MS;
  /** The wait before the next poll: the interval, doubled for each poll failed in a row (up to MAX_TRACKING_BACKOFF_MS). */
  const pollWait = (failures: number) =>
    failures > 0 ? Math.min(pollInterval * 2 ** failures, Math.max(pollInterval, MAX_TRACKING_BACKOFF_MS)) : pollInterval;
  for (;;) {
    // A carrier without push is asked by its account's tracking poller, which signals the events that are new; this
    // workflow asks it itself only when the carrier says something changed (a remote's status webhook). Workflows
    // from before the poller asked on a durable timer, and go on doing so while their history replays.
    // A booking in doubt is settled when due, unless a processing or a change of the draft settles it first.
    const settleIn = bookingInDoubt() ? Math.max(1, state.bookingInDoubt!.dueAt - Date.now()) : undefined;
    // The account's tracking poller asks the carrier and signals what changed; workflows from before it polled on a timer.
    const byPoller = polling() && patched(TRACKED_BY_POLLER);
    const timerPolls = polling() && !byPoller;
    const woken =
      settleIn !== undefined
        ? await condition(() => wake() || !bookingInDoubt(), settleIn)
        : timerPolls
          ? await condition(wake, pollWait(state.trackingFailures ?? 0))
          : (await condition(() => wake() || (polling() && !byPoller) || bookingInDoubt()), true);
    if (ended() || historyFull()) break;
    if (settleIn !== undefined && !woken) {
      await settleInBackground();
      continue;
    }
    if (settleIn !== undefined && pending().length === 0) continue;
    if (!woken || askCarrier()) {
      state.carrierChanged = false;
      let polled: CarrierEvent[];
      try {
        polled = await tracking.trackShipment.executeWithOptions(
          { summary: `${woken ? 'Carrier reported a change' : 'Poll'}: track ${state.trackingCode} at provider ${state.providerId}` },
          [{ providerId: state.providerId!, trackingCode: state.trackingCode!, carrierReference: state.carrierReference }],
        );
      } catch (error) {
        if (!(error instanceof ActivityFailure)) throw error;
        const busyMs = carrierBusyFor(error);
        if (busyMs !== undefined && patched(TRACKING_WAITS_OUT_RATE_LIMIT)) {
          // The carrier's rate limit outlasted the poll's retries (many consignments asking one carrier at once):
          // not a failure of this consignment, and no reason to wait a doubled poll interval. Ask again once it
          // lets us, each consignment up to half the wait later so that those refused together do not return together.
          const wait = Math.min(MAX_TRACKING_BACKOFF_MS, Math.max(1_000, busyMs));
          state.carrierChanged = true;
          await condition(() => ended() || historyFull(), Math.round(wait * (1 + Math.random() / 2)));
          continue;
        }
        state.trackingFailures = (state.trackingFailures ?? 0) + 1;
        state.trackingFailuresTotal = (state.trackingFailuresTotal ?? 0) + 1;
        // Recording is a courtesy to operators: a database out of reach must not end the workflow either.
        const failure = {
          uuid: state.uuid,
          providerId: state.providerId!,
          reason: failureReason(error),
          refused: error.cause instanceof ApplicationFailure && error.cause.nonRetryable === true,
          failures: state.trackingFailures,
          eventKey: `tracking-failure:${state.trackingFailuresTotal}`,
          retryInMs: pollWait(state.trackingFailures),
        };
        await readModel.recordTrackingFailure(failure).catch(() => undefined);
        continue;
      }
      state.trackingFailures = 0;
      if (polled.length > 0) state.lastCarrierStatus = polled[polled.length - 1].event;
      (state.pendingEvents ??= []).push(...polled.filter((e) => !seen.has(e.eventId)));
      continue;
    }
    const next = pending().shift();
    if (next) await applyCarrierEvent(next);
  }
  // Finish or continue as new only with no handler running. Waiting for the event being published lets new
  // updates in (an activity is awaited), so check again after it: an update accepted meanwhile runs to its
  // end here instead of being abandoned by continue-as-new. Before a final status every event goes out;
  // before continue-as-new the rest of the queue carries over.
  for (;;) {
    await condition(allHandlersFinished);
    const final = ended();
    stopPublishing = !final;
    if (final) publish();
    while (publishing) await publishing;
    if (allHandlersFinished() && ended() === final) break;
  }
  if (!ended()) {
    return continueAsNew<typeof consignmentWorkflow>({ ...input, state });
  }
  return state;
}
