import { describe, expect, it } from '@jest/globals';
import { ApplicationFailure, WorkflowNotFoundError } from '@temporalio/common';
import { STATUS } from '../../src/domain/statuses';
import {
  cancelUpdate,
  carrierEventSignal,
  createDraftUpdate,
  deleteDraftUpdate,
  processDraftUpdate,
  updateDraftUpdate,
  type CarrierEvent,
} from '../../workflows/consignment.messages';
import { createConsignmentStarter, workflowStartOf } from '../../src/temporal/consignment.starter';
import {
  carrierEvent,
  createConsignment,
  createConsignmentByUpdate,
  createProcessedConsignment,
  createRequest,
  CUSTOMER,
  historyEventTypes,
  Gate,
  lifecycleFakes,
  PROVIDER_ID,
  useWorkflowTestEnvironment,
  startConsignment,
  stateOf,
  statusEventId,
  terminateWhenPublished,
  withoutPublishing,
  updateFailure,
  waitFor,
  withWorker,
} from './support';

/** The consignment lifecycle workflow on a real dev server, its activities faked over an in-memory store. */
const ctx = useWorkflowTestEnvironment();

describe('consignment workflow: creation by the relay', () => {
  it('starts created (the draft row and its outbox entry were written first): no activity runs until a change arrives', async () => {
    const { calls, fakes, allPublished } = lifecycleFakes();
    await withWorker(ctx, fakes, async (taskQueue) => {
      const { handle, record } = await createConsignment(ctx, taskQueue);
      expect(await stateOf(handle)).toMatchObject({ creation: 'created', consignmentId: record.id, status: STATUS.NEW_DRAFT, referenceNo: 'REF-1' });
      const description = await handle.describe();
      expect(description.status.name).toBe('RUNNING');
      expect(description.raw.workflowExecutionInfo?.priority?.priorityKey).toBe(4);
      expect(calls).toEqual([]);
      // Starting it again (the relay retrying after a lost answer, or another relay) uses the running workflow.
      const starter = createConsignmentStarter({ client: ctx.env.client, taskQueue });
      await starter.startDraft(workflowStartOf(record, CUSTOMER.customerCode));
      expect((await handle.describe()).runId).toBe(description.runId);
      expect(calls).toEqual([]);
      await terminateWhenPublished(handle, allPublished);
    });
  });
});

/**
 * Histories only: workflows started before the outbox were created by a `createDraft` update. No production code
 * sends it any more; the handler stays for those histories (replayed in consignment-replay.test.ts), and these
 * tests keep it working for a workflow of that age that is still waiting.
 */
describe('consignment workflow: createDraft (histories only)', () => {
  it('ends as pending, without writing anything, when no createDraft arrives within creationTimeoutMs', async () => {
    const { calls, fakes } = lifecycleFakes();
    await withWorker(ctx, fakes, async (taskQueue) => {
      const handle = await startConsignment(ctx, taskQueue, { creationTimeoutMs: 1000 });
      const state = await handle.result();
      expect(state.creation).toBe('pending');
      expect(state.consignmentId).toBeNull();
      expect(state.status).toBeNull();
      expect(calls).toEqual([]);
    });
  });

  it('is created by a createDraft that arrives while it waits, and the creation timeout is disarmed', async () => {
    const { records, callsOf, fakes } = lifecycleFakes();
    await withWorker(ctx, fakes, async (taskQueue) => {
      const handle = await startConsignment(ctx, taskQueue, { creationTimeoutMs: 10_000 });
      const uuid = (await handle.describe()).workflowId.replace(/^consignment:/, '');
      // The workflow is waiting on its creation timeout before the update is sent.
      await waitFor('the creation timer', async () => (await historyEventTypes(handle)).includes('timerStarted'));
      const record = await handle.executeUpdate(createDraftUpdate, { args: [createRequest()] });
      expect(record).toMatchObject({ uuid, status: STATUS.NEW_DRAFT, reference_no: 'REF-1' });
      expect(await stateOf(handle)).toMatchObject({ creation: 'created', consignmentId: record.id, status: STATUS.NEW_DRAFT, referenceNo: 'REF-1' });
      expect(callsOf('insertDraft')).toEqual([{ uuid, ...createRequest() }]);
      const history = await historyEventTypes(handle);
      expect(history).toContain('timerCanceled');
      expect(history).not.toContain('timerFired');
      // Still running: it takes the next update and ends only at a final status.
      expect(await handle.executeUpdate(cancelUpdate, { args: [] })).toEqual({ consignmentId: record.id, status: STATUS.CANCELLED });
      expect(await handle.result()).toMatchObject({ creation: 'created', consignmentId: record.id, status: STATUS.CANCELLED });
      expect(records.get(uuid)!.status).toBe(STATUS.CANCELLED);
    });
  });

  it('is created by update-with-start (as the service created drafts), whatever the creation timeout', async () => {
    const { callsOf, fakes, allPublished } = lifecycleFakes();
    await withWorker(ctx, fakes, async (taskQueue) => {
      const { handle, record, uuid } = await createConsignmentByUpdate(ctx, taskQueue, { creationTimeoutMs: 1000 });
      expect(record).toMatchObject({ uuid, status: STATUS.NEW_DRAFT });
      expect(await stateOf(handle)).toMatchObject({ creation: 'created', status: STATUS.NEW_DRAFT });
      // A duplicate request (same uuid) gets the stored draft back.
      expect(await handle.executeUpdate(createDraftUpdate, { args: [createRequest()] })).toEqual(record);
      expect(callsOf('insertDraft')).toHaveLength(2);
      await terminateWhenPublished(handle, allPublished);
    });
  });
});

