import { ActivityFailure, ApplicationFailure, condition, patched, proxyActivities, workflowInfo } from '@temporalio/workflow';
import type { LifecycleActivities } from './activities';
import { carrierBusyFor, failureReason } from './carrier-failures';
import { MAX_CARRIER_BACKOFF_MS, readModel, type ConsignmentLifecycle } from './consignment.lifecycle';
import type { CarrierEvent, ConsignmentState, ConsignmentWorkflowInput } from './consignment.messages';
import { doublingRetry } from './retry';

/**
 * Asking a carrier for tracking events: a few quick retries for a blip. A poll that still fails, or that the
 * carrier refuses (credentials rotated, account closed), is recorded and asked again later with a growing
 * wait: tracking never ends the consignment's workflow, which stays operable (cancel, carrier events).
 */
const CARRIER_TRACKING = { startToCloseTimeout: '30 seconds', retry: doublingRetry('1 second', '30 seconds', 3) } as const;
const tracking = proxyActivities<LifecycleActivities>(CARRIER_TRACKING);

const DEFAULT_HISTORY_LIMIT = 2000;
const DEFAULT_POLL_INTERVAL_MS = 15 * 60 * 1000;

/**
 * Patch marker: the account's tracking poller asks the carrier (docs/carriers.md, "Tracking"); the workflow keeps no
 * poll timer and waits for what the poller, a push or a carrier's "changed" signal brings. A history without the
 * marker polls on the workflow's own timer, as it was recorded.
 */
const TRACKED_BY_POLLER = 'tracked-by-poller';

/** Patch marker: a poll refused by the carrier's rate limit waits out its Retry-After instead of counting as a failure. */
const TRACKING_WAITS_OUT_RATE_LIMIT = 'tracking-waits-out-rate-limit';

/** The wait before the next timer poll: the interval, doubled for each poll failed in a row (up to MAX_CARRIER_BACKOFF_MS). */
function pollWait(pollInterval: number, failures: number): number {
  return failures > 0 ? Math.min(pollInterval * 2 ** failures, Math.max(pollInterval, MAX_CARRIER_BACKOFF_MS)) : pollInterval;
}

/**
 * How long to wait out a carrier's rate limit that outlasted the poll's retries (many consignments asking one
 * carrier at once): what the carrier asked, and up to half as long again, so that consignments refused together
 * do not return together.
 */
function rateLimitWait(busyMs: number): number {
  const wait = Math.min(MAX_CARRIER_BACKOFF_MS, Math.max(1_000, busyMs));
  return Math.round(wait * (1 + Math.random() / 2));
}

/** A failed poll as the read model records it for operators (the consignment's history). */
function trackingFailure(state: ConsignmentState, error: ActivityFailure, retryInMs: number) {
  return {
    uuid: state.uuid,
    providerId: state.providerId!,
    reason: failureReason(error),
    refused: error.cause instanceof ApplicationFailure && error.cause.nonRetryable === true,
    failures: state.trackingFailures!,
    eventKey: `tracking-failure:${state.trackingFailuresTotal}`,
    retryInMs,
  };
}

/**
 * The consignment's life after its creation, until it ends (a final status, the draft deleted) or its history is
 * long enough to continue as new: applies the carrier events the signals queued, one at a time; asks the carrier
 * when it says something changed (or, in a history without the poller's marker, on a timer whose wait doubles
 * while polls fail); settles a booking in doubt when its grace period is over, unless a processing or a change of
 * the draft settles it first.
 *
 * The awaits here are the workflow's own: replay needs the same commands in the same order, so a change that adds
 * or moves an await (or a `patched` call) must be checked against the recorded histories.
 */
export async function followShipment(lifecycle: ConsignmentLifecycle, input: ConsignmentWorkflowInput): Promise<void> {
  const { state } = lifecycle;
  const historyLimit = input.historyLimit ?? DEFAULT_HISTORY_LIMIT;
  const historyFull = () => workflowInfo().continueAsNewSuggested || workflowInfo().historyLength >= historyLimit;
  const pending = () => state.pendingEvents ?? [];
  const polling = () => state.pollCarrier === true && !lifecycle.ended();
  const askCarrier = () => polling() && state.carrierChanged === true;
  const wake = () => lifecycle.ended() || historyFull() || pending().length > 0 || askCarrier();
  const pollInterval = input.pollIntervalMs ?? DEFAULT_POLL_INTERVAL_MS;
  for (;;) {
    const settleIn = lifecycle.bookingInDoubt() ? Math.max(1, state.bookingInDoubt!.dueAt - Date.now()) : undefined;
    const byPoller = polling() && patched(TRACKED_BY_POLLER);
    const timerPolls = polling() && !byPoller;
    const woken =
      settleIn !== undefined
        ? await condition(() => wake() || !lifecycle.bookingInDoubt(), settleIn)
        : timerPolls
          ? await condition(wake, pollWait(pollInterval, state.trackingFailures ?? 0))
          : (await condition(() => wake() || (polling() && !byPoller) || lifecycle.bookingInDoubt()), true);
    if (lifecycle.ended() || historyFull()) return;
    if (settleIn !== undefined && !woken) {
      await lifecycle.settleInBackground();
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
          // Not a failure of this consignment, and no reason to wait a doubled poll interval: ask again once the carrier lets us.
          state.carrierChanged = true;
          await condition(() => lifecycle.ended() || historyFull(), rateLimitWait(busyMs));
          continue;
        }
        state.trackingFailures = (state.trackingFailures ?? 0) + 1;
        state.trackingFailuresTotal = (state.trackingFailuresTotal ?? 0) + 1;
        // Recording is a courtesy to operators: a database out of reach must not end the workflow either.
        await readModel.recordTrackingFailure(trackingFailure(state, error, pollWait(pollInterval, state.trackingFailures))).catch(() => undefined);
        continue;
      }
      state.trackingFailures = 0;
      if (polled.length > 0) state.lastCarrierStatus = polled[polled.length - 1].event;
      (state.pendingEvents ??= []).push(...polled.filter((e) => !lifecycle.hasSeen(e.eventId)));
      continue;
    }
    const next = pending().shift();
    if (next) await lifecycle.applyCarrierEvent(next);
  }
}
