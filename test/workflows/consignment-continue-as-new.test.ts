import { describe, expect, it } from '@jest/globals';
import type { WorkflowHandleWithFirstExecutionRunId } from '@temporalio/client';
import type { temporal } from '@temporalio/proto';
import { STATUS } from '../../src/domain/statuses';
import type { consignmentWorkflow } from '../../workflows/consignment.workflow';
import { cancelUpdate, carrierEventSignal, consignmentStateQuery, type CarrierEvent } from '../../workflows/consignment.messages';
import {
  carrierEvent,
  createProcessedConsignment,
  Gate,
  historyEventTypes,
  lifecycleFakes,
  PROVIDER_ID,
  sdkWarnings,
  seedProcessed,
  useWorkflowTestEnvironment,
  startConsignment,
  statusEventId,
  updateFailure,
  waitFor,
  withWorker,
  type ConsignmentHandle,
} from './support';

/** The consignment workflow across continue-as-new: queued carrier events, published status events and updates carry over. */
const ctx = useWorkflowTestEnvironment();

/** The handle of one run (the first one unless `runId` says otherwise): it does not follow continue-as-new. */
const runHandle = (handle: WorkflowHandleWithFirstExecutionRunId<typeof consignmentWorkflow>, runId = handle.firstExecutionRunId) =>
  ctx.env.client.workflow.getHandle<typeof consignmentWorkflow>(handle.workflowId, runId);

/** True once the run's history has a completed workflow task after the last event of `type`: the workflow has reacted to it. */
async function reactedTo(handle: ConsignmentHandle, type: string): Promise<boolean> {
  const types = await historyEventTypes(handle);
  const at = types.lastIndexOf(type);
  return at >= 0 && types.indexOf('workflowTaskCompleted', at) > at;
}

