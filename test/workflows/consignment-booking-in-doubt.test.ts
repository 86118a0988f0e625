import { describe, expect, it } from '@jest/globals';
import { STATUS } from '../../src/domain/statuses';
import type { BookedShipment } from '../../src/domain/shipment';
import { processDraftUpdate, updateDraftUpdate } from '../../workflows/consignment.messages';
import { createConsignment, lifecycleFakes, stateOf, updateFailure, useWorkflowTestEnvironment, waitFor, withWorker } from './support';

/**
 * A processing that gives up on its carrier (CARRIER_UNAVAILABLE) may have booked there before it gave up. The
 * workflow keeps that booking in doubt until something settles it: the next processing (its booking looks up
 * first), a change of the draft (which cancels what the carrier holds first), or, when nobody comes back within
 * the grace period, the workflow itself, which finishes the processing with what the carrier holds.
 */
const ctx = useWorkflowTestEnvironment();

const held: BookedShipment = {
  providerId: 3,
  trackingCode: 'HELD-1',
  trackingUrl: 'https://carrier.example/track/HELD-1',
  pickupBooked: false,
  baseCost: 42,
  currency: 'TRY',
  serviceName: 'Standard',
};
/** The carrier never answers a booking: processing gives up after its carrier wait. */
const carrierDown = () => {
  throw new Error('connect ECONNREFUSED');
};
const GIVES_UP = { patch: null, carrierWaitMs: 1_500, processKey: 'process-key-1' };

describe('consignment workflow: a booking in doubt', () => {
  it('is settled by the workflow once the grace period passes: the carrier’s booking becomes the consignment’s, and the same key gets its answer', async () => {
    const { records, names, callsOf, fakes } = lifecycleFakes({ bookShipment: carrierDown, settleBooking: () => ({ booking: held, notes: ['adopted'] }) });
    await withWorker(ctx, fakes, async (taskQueue) => {
      const { handle, uuid } = await createConsignment(ctx, taskQueue, { bookingGraceMs: 1_000 });
      expect((await updateFailure(handle.executeUpdate(processDraftUpdate, { args: [GIVES_UP] }))).type).toBe('CARRIER_UNAVAILABLE');
      expect(records.get(uuid)!.status).toBe(STATUS.NEW_DRAFT);
      expect((await stateOf(handle)).bookingInDoubt).toMatchObject({ processKey: 'process-key-1', failures: 0 });

      await waitFor('the workflow to settle the booking', () => records.get(uuid)!.status === STATUS.LABEL_CREATED, { timeoutMs: 20_000 });
      expect(callsOf('settleBooking')).toEqual([expect.objectContaining({ uuid, mode: 'adopt', providerId: 3 })]);
      expect(callsOf('completeProcessing')[0].booking).toMatchObject({ trackingCode: 'HELD-1', notes: ['adopted'] });
      expect(records.get(uuid)!.tracking_code).toBe('HELD-1');
      const state = await stateOf(handle);
      expect(state.bookingInDoubt).toBeUndefined();
      expect(state.processed).toMatchObject({ key: 'process-key-1', result: { trackingCode: 'HELD-1' } });

      // The client's retry with the same key (another try, so another update): the processing's answer, no activity.
      const before = names().length;
      const retried = await handle.executeUpdate(processDraftUpdate, { args: [GIVES_UP], updateId: 'process-key-1.2' });
      expect(retried).toEqual(state.processed!.result);
      expect(
        names()
          .slice(before)
          .filter((n) => n !== 'publishStatusEvent'),
      ).toEqual([]);
      // Another key: the draft is no longer a draft.
      expect((await updateFailure(handle.executeUpdate(processDraftUpdate, { args: [{ ...GIVES_UP, processKey: 'another' }] }))).type).toBe('NOT_DRAFT');
      await handle.terminate();
    });
  });

  it('leaves the draft a draft when the carrier holds nothing, with the look-up in its history, and settles once', async () => {
    const { records, callsOf, fakes } = lifecycleFakes({ bookShipment: carrierDown });
    await withWorker(ctx, fakes, async (taskQueue) => {
      const { handle, uuid } = await createConsignment(ctx, taskQueue, { bookingGraceMs: 500 });
      expect((await updateFailure(handle.executeUpdate(processDraftUpdate, { args: [GIVES_UP] }))).type).toBe('CARRIER_UNAVAILABLE');
      await waitFor('the notes of the settling', () => callsOf('recordNotes').length === 1, { timeoutMs: 20_000 });
      expect(callsOf('recordNotes')[0]).toMatchObject({ uuid, notes: ['nothing held'] });
      expect((await stateOf(handle)).bookingInDoubt).toBeUndefined();
      expect(records.get(uuid)!.status).toBe(STATUS.NEW_DRAFT);
      await new Promise((r) => setTimeout(r, 1_500));
      expect(callsOf('settleBooking')).toHaveLength(1);
      await handle.terminate();
    });
  });

  it('is released before the draft changes: what the carrier holds is cancelled there first', async () => {
    const { names, callsOf, fakes } = lifecycleFakes({ bookShipment: carrierDown });
    await withWorker(ctx, fakes, async (taskQueue) => {
      const { handle } = await createConsignment(ctx, taskQueue, { bookingGraceMs: 3_600_000 });
      expect((await updateFailure(handle.executeUpdate(processDraftUpdate, { args: [GIVES_UP] }))).type).toBe('CARRIER_UNAVAILABLE');
      await handle.executeUpdate(updateDraftUpdate, { args: [{ reference_no: 'REF-2' }] });
      expect(callsOf('settleBooking').map((c) => c.mode)).toEqual(['release']);
      const order = names().filter((n) => n === 'settleBooking' || n === 'updateDraft' || n === 'recordNotes');
      expect(order).toEqual(['settleBooking', 'recordNotes', 'updateDraft']);
      expect((await stateOf(handle)).bookingInDoubt).toBeUndefined();
      await handle.terminate();
    });
  });

  it('is settled by the next processing (its booking looks up first): the workflow settles nothing later', async () => {
    let down = true;
    const { records, callsOf, fakes } = lifecycleFakes({ bookShipment: () => (down ? carrierDown() : undefined) });
    await withWorker(ctx, fakes, async (taskQueue) => {
      const { handle, uuid } = await createConsignment(ctx, taskQueue, { bookingGraceMs: 1_000 });
      expect((await updateFailure(handle.executeUpdate(processDraftUpdate, { args: [GIVES_UP] }))).type).toBe('CARRIER_UNAVAILABLE');
      down = false;
      await handle.executeUpdate(processDraftUpdate, { args: [GIVES_UP], updateId: 'process-key-1.2' });
      expect(records.get(uuid)!.status).toBe(STATUS.LABEL_CREATED);
      expect((await stateOf(handle)).bookingInDoubt).toBeUndefined();
      await new Promise((r) => setTimeout(r, 2_000));
      expect(callsOf('settleBooking')).toEqual([]);
      await handle.terminate();
    });
  });
});
