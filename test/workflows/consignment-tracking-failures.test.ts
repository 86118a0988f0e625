import { describe, expect, it } from '@jest/globals';
import { ApplicationFailure } from '@temporalio/common';
import { STATUS } from '../../src/domain/statuses';
import { cancelUpdate, type CarrierEvent } from '../../workflows/consignment.messages';
import {
  carrierEvent,
  lifecycleFakes,
  PROVIDER_ID,
  seedProcessed,
  startConsignment,
  stateOf,
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

/**
 * Tracking never ends a consignment: a poll the carrier refuses (credentials rotated) or cannot answer is
 * recorded and asked again later, each wait twice the last; the consignment stays operable meanwhile.
 */
describe('consignment workflow: tracking that fails', () => {
  it('records each refused poll, backs off, applies the events once the carrier answers, and can still be cancelled', async () => {
    let refusals = 2;
    let feed: CarrierEvent[] = [carrierEvent('PICKED_UP')];
    const { records, calls, callsOf, fakes } = lifecycleFakes({
      trackShipment: async () => {
        if (refusals > 0) {
          refusals--;
          throw refusal("DHL Express refused the account's credentials (HTTP 401)");
        }
        return feed;
      },
    });
    await withWorker(ctx, fakes, async (taskQueue) => {
      const { uuid, state } = await seedProcessed(fakes, calls);
      const handle = await startConsignment(ctx, taskQueue, { uuid, pollIntervalMs: 300, state: { ...state, pollCarrier: true } });
      await waitFor('the PICKED_UP status after two refused polls', () => records.get(uuid)!.status === STATUS.PICKED_UP);
      const failures = callsOf('recordTrackingFailure');
      expect(failures).toEqual([
        {
          uuid,
          providerId: PROVIDER_ID,
          reason: "DHL Express refused the account's credentials (HTTP 401)",
          refused: true,
          failures: 1,
          eventKey: 'tracking-failure:1',
          retryInMs: 600,
        },
        {
          uuid,
          providerId: PROVIDER_ID,
          reason: "DHL Express refused the account's credentials (HTTP 401)",
          refused: true,
          failures: 2,
          eventKey: 'tracking-failure:2',
          retryInMs: 1200,
        },
      ]);
      // A success resets the wait.
      expect(await stateOf(handle)).toMatchObject({ trackingFailures: 0, trackingFailuresTotal: 2 });

      // Refused again: still operable, and a cancel goes through while the carrier refuses.
      refusals = 1_000;
      feed = [];
      await waitFor('another refused poll', () => callsOf('recordTrackingFailure').length >= 3);
      expect(await handle.executeUpdate(cancelUpdate, { args: [] })).toMatchObject({ status: STATUS.CANCELLED });
      expect(await handle.result()).toMatchObject({ status: STATUS.CANCELLED });
    });
  });
});