describe('consignment workflow: a refused createDraft (histories only)', () => {
  it('fails the createDraft with the refusal, and a duplicate createDraft gets the same refusal without a second write', async () => {
    const writing = new Gate();
    const { records, callsOf, fakes } = lifecycleFakes({
      insertDraft: async () => {
        await writing.wait();
        throw ApplicationFailure.create({
          message: 'reference REF-1 is used by another consignment',
          type: 'REFERENCE_USED',
          nonRetryable: true,
          details: [[{ code: 'REFERENCE_USED', params: { reference_no: 'REF-1' } }]],
        });
      },
    });
    await withWorker(
      ctx,
      fakes,
      async (taskQueue) => {
        // A short workflow task timeout makes the worker heartbeat the task while insertDraft (a local
        // activity) is blocked, so the duplicate request is delivered while the first one is still writing.
        const handle = await startConsignment(ctx, taskQueue, { creationTimeoutMs: 60_000 }, { workflowTaskTimeout: '1 second' });
        const first = handle.executeUpdate(createDraftUpdate, { args: [createRequest()] });
        first.catch(() => undefined);
        await waitFor('the first insertDraft to be writing', () => writing.waiting === 1);
        const second = await handle.startUpdate(createDraftUpdate, { args: [createRequest()], waitForStage: 'ACCEPTED' });
        writing.open();

        const refusal = await updateFailure(first);
        expect(refusal).toEqual({
          type: 'REFERENCE_USED',
          message: 'reference REF-1 is used by another consignment',
          details: [[{ code: 'REFERENCE_USED', params: { reference_no: 'REF-1' } }]],
        });
        expect(await updateFailure(second.result())).toEqual(refusal);
        expect(callsOf('insertDraft')).toHaveLength(1);
        expect(records.size).toBe(0);

        const state = await handle.result();
        expect(state).toMatchObject({
          creation: 'refused',
          consignmentId: null,
          status: null,
          refusal: { type: 'REFERENCE_USED', message: 'reference REF-1 is used by another consignment' },
        });
      },
      { onStop: () => writing.open() },
    );
  });
});

