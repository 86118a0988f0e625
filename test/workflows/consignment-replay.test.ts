import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { beforeAll, describe, expect, it } from '@jest/globals';
import { bundleWorkflowCode, DefaultLogger, Worker, type WorkflowBundleWithSourceMap } from '@temporalio/worker';
import { temporal } from '@temporalio/proto';
import { carrierEventSignal } from '../../workflows/consignment.messages';
import { carrierEvent, createProcessedConsignment, lifecycleFakes, useWorkflowTestEnvironment, withWorker, WORKFLOWS_PATH } from './support';

/**
 * Workflows already running when consignflow is upgraded replay their histories with the new code. A history
 * recorded before bookings with built-in carriers became local activities (test/workflows/histories/) must
 * replay without a nondeterminism error: the recorded plan, which did not say `carrierInProcess`, keeps it on
 * the regular activity; one recorded before writes said whether they handed their status events over publishes
 * every event, as it did; one recorded before a poll refused by the carrier's rate limit waited it out records
 * the tracking failure, as it did.
 */
const ctx = useWorkflowTestEnvironment();
let bundle: WorkflowBundleWithSourceMap;

beforeAll(async () => {
  bundle = await bundleWorkflowCode({ workflowsPath: WORKFLOWS_PATH, logger: new DefaultLogger('WARN') });
}, 120_000);

/** A history as `JSON.stringify(await handle.fetchHistory())` wrote it. */
const recorded = (name: string) => temporal.api.history.v1.History.fromObject(JSON.parse(readFileSync(resolve(__dirname, 'histories', name), 'utf8')));

describe('consignment workflow upgrades', () => {
  it('replays a consignment recorded before in-process bookings became local activities', async () => {
    const history = recorded('consignment-before-local-activities.json');
    const scheduled = (history.events ?? [])
      .filter((e) => e.activityTaskScheduledEventAttributes)
      .map((e) => e.activityTaskScheduledEventAttributes!.activityType!.name);
    expect(scheduled).toEqual(expect.arrayContaining(['bookShipment', 'publishStatusEvent']));
    await Worker.runReplayHistory({ workflowBundle: bundle, replayName: 'before local activities' }, history, 'consignment:recorded');
  });

  it("replays a consignment whose poll met the carrier's rate limit before such polls waited it out (recorded as a tracking failure)", async () => {
    const history = recorded('consignment-tracking-rate-limited-before-patch.json');
    const local = (history.events ?? []).filter((e) => e.markerRecordedEventAttributes?.markerName === 'core_local_activity');
    expect(local.length).toBeGreaterThan(0);
    const failed = (history.events ?? []).find((e) => e.activityTaskFailedEventAttributes);
    expect(failed?.activityTaskFailedEventAttributes?.failure?.applicationFailureInfo?.type).toBe('CARRIER_BUSY');
    await Worker.runReplayHistory({ workflowBundle: bundle, replayName: 'before rate-limit waits' }, history, 'consignment:recorded');
  });

  it('a consignment booked with a built-in carrier books in a local activity (no activity task), and its history replays', async () => {
    const { fakes, names } = lifecycleFakes({ carrierInProcess: true });
    await withWorker(ctx, fakes, async (taskQueue) => {
      const { handle } = await createProcessedConsignment(ctx, taskQueue);
      await handle.signal(carrierEventSignal, carrierEvent('PICKED_UP', 'e-new-1'));
      await handle.signal(carrierEventSignal, carrierEvent('DELIVERED', 'e-new-2'));
      await handle.result();
      expect(names()).toContain('bookShipment');
      const history = await handle.fetchHistory();
      const scheduled = (history.events ?? [])
        .filter((e) => e.activityTaskScheduledEventAttributes)
        .map((e) => e.activityTaskScheduledEventAttributes!.activityType!.name);
      expect(scheduled).not.toContain('bookShipment');
      await Worker.runReplayHistory({ workflowBundle: bundle, replayName: 'after' }, history, handle.workflowId);
    });
  });

  it('a consignment whose writes hand its events over (nobody subscribed) schedules no publishing, and its history replays', async () => {
    const { fakes, names } = lifecycleFakes({ carrierInProcess: true, dispatched: () => true });
    await withWorker(ctx, fakes, async (taskQueue) => {
      const { handle } = await createProcessedConsignment(ctx, taskQueue);
      await handle.signal(carrierEventSignal, carrierEvent('PICKED_UP', 'e-quiet-1'));
      await handle.signal(carrierEventSignal, carrierEvent('DELIVERED', 'e-quiet-2'));
      await handle.result();
      expect(names()).not.toContain('publishStatusEvent');
      const history = await handle.fetchHistory();
      expect((history.events ?? []).filter((e) => e.activityTaskScheduledEventAttributes)).toEqual([]);
      await Worker.runReplayHistory({ workflowBundle: bundle, replayName: 'handed over' }, history, handle.workflowId);
    });
  });
});
