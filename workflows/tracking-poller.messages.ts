import { defineQuery, defineSignal } from '@temporalio/workflow';

export interface TrackingPollerInput {
  /** the carrier account (or built-in carrier) whose consignments in flight this poller asks about */
  providerId: number;
  /** the base interval between questions about one consignment (CARRIER_POLL_INTERVAL_MS) */
  intervalMs: number;
  /** continue as new once the history has this many events (default 1,000) */
  historyLimit?: number;
  /** carried over by continue-as-new */
  state?: TrackingPollerState;
}

export interface TrackingPollerState {
  /** rounds that failed in a row (refused, or not answered after their retries): the next waits longer */
  failures: number;
  /** workflow time (ms) the current run of failures began, for its history entries' key */
  failingSince?: number;
  /** the last round, for operators (the Temporal UI's query) */
  lastRound?: { at: number; asked: number; requests: number; changed: number; failed: number };
  /** the last failure's reason, for operators */
  lastFailure?: string;
}

export const trackingPollerStateQuery = defineQuery<TrackingPollerState>('state');

/** Ask now, not after the wait: a worker that (re)started, perhaps with another interval, makes sure of its pollers this way. */
export const trackingPollerWakeSignal = defineSignal('wake');
