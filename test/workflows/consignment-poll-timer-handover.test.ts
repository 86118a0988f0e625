import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { bundleWorkflowCode, DefaultLogger, Worker, type WorkflowBundleWithSourceMap } from '@temporalio/worker';
import { STATUS } from '../../src/domain/statuses';
import { carrierEventSignal } from '../../workflows/consignment.messages';
import { carrierEvent, lifecycleFakes, seedProcessed, startConsignment, uniqueId, useWorkflowTestEnvironment, waitFor } from './support';

/**
 * A consignment workflow that began under the code from before the tracking pollers (it polled its carrier on a
 * timer of its own) goes on under today's code: its history replays, the timer it was waiting on fires once more,
 * and from then on it keeps no timer and takes the poller's signals. The earlier code is the last commit that had
 * it, read from git and bundled beside today's.
 */
const ctx = useWorkflowTestEnvironment();
const REPO = resolve(__dirname, '../..');
/** The last landed commit whose consignment workflow polled on its own timer. */
const BEFORE_POLLERS = 'd50633f';
const DIR = join(REPO, '.scratch', `workflows-${BEFORE_POLLERS}`);
let before: WorkflowBundleWithSourceMap;

beforeAll(async () => {
  rmSync(DIR, { recursive: true, force: true });
  mkdirSync(join(DIR, 'workflows'), { recursive: true });
  // Its `../src/...` imports reach today's domain modules, which kept what it uses.
  symlinkSync(join(REPO, 'src'), join(DIR, 'src'));
  const files = execFileSync('git', ['ls-tree', '--name-only', BEFORE_POLLERS, 'workflows/'], { cwd: REPO, encoding: 'utf8' }).trim().split('\n');
  for (const file of files) writeFileSync(join(DIR, file), execFileSync('git', ['show', `${BEFORE_POLLERS}:${file}`], { cwd: REPO }));
  before = await bundleWorkflowCode({ workflowsPath: join(DIR, 'workflows'), logger: new DefaultLogger('WARN') });
}, 120_000);
afterAll(() => rmSync(DIR, { recursive: true, force: true }));

describe('a consignment workflow from before the tracking pollers', () => {
  it('keeps working under today’s code: no more timer of its own, the poller’s events applied', async () => {
    const { records, calls, callsOf, fakes } = lifecycleFakes();
    const taskQueue = uniqueId('tq');
    const worker = (workflowBundle: WorkflowBundleWithSourceMap) =>
      Worker.create({
        connection: ctx.env.nativeConnection,
        namespace: 'default',
        taskQueue,
        workflowBundle,
        activities: fakes,
        shutdownGraceTime: '1 second',
      });
    const { uuid, state } = await seedProcessed(fakes, calls);

    // Under the earlier code: it polls every 300 ms.
    const handle = await (
      await worker(before)
    ).runUntil(async () => {
      const started = await startConsignment(ctx, taskQueue, { uuid, pollIntervalMs: 300, state: { ...state, pollCarrier: true } });
      await waitFor('two polls on its own timer', () => callsOf('trackShipment').length >= 2);
      return started;
    });
    const polledBefore = callsOf('trackShipment').length;

    await (
      await worker(ctx.bundle)
    ).runUntil(async () => {
      // The timer it was waiting on fires once more; the step after it records the patch marker, and no timer follows.
      const marked = async () => ((await handle.fetchHistory()).events ?? []).some((e) => e.markerRecordedEventAttributes?.markerName === 'core_patch');
      await waitFor('the patch marker in its history', marked, { timeoutMs: 20_000 });
      const polledAfter = callsOf('trackShipment').length;
      expect(polledAfter).toBeLessThanOrEqual(polledBefore + 1);
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      expect(callsOf('trackShipment').length).toBe(polledAfter);

      await handle.signal(carrierEventSignal, carrierEvent('PICKED_UP'));
      await waitFor('the poller’s event applied', () => records.get(uuid)!.status === STATUS.PICKED_UP);
      await handle.terminate();
    });
  }, 120_000);
});
