import { ActivityFailure, ApplicationFailure, condition, continueAsNew, proxyActivities, setHandler, workflowInfo } from '@temporalio/workflow';
import type { TrackingActivities } from './activities';
import { carrierBusyFor, failureReason } from './carrier-failures';
import { doublingRetry } from './retry';
import { trackingPollerStateQuery, trackingPollerWakeSignal, type TrackingPollerInput, type TrackingPollerState } from './tracking-poller.messages';

/**
 * A round runs below the priority of work a caller waits for (processing, cancelling: the default, 3), so a busy
 * engine dispatches those first; a few quick retries for a blip, heartbeats for a long round.
 */
const rounds = proxyActivities<TrackingActivities>({
  startToCloseTimeout: '10 minutes',
  // The round beats every 5 s (the worker passes beats on within 3 s): a dead worker's round is retried soon.
  heartbeatTimeout: '20 seconds',
  retry: doublingRetry('1 second', '30 seconds', 3),
  priority: { priorityKey: 5 },
});
const records = proxyActivities<TrackingActivities>({
  startToCloseTimeout: '30 seconds',
  retry: doublingRetry('1 second', '30 seconds', 5),
  priority: { priorityKey: 5 },
});

/** The longest wait between rounds while the carrier keeps failing. */
const MAX_BACKOFF_MS = 6 * 60 * 60 * 1000;
/** The shortest wait between rounds: consignments just answered are not due again at once. */
const MIN_GAP_MS = 1_000;

/**
 * One carrier account's tracking (docs/carriers.md, "Tracking"): rounds that ask the carrier about every
 * consignment in flight that is due, in the carrier's batches, signalling only the consignments whose carrier
 * said something new. A round's cost follows what changed, not what is in flight. The carrier's rate limit or
 * outage slows this poller alone; the consignments stay operable whatever it answers. Lives as long as the
 * account, continuing as new.
 */
export async function trackingPollerWorkflow(input: TrackingPollerInput): Promise<void> {
  const state: TrackingPollerState = input.state ?? { failures: 0 };
  setHandler(trackingPollerStateQuery, () => state);
  let wake = false;
  setHandler(trackingPollerWakeSignal, () => {
    wake = true;
  });
  /** The wait between rounds, cut short by a wake signal. */
  const pause = async (ms: number) => {
    await condition(() => wake, ms);
    wake = false;
  };
  // A consignment handed over is first due a third of the interval later: waking that often finds it in time.
  let intervalMs = input.intervalMs;
  const longestWait = () => Math.max(MIN_GAP_MS, Math.round(intervalMs / 3));
  for (;;) {
    let waitMs: number;
    try {
      const round = await rounds.trackingRound.executeWithOptions({ summary: `Tracking round of provider ${input.providerId}` }, [
        { providerId: input.providerId, intervalMs },
      ]);
      if (round.gone) return;
      intervalMs = round.intervalMs ?? intervalMs;
      state.failures = 0;
      state.failingSince = undefined;
      state.lastRound = { at: Date.now(), asked: round.asked, requests: round.requests, changed: round.changed, failed: round.failed };
      waitMs = Math.min(longestWait(), Math.max(MIN_GAP_MS, round.nextDueInMs ?? longestWait()));
    } catch (error) {
      if (!(error instanceof ActivityFailure)) throw error;
      const busyMs = carrierBusyFor(error);
      if (busyMs !== undefined) {
        // The carrier's rate limit: not a failure, the next round waits as long as it asked.
        waitMs = Math.min(MAX_BACKOFF_MS, Math.max(MIN_GAP_MS, busyMs));
      } else {
        state.failures += 1;
        state.failingSince ??= Date.now();
        waitMs = Math.min(intervalMs * 2 ** state.failures, Math.max(intervalMs, MAX_BACKOFF_MS));
        const cause = error.cause;
        state.lastFailure = failureReason(error);
        // A courtesy to operators: a database out of reach must not end the poller either.
        await records
          .recordTrackingRoundFailure({
            providerId: input.providerId,
            reason: state.lastFailure,
            refused: cause instanceof ApplicationFailure && cause.nonRetryable === true,
            failures: state.failures,
            retryInMs: waitMs,
            since: state.failingSince,
          })
          .catch(() => undefined);
      }
    }
    const info = workflowInfo();
    if (info.continueAsNewSuggested || info.historyLength >= (input.historyLimit ?? 1000)) {
      // The wait goes with the new run: its first round comes when this one's would have.
      await pause(waitMs);
      return continueAsNew<typeof trackingPollerWorkflow>({ ...input, intervalMs, state });
    }
    await pause(waitMs);
  }
}
