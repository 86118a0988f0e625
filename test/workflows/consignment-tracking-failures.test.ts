import { describe, expect, it } from '@jest/globals';
import { ApplicationFailure } from '@temporalio/common';
import { STATUS } from '../../src/domain/statuses';
import { cancelUpdate, carrierChangedSignal, carrierEventSignal } from '../../workflows/consignment.messages';
import {
  carrierEvent,
  lifecycleFakes,
  PROVIDER_ID,
  seedProcessed,
  startConsignment,
  stateOf,
  terminateWhenPublished,
  useWorkflowTestEnvironment,
  waitFor,
  withWorker,
} from './support';

const ctx = useWorkflowTestEnvironment();

/** A carrier's refusal as the booking activities raise it (CarrierRefusedError → CARRIER_REFUSED, not retried). */
const refusal = (reason: string) =>
  ApplicationFailure.create({
    message: 'CARRIER_REFUSED',
    type: 'CARRIER_REFUSED',
    nonRetryable: true,
    details: [[{ code: 'CARRIER_REFUSED', field: 'provider_id', params: { reason } }]],
  });

/** A carrier's rate limit as the carrier activities raise it (CarrierBusyError → CARRIER_BUSY, retried after its Retry-After). */
const busy = (retryAfterMs: number) =>
  ApplicationFailure.create({
    message: "the remote's rate limit was reached",
    type: 'CARRIER_BUSY',
    nextRetryDelay: retryAfterMs,
    details: [{ retryAfterMs }],
  });
const HOUR = 60 * 60 * 1000;

/**
 * Tracking never ends a consignment: the carrier's events come from its account's tracking poller (signals), and a
 * question the workflow asks itself (the carrier said something changed) that the carrier refuses or cannot
 * answer is recorded; the consignment stays operable meanwhile.
 */
describe('consignment workflow: tracking that fails', () => {
  it('keeps no poll timer: asks only when the carrier says something changed, records a refusal, applies the poller’s events, and can still be cancelled', async () => {
    const { records, calls, callsOf, fakes } = lifecycleFakes({
      trackShipment: async () => {
        throw refusal("DHL Express refused the account's credentials (HTTP 401)");
      },
    });
    await withWorker(ctx, fakes, async (taskQueue) => {
      const { uuid, state } = await seedProcessed(fakes, calls);
      const handle = await startConsignment(ctx, taskQueue, { uuid, pollIntervalMs: 300, state: { ...state, pollCarrier: true } });
      // An interval of 300 ms would have polled several times by now.
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      expect(callsOf('trackShipment')).toEqual([]);
      expect((await handle.fetchHistory()).events?.some((e) => e.timerStartedEventAttributes)).toBe(false);

      await handle.signal(carrierChangedSignal);
      await waitFor('the refused question to be recorded', () => callsOf('recordTrackingFailure').length === 1);
      expect(callsOf('recordTrackingFailure')[0]).toMatchObject({
        uuid,
        providerId: PROVIDER_ID,
        reason: "DHL Express refused the account's credentials (HTTP 401)",
        refused: true,
        failures: 1,
      });
      expect(callsOf('trackShipment')).toHaveLength(1);

      // The poller's signal moves it, whatever the workflow's own question met.
      await handle.signal(carrierEventSignal, carrierEvent('PICKED_UP'));
      await waitFor('the PICKED_UP status', () => records.get(uuid)!.status === STATUS.PICKED_UP);
      expect(await handle.executeUpdate(cancelUpdate, { args: [] })).toMatchObject({ status: STATUS.CANCELLED });
      expect(await handle.result()).toMatchObject({ status: STATUS.CANCELLED });
    });
  });

  it("waits out a carrier's rate limit that outlasts the poll's retries: asks again after its Retry-After, not a tracking failure", async () => {
    // Busy for more calls than the poll's own retries (3 attempts), as when many consignments ask one remote at once.
    let busyAnswers = 5;
    const { records, calls, callsOf, published, fakes } = lifecycleFakes({
      trackShipment: async () => {
        if (busyAnswers > 0) {
          busyAnswers--;
          throw busy(300);
        }
        return [carrierEvent('PICKED_UP')];
      },
    });
    await withWorker(ctx, fakes, async (taskQueue) => {
      const { uuid, state } = await seedProcessed(fakes, calls);
      // The next poll is an hour away: only asking again after the Retry-After brings the status in time.
      const handle = await startConsignment(ctx, taskQueue, { uuid, pollIntervalMs: HOUR, state: { ...state, pollCarrier: true, carrierReference: '9001' } });
      await handle.signal(carrierChangedSignal);
      await waitFor('the PICKED_UP status after the carrier stopped answering 429', () => records.get(uuid)!.status === STATUS.PICKED_UP, {
        timeoutMs: 30_000,
      });
      expect(callsOf('trackShipment')).toHaveLength(6);
      expect(callsOf('recordTrackingFailure')).toEqual([]);
      expect(await stateOf(handle)).toMatchObject({ trackingFailures: 0, carrierChanged: false, lastCarrierStatus: 'PICKED_UP' });
      await terminateWhenPublished(handle, () => published.length === 1);
    });
  }, 60_000);
});