describe('consignment workflow: process and cancel', () => {
  it('serialises a cancel sent while processing runs: booked first, then the booking is cancelled (not in transit)', async () => {
    const booking = new Gate();
    const { records, names, callsOf, published, fakes } = lifecycleFakes({ bookShipment: () => booking.wait() });
    await withWorker(
      ctx,
      fakes,
      async (taskQueue) => {
        const { handle, record, uuid } = await createConsignment(ctx, taskQueue);
        const processing = await handle.startUpdate(processDraftUpdate, { args: [{ patch: null }], waitForStage: 'ACCEPTED' });
        await waitFor('the carrier booking to be in flight', () => booking.waiting === 1);
        const cancelling = await handle.startUpdate(cancelUpdate, { args: [], waitForStage: 'ACCEPTED' });
        booking.open();

        expect(await processing.result()).toEqual({
          consignmentId: record.id,
          status: STATUS.LABEL_CREATED,
          barcode: `SB-${record.id}`,
          trackingCode: `TRK-${uuid}`,
          trackingUrl: `https://carrier.example/track/TRK-${uuid}`,
          labelId: record.id + 1,
        });
        expect(await cancelling.result()).toEqual({ consignmentId: record.id, status: STATUS.CANCELLED });
        expect(await handle.result()).toMatchObject({ status: STATUS.CANCELLED, trackingCode: `TRK-${uuid}` });

        // The cancel waited for processing to end (the Lock), then saw a booked consignment.
        expect(withoutPublishing(names())).toEqual(['planProcessing', 'bookShipment', 'completeProcessing', 'cancelBooking', 'recordStatus']);
        expect(callsOf('cancelBooking')).toEqual([{ uuid, providerId: PROVIDER_ID, trackingCode: `TRK-${uuid}`, carrierReference: null, inTransit: false }]);
        expect(callsOf('recordStatus')).toEqual([
          {
            uuid,
            from: STATUS.LABEL_CREATED,
            to: STATUS.CANCELLED,
            eventKey: 'cancelled',
            message: 'Cancelled at the customer’s request',
            location: null,
            occurredAt: null,
          },
        ]);
        expect(records.get(uuid)!.status).toBe(STATUS.CANCELLED);
        expect(published).toEqual([statusEventId(uuid, 'processed'), statusEventId(uuid, 'cancelled')]);
      },
      { onStop: () => booking.open() },
    );
  });

  it('serialises a process sent while a draft is being cancelled: cancelled without the carrier, then processing is refused NOT_DRAFT', async () => {
    const writing = new Gate();
    const { records, names, fakes } = lifecycleFakes({ recordStatus: () => writing.wait() });
    await withWorker(
      ctx,
      fakes,
      async (taskQueue) => {
        // recordStatus is a local activity: a short task timeout lets the process update in while it is blocked.
        const { handle, record, uuid } = await createConsignment(ctx, taskQueue, {}, createRequest(), { workflowTaskTimeout: '1 second' });
        const cancelling = handle.executeUpdate(cancelUpdate, { args: [] });
        cancelling.catch(() => undefined);
        await waitFor('the cancel to be writing', () => writing.waiting === 1);
        const processing = await handle.startUpdate(processDraftUpdate, { args: [{ patch: null }], waitForStage: 'ACCEPTED' });
        writing.open();

        expect(await cancelling).toEqual({ consignmentId: record.id, status: STATUS.CANCELLED });
        expect(await updateFailure(processing.result())).toMatchObject({ type: 'NOT_DRAFT' });
        expect(await handle.result()).toMatchObject({ status: STATUS.CANCELLED });
        // A draft has no booking: no carrier is called, and the refused processing wrote nothing.
        expect(withoutPublishing(names())).toEqual(['recordStatus']);
        expect(records.get(uuid)!.status).toBe(STATUS.CANCELLED);
      },
      { onStop: () => writing.open() },
    );
  });

  it('deletes a draft: the deletion event is published, later changes find nothing, and the workflow completes', async () => {
    const deleting = new Gate();
    const { records, names, fakes } = lifecycleFakes({ publishStatusEvent: () => deleting.wait() });
    await withWorker(
      ctx,
      fakes,
      async (taskQueue) => {
        const { handle, record, uuid } = await createConsignment(ctx, taskQueue);
        expect(await handle.executeUpdate(deleteDraftUpdate, { args: [] })).toEqual({ consignmentId: record.id });
        expect(records.has(uuid)).toBe(false);
        // While its last event is still being published, the workflow runs, and refuses changes.
        expect(await updateFailure(handle.executeUpdate(updateDraftUpdate, { args: [{ reference_no: 'REF-2' }] }))).toMatchObject({
          type: 'CONSIGNMENT_NOT_FOUND',
        });
        expect(await updateFailure(handle.executeUpdate(deleteDraftUpdate, { args: [] }))).toMatchObject({ type: 'CONSIGNMENT_NOT_FOUND' });
        expect(await updateFailure(handle.executeUpdate(cancelUpdate, { args: [] }))).toMatchObject({ type: 'CONSIGNMENT_NOT_FOUND' });
        deleting.open();
        expect(await handle.result()).toMatchObject({ deleted: true, status: STATUS.NEW_DRAFT });
        expect(names().filter((n) => n !== 'publishStatusEvent')).toEqual(['deleteDraft']);
        expect(names()).toContain('publishStatusEvent');
      },
      { onStop: () => deleting.open() },
    );
  });

  it('refuses to delete a processed consignment (NOT_DRAFT), writing nothing', async () => {
    const { records, names, fakes, allPublished } = lifecycleFakes();
    await withWorker(ctx, fakes, async (taskQueue) => {
      const { handle, uuid } = await createProcessedConsignment(ctx, taskQueue);
      const before = withoutPublishing(names());
      expect(await updateFailure(handle.executeUpdate(deleteDraftUpdate, { args: [] }))).toMatchObject({ type: 'NOT_DRAFT' });
      expect(withoutPublishing(names())).toEqual(before);
      expect(records.get(uuid)).toMatchObject({ status: STATUS.LABEL_CREATED });
      await terminateWhenPublished(handle, allPublished);
    });
  });

  it('refuses draft changes and a second processing once processed (NOT_DRAFT), writing nothing', async () => {
    const { records, names, fakes, allPublished } = lifecycleFakes();
    await withWorker(ctx, fakes, async (taskQueue) => {
      const { handle, uuid } = await createProcessedConsignment(ctx, taskQueue);
      const before = withoutPublishing(names());
      expect(await updateFailure(handle.executeUpdate(updateDraftUpdate, { args: [{ reference_no: 'REF-2' }] }))).toMatchObject({ type: 'NOT_DRAFT' });
      expect(await updateFailure(handle.executeUpdate(processDraftUpdate, { args: [{ patch: null }] }))).toMatchObject({ type: 'NOT_DRAFT' });
      expect(withoutPublishing(names())).toEqual(before);
      expect(records.get(uuid)).toMatchObject({ status: STATUS.LABEL_CREATED, reference_no: 'REF-1' });
      expect(await stateOf(handle)).toMatchObject({ status: STATUS.LABEL_CREATED, referenceNo: 'REF-1' });
      await terminateWhenPublished(handle, allPublished);
    });
  });

  it('keeps OUT_FOR_DELIVERY when the carrier refuses the cancel (CANCEL_FAILED with its reason)', async () => {
    const { records, callsOf, fakes, allPublished } = lifecycleFakes({ cancelBooking: () => ({ accepted: false, reason: 'the courier is at the door' }) });
    await withWorker(ctx, fakes, async (taskQueue) => {
      const { handle, uuid } = await createProcessedConsignment(ctx, taskQueue);
      await handle.signal(carrierEventSignal, carrierEvent('PICKED_UP'));
      await handle.signal(carrierEventSignal, carrierEvent('OUT_FOR_DELIVERY'));
      await waitFor('OUT_FOR_DELIVERY', async () => (await stateOf(handle)).status === STATUS.OUT_FOR_DELIVERY);

      const refusal = await updateFailure(handle.executeUpdate(cancelUpdate, { args: [] }));
      expect(refusal).toEqual({
        type: 'CANCEL_FAILED',
        message: 'CANCEL_FAILED',
        details: [[{ code: 'CANCEL_FAILED', params: { reason: 'the courier is at the door' } }]],
      });
      expect(callsOf('cancelBooking')).toEqual([{ uuid, providerId: PROVIDER_ID, trackingCode: `TRK-${uuid}`, carrierReference: null, inTransit: true }]);
      expect(callsOf('recordStatus').map((c) => c.to)).toEqual([STATUS.PICKED_UP, STATUS.OUT_FOR_DELIVERY]);
      expect(records.get(uuid)!.status).toBe(STATUS.OUT_FOR_DELIVERY);
      expect((await stateOf(handle)).status).toBe(STATUS.OUT_FOR_DELIVERY);
      await terminateWhenPublished(handle, allPublished);
    });
  });

  it('cancels OUT_FOR_DELIVERY when the carrier accepts (in transit)', async () => {
    const { records, callsOf, fakes } = lifecycleFakes({ cancelBooking: () => ({ accepted: true }) });
    await withWorker(ctx, fakes, async (taskQueue) => {
      const { handle, record, uuid } = await createProcessedConsignment(ctx, taskQueue);
      await handle.signal(carrierEventSignal, carrierEvent('PICKED_UP'));
      await handle.signal(carrierEventSignal, carrierEvent('OUT_FOR_DELIVERY'));
      await waitFor('OUT_FOR_DELIVERY', async () => (await stateOf(handle)).status === STATUS.OUT_FOR_DELIVERY);

      expect(await handle.executeUpdate(cancelUpdate, { args: [] })).toEqual({ consignmentId: record.id, status: STATUS.CANCELLED });
      expect(callsOf('cancelBooking')).toEqual([{ uuid, providerId: PROVIDER_ID, trackingCode: `TRK-${uuid}`, carrierReference: null, inTransit: true }]);
      expect(callsOf('recordStatus').at(-1)).toMatchObject({ from: STATUS.OUT_FOR_DELIVERY, to: STATUS.CANCELLED, eventKey: 'cancelled' });
      expect(await handle.result()).toMatchObject({ status: STATUS.CANCELLED });
      expect(records.get(uuid)!.status).toBe(STATUS.CANCELLED);
    });
  });

  it('cancels the booking when completing the processing fails for good, and leaves the draft as it was', async () => {
    let failLabel = true;
    const { records, names, callsOf, fakes, allPublished } = lifecycleFakes({
      completeProcessing: () => {
        if (failLabel) throw ApplicationFailure.create({ message: 'the label could not be stored', type: 'LABEL_FAILED', nonRetryable: true });
      },
    });
    await withWorker(ctx, fakes, async (taskQueue) => {
      const { handle, record, uuid } = await createConsignment(ctx, taskQueue);
      expect(await updateFailure(handle.executeUpdate(processDraftUpdate, { args: [{ patch: null }] }))).toMatchObject({
        type: 'LABEL_FAILED',
        message: 'the label could not be stored',
      });
      expect(withoutPublishing(names())).toEqual(['planProcessing', 'bookShipment', 'completeProcessing', 'cancelBooking']);
      expect(callsOf('cancelBooking')).toEqual([{ uuid, providerId: PROVIDER_ID, trackingCode: `TRK-${uuid}`, inTransit: false }]);
      expect(records.get(uuid)!.status).toBe(STATUS.NEW_DRAFT);
      expect(await stateOf(handle)).toMatchObject({ creation: 'created', status: STATUS.NEW_DRAFT, trackingCode: null });

      // Still a draft: processing again succeeds.
      failLabel = false;
      expect(await handle.executeUpdate(processDraftUpdate, { args: [{ patch: null }] })).toMatchObject({
        consignmentId: record.id,
        status: STATUS.LABEL_CREATED,
      });
      await terminateWhenPublished(handle, allPublished);
    });
  });
});