describe('consignment workflow: continue-as-new', () => {
  it('applies a burst of carrier events exactly once, in order, across runs, with updates in between', async () => {
    const { records, callsOf, published, fakes } = lifecycleFakes({ cancelBooking: () => ({ accepted: false, reason: 'the parcel is on the move' }) });
    await withWorker(ctx, fakes, async (taskQueue) => {
      const { handle, uuid } = await createProcessedConsignment(ctx, taskQueue, { historyLimit: 40 });
      const events: CarrierEvent[] = [
        carrierEvent('PICKED_UP'),
        ...Array.from({ length: 24 }, () => carrierEvent('IN_TRANSIT')),
        carrierEvent('OUT_FOR_DELIVERY'),
      ];
      const cancels: Promise<unknown>[] = [];
      for (const [i, event] of events.entries()) {
        await handle.signal(carrierEventSignal, event);
        if (i % 5 === 4) await handle.signal(carrierEventSignal, events[i - 3]); // a redelivery
        if (i % 8 === 7) {
          // An update accepted while events are queued: it runs to its end, whichever run it lands in.
          const cancelling = await handle.startUpdate(cancelUpdate, { args: [], waitForStage: 'ACCEPTED' });
          cancels.push(updateFailure(cancelling.result()));
        }
      }
      const delivered = carrierEvent('DELIVERED');
      await handle.signal(carrierEventSignal, delivered);
      const applied = [...events, delivered];

      const final = await handle.result(); // follows the runs
      expect(final.status).toBe(STATUS.DELIVERED);
      expect(final.pendingEvents ?? []).toEqual([]);
      expect(final.unpublished ?? []).toEqual([]);
      expect(await Promise.all(cancels)).toEqual(
        cancels.map(() => ({
          type: 'CANCEL_FAILED',
          message: 'CANCEL_FAILED',
          details: [[{ code: 'CANCEL_FAILED', params: { reason: 'the parcel is on the move' } }]],
        })),
      );
      expect(callsOf('cancelBooking')).toHaveLength(cancels.length);
      expect(callsOf('cancelBooking').every((c) => c.inTransit && c.providerId === PROVIDER_ID)).toBe(true);

      // Each event written once, in the order it was signalled, each status event published once, in order.
      expect(callsOf('recordStatus').map((c) => c.eventKey)).toEqual(applied.map((e) => e.eventId));
      expect(published).toEqual([statusEventId(uuid, 'processed'), ...applied.map((e) => statusEventId(uuid, e.eventId))]);
      expect(callsOf('publishStatusEvent').map((c) => c.eventId)).toEqual(published);
      expect(records.get(uuid)!.status).toBe(STATUS.DELIVERED);

      // It really went through continue-as-new: the chain of runs, read back from the latest through their histories
      // (the visibility list lags the runs: by more than 20 s once under CI's load).
      const runs: string[] = [];
      for (let runId: string | null | undefined = (await handle.describe()).runId; runId;) {
        const history: temporal.api.history.v1.IHistory = await ctx.env.client.workflow.getHandle(handle.workflowId, runId).fetchHistory();
        const events = history.events!;
        const last = events.at(-1)!;
        runs.unshift(
          last.workflowExecutionContinuedAsNewEventAttributes
            ? 'CONTINUED_AS_NEW'
            : last.workflowExecutionCompletedEventAttributes
              ? 'COMPLETED'
              : String(last.eventType),
        );
        runId = events[0].workflowExecutionStartedEventAttributes?.continuedExecutionRunId;
      }
      expect(runs.filter((s) => s === 'COMPLETED')).toHaveLength(1);
      expect(runs.filter((s) => s === 'CONTINUED_AS_NEW').length).toBeGreaterThanOrEqual(2);
    });
  });

  /**
   * The race the workflow once had: it waited for its handlers, then for the status event being published,
   * then continued as new without looking again, so an update accepted while it waited for the publish was
   * abandoned (the caller got an error, the change was lost). Here the publish is held until an update is in
   * flight, then let go.
   */
  it('finishes an update accepted while it waits for a status event to be published before continuing as new', async () => {
    const publishing = new Gate();
    const carrierCancelling = new Gate();
    let blockedEvent = '';
    const { records, calls, callsOf, published, fakes } = lifecycleFakes({
      publishStatusEvent: (eventId) => (eventId === blockedEvent ? publishing.wait() : undefined),
      cancelBooking: async () => {
        await carrierCancelling.wait();
        return { accepted: true };
      },
    });
    await withWorker(
      ctx,
      fakes,
      async (taskQueue) => {
        // A processed consignment (status 2) with a PICKED_UP event queued; historyLimit 5: the first workflow task
        // (3 events) applies it, and the next wake-up leaves the main loop for continue-as-new.
        const { uuid, record, state } = await seedProcessed(fakes, calls);
        const pickedUp = carrierEvent('PICKED_UP');
        blockedEvent = statusEventId(uuid, pickedUp.eventId);
        const handle = await startConsignment(ctx, taskQueue, { uuid, historyLimit: 5, state: { ...state, pendingEvents: [pickedUp] } });
        const firstRun = runHandle(handle);

        await waitFor('the PICKED_UP status event to be publishing', () => publishing.waiting === 1);
        expect(records.get(uuid)!.status).toBe(STATUS.PICKED_UP);
        // Another event wakes the loop: the history is full, so it waits for the publish before continuing as new.
        const inTransit = carrierEvent('IN_TRANSIT');
        await handle.signal(carrierEventSignal, inTransit);
        await waitFor('the workflow to take the signal', () => reactedTo(firstRun, 'workflowExecutionSignaled'));
        // It left the main loop: the event stays queued for the next run instead of being applied.
        expect(callsOf('recordStatus')).toHaveLength(1);
        expect((await handle.query(consignmentStateQuery)).pendingEvents).toEqual([inTransit]);

        // While the publish is held: a cancel (status 4, with the carrier) is accepted and asks the carrier.
        const cancelling = await handle.startUpdate(cancelUpdate, { args: [], waitForStage: 'ACCEPTED' });
        await waitFor('the carrier to be asked', () => carrierCancelling.waiting === 1);
        publishing.open();
        await waitFor('the workflow to take the published event', () => reactedTo(firstRun, 'activityTaskCompleted'));
        carrierCancelling.open();

        expect(await cancelling.result()).toEqual({ consignmentId: record.id, status: STATUS.CANCELLED });
        expect(records.get(uuid)!.status).toBe(STATUS.CANCELLED);
        expect(callsOf('cancelBooking')).toEqual([{ uuid, providerId: PROVIDER_ID, trackingCode: `TRK-${uuid}`, inTransit: true }]);
        expect(callsOf('recordStatus').map((c) => [c.eventKey, c.from, c.to])).toEqual([
          [pickedUp.eventId, STATUS.LABEL_CREATED, STATUS.PICKED_UP],
          ['cancelled', STATUS.PICKED_UP, STATUS.CANCELLED],
        ]);

        // The run ended at CANCELLED itself (no continue-as-new with the update abandoned), every status event out.
        const final = await handle.result();
        expect(final).toMatchObject({ status: STATUS.CANCELLED, unpublished: [] });
        const history = await historyEventTypes(firstRun);
        expect(history.at(-1)).toBe('workflowExecutionCompleted');
        expect(history).not.toContain('workflowExecutionContinuedAsNew');
        expect(published).toEqual([statusEventId(uuid, pickedUp.eventId), statusEventId(uuid, 'cancelled')]);
        expect(sdkWarnings.filter((w) => w.includes(handle.workflowId))).toEqual([]);
      },
      {
        onStop: () => {
          publishing.open();
          carrierCancelling.open();
        },
      },
    );
  });
});
