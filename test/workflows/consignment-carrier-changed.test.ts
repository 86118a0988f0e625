import { describe, expect, it } from '@jest/globals';
import { STATUS } from '../../src/domain/statuses';
import { carrierChangedSignal, type CarrierEvent } from '../../workflows/consignment.messages';
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
  withoutPublishing,
} from './support';

const ctx = useWorkflowTestEnvironment();
const HOUR = 60 * 60 * 1000;

/**
 * A remote carrier's status webhook only says "something changed" (`carrierChanged`): a consignment whose
 * carrier is polled asks it at once instead of at the next poll, and keeps the carrier's id and last status
 * in its state for operators.
 */
describe('consignment workflow: the carrier says something changed', () => {
  it('asks the carrier at once, applies what it reports, and remembers its last status', async () => {
    let feed: CarrierEvent[] = [];
    const { records, calls, callsOf, published, fakes } = lifecycleFakes({ trackShipment: async () => feed });
    await withWorker(ctx, fakes, async (taskQueue) => {
      const { uuid, state } = await seedProcessed(fakes, calls);
      // Polled, but the next poll is an hour away: only the signal can make it ask now.
      const handle = await startConsignment(ctx, taskQueue, { uuid, pollIntervalMs: HOUR, state: { ...state, pollCarrier: true, carrierReference: '9001' } });
      await waitFor('the workflow to wait', async () => (await stateOf(handle)).consignmentId !== null);
      expect(callsOf('trackShipment')).toEqual([]);

      feed = [carrierEvent('PICKED_UP')];
      await handle.signal(carrierChangedSignal);
      await waitFor('the PICKED_UP status', () => records.get(uuid)!.status === STATUS.PICKED_UP);
      expect(callsOf('trackShipment')).toEqual([{ providerId: PROVIDER_ID, trackingCode: `TRK-${uuid}`, carrierReference: '9001' }]);
      const after = await stateOf(handle);
      expect(after).toMatchObject({ carrierReference: '9001', lastCarrierStatus: 'PICKED_UP', carrierChanged: false });

      // The same report again (a second webhook for the same change): asked again, nothing applied twice.
      await handle.signal(carrierChangedSignal);
      await waitFor('the second ask', () => callsOf('trackShipment').length === 2);
      expect(withoutPublishing(calls.map((c) => c.name)).filter((n) => n === 'recordStatus')).toHaveLength(1);
      await terminateWhenPublished(handle, () => published.length === 1);
    });
  });

  it('is ignored by a consignment whose carrier pushes its events (nothing to ask)', async () => {
    const { calls, callsOf, fakes } = lifecycleFakes({ trackShipment: async () => [carrierEvent('PICKED_UP')] });
    await withWorker(ctx, fakes, async (taskQueue) => {
      const { uuid, state } = await seedProcessed(fakes, calls);
      const handle = await startConsignment(ctx, taskQueue, { uuid, pollIntervalMs: HOUR, state: { ...state, pollCarrier: false } });
      await handle.signal(carrierChangedSignal);
      await waitFor('the signal to be taken', async () => (await stateOf(handle)).carrierChanged === true);
      expect(callsOf('trackShipment')).toEqual([]);
      await handle.terminate('test over');
    });
  });
});