describe('consignment workflow: carrier events', () => {
  it('ends at DELIVERED: a later IN_TRANSIT records nothing (recordStatus once for DELIVERED) and the workflow completes', async () => {
    const publishingDelivered = new Gate();
    let deliveredId = '';
    const { records, callsOf, published, fakes } = lifecycleFakes({
      publishStatusEvent: (eventId) => (deliveredId && eventId.endsWith(`/${deliveredId}`) ? publishingDelivered.wait() : undefined),
    });
    await withWorker(
      ctx,
      fakes,
      async (taskQueue) => {
        const { handle, uuid } = await createProcessedConsignment(ctx, taskQueue);
        const pickedUp = carrierEvent('PICKED_UP');
        const delivered = carrierEvent('DELIVERED');
        deliveredId = delivered.eventId;
        await handle.signal(carrierEventSignal, pickedUp);
        await handle.signal(carrierEventSignal, delivered);
        // The workflow waits for the DELIVERED event to be published before it completes: the next event reaches it.
        await waitFor('DELIVERED to be publishing', () => publishingDelivered.waiting === 1);
        const late = carrierEvent('IN_TRANSIT');
        await handle.signal(carrierEventSignal, late);
        publishingDelivered.open();

        const state = await handle.result();
        expect(state.status).toBe(STATUS.DELIVERED);
        expect(callsOf('recordStatus')).toEqual([
          {
            uuid,
            from: STATUS.LABEL_CREATED,
            to: STATUS.PICKED_UP,
            eventKey: pickedUp.eventId,
            message: 'PICKED_UP',
            location: 'Ankara',
            occurredAt: pickedUp.occurredAt,
          },
          {
            uuid,
            from: STATUS.PICKED_UP,
            to: STATUS.DELIVERED,
            eventKey: delivered.eventId,
            message: 'DELIVERED',
            location: 'Ankara',
            occurredAt: delivered.occurredAt,
          },
        ]);
        expect(records.get(uuid)!.status).toBe(STATUS.DELIVERED);
        // Every status event is out before the workflow ends at a final status.
        expect(published).toEqual([statusEventId(uuid, 'processed'), statusEventId(uuid, pickedUp.eventId), statusEventId(uuid, delivered.eventId)]);
        await expect(handle.signal(carrierEventSignal, carrierEvent('RETURNED'))).rejects.toBeInstanceOf(WorkflowNotFoundError);
      },
      { onStop: () => publishingDelivered.open() },
    );
  });

  it('applies a redelivered event once', async () => {
    const { callsOf, published, fakes, allPublished } = lifecycleFakes();
    await withWorker(ctx, fakes, async (taskQueue) => {
      const { handle, uuid } = await createProcessedConsignment(ctx, taskQueue);
      const [e1, e2, e3] = [carrierEvent('PICKED_UP'), carrierEvent('IN_TRANSIT'), carrierEvent('OUT_FOR_DELIVERY')];
      for (const event of [e1, e1, e2, e1, e2, e3, e3]) await handle.signal(carrierEventSignal, event);
      await waitFor('every event to be applied', async () => {
        const state = await stateOf(handle);
        return state.status === STATUS.OUT_FOR_DELIVERY && (state.pendingEvents ?? []).length === 0;
      });
      expect(callsOf('recordStatus').map((c) => [c.eventKey, c.from, c.to])).toEqual([
        [e1.eventId, STATUS.LABEL_CREATED, STATUS.PICKED_UP],
        [e2.eventId, STATUS.PICKED_UP, STATUS.IN_TRANSIT],
        [e3.eventId, STATUS.IN_TRANSIT, STATUS.OUT_FOR_DELIVERY],
      ]);
      expect((await stateOf(handle)).seenEvents).toEqual([e1.eventId, e2.eventId, e3.eventId]);
      await waitFor('the status events to be published', () => published.length === 4);
      expect(published).toEqual([statusEventId(uuid, 'processed'), ...[e1, e2, e3].map((e) => statusEventId(uuid, e.eventId))]);
      await terminateWhenPublished(handle, allPublished);
    });
  });

  it('publishes only the events their writes did not hand over already (nobody subscribed to them), in order, and ends at DELIVERED without publishing it', async () => {
    const [e1, e2, e3, delivered] = [carrierEvent('PICKED_UP'), carrierEvent('IN_TRANSIT'), carrierEvent('OUT_FOR_DELIVERY'), carrierEvent('DELIVERED')];
    const handedOver = new Set(['processed', e2.eventId, delivered.eventId]);
    const { callsOf, published, fakes } = lifecycleFakes({ dispatched: (eventKey) => handedOver.has(eventKey) });
    await withWorker(ctx, fakes, async (taskQueue) => {
      const { handle, uuid } = await createProcessedConsignment(ctx, taskQueue);
      for (const event of [e1, e2, e3, delivered]) await handle.signal(carrierEventSignal, event);
      const state = await handle.result();
      expect(state.status).toBe(STATUS.DELIVERED);
      expect(callsOf('recordStatus').map((c) => c.eventKey)).toEqual([e1, e2, e3, delivered].map((e) => e.eventId));
      expect(callsOf('publishStatusEvent').map((c) => c.eventId)).toEqual([statusEventId(uuid, e1.eventId), statusEventId(uuid, e3.eventId)]);
      expect(published).toEqual([statusEventId(uuid, e1.eventId), statusEventId(uuid, e3.eventId)]);
      expect(state.unpublished).toEqual([]);
    });
  });

  it('ignores an event that is not an allowed transition (or not a tracking event at all)', async () => {
    const { callsOf, fakes, allPublished } = lifecycleFakes();
    await withWorker(ctx, fakes, async (taskQueue) => {
      const { handle } = await createProcessedConsignment(ctx, taskQueue);
      const skipAhead = carrierEvent('OUT_FOR_DELIVERY'); // LABEL_CREATED → OUT_FOR_DELIVERY is not in the table
      const bogus = { ...carrierEvent('IN_TRANSIT'), event: 'TELEPORTED' } as unknown as CarrierEvent;
      const pickedUp = carrierEvent('PICKED_UP');
      for (const event of [skipAhead, bogus, pickedUp]) await handle.signal(carrierEventSignal, event);
      await waitFor('the events to be handled', async () => (await stateOf(handle)).seenEvents?.length === 3);

      const state = await stateOf(handle);
      expect(state.status).toBe(STATUS.PICKED_UP);
      expect(state.seenEvents).toEqual([skipAhead.eventId, bogus.eventId, pickedUp.eventId]);
      expect(callsOf('recordStatus').map((c) => [c.eventKey, c.from, c.to])).toEqual([[pickedUp.eventId, STATUS.LABEL_CREATED, STATUS.PICKED_UP]]);
      await terminateWhenPublished(handle, allPublished);
    });
  });
});
