import { describe, expect, it } from '@jest/globals';
import { ApplicationFailure } from '@temporalio/common';
import type { ParseCursor } from '../../src/domain/imports';
import type { ImportActivities } from '../../workflows/activities';
import { cancelImportUpdate, importProgressQuery, type ImportTuning } from '../../workflows/import.messages';
import type { importWorkflow } from '../../workflows/import.workflow';
import { Gate, useWorkflowTestEnvironment, uniqueId, waitFor, withWorker } from './support';

/** Order imports on a real dev server; the file, its parsing and the draft creation are typed in-memory fakes. */
const ctx = useWorkflowTestEnvironment();

type Finish = Parameters<ImportActivities['finishImport']>[0];

/**
 * The import activities over an in-memory file of `orders` orders (seq 0 … orders-1; a cursor's offset is
 * 100 bytes per order). `onParse` / `onBatch` run first in each call (throw to fail it, await a Gate to block).
 */
function importFakes(
  orders: number,
  hooks: { onParse?: (from: ParseCursor) => Promise<void> | void; onBatch?: (fromSeq: number) => Promise<void> | void } = {},
) {
  const started: string[] = [];
  const finished: Finish[] = [];
  const parsed: ParseCursor[] = [];
  const batches: [number, number][] = [];
  const created = new Map<number, number>(); // seq → times created
  const fakes: ImportActivities = {
    async startImport({ importId }) {
      started.push(importId);
    },
    async finishImport(request) {
      finished.push(request);
    },
    async parseImportPage({ from, maxOrders }) {
      parsed.push(from);
      await hooks.onParse?.(from);
      const toSeq = Math.min(from.seq + maxOrders, orders);
      return { fromSeq: from.seq, toSeq, next: { offset: toSeq * 100, row: toSeq + 2, seq: toSeq }, eof: toSeq >= orders };
    },
    async createImportBatch({ fromSeq, toSeq }) {
      batches.push([fromSeq, toSeq]);
      await hooks.onBatch?.(fromSeq);
      for (let seq = fromSeq; seq < toSeq; seq++) created.set(seq, (created.get(seq) ?? 0) + 1);
      return { done: toSeq - fromSeq };
    },
  };
  /** seqs created, in ascending order, once each (a seq created twice appears twice) */
  const createdSeqs = () => [...created.entries()].sort(([a], [b]) => a - b).flatMap(([seq, times]) => Array<number>(times).fill(seq));
  return { started, finished, parsed, batches, createdSeqs, fakes };
}

const range = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => from + i);

function startImport(taskQueue: string, tuning: Partial<ImportTuning>) {
  const importId = uniqueId('import');
  return ctx.env.client.workflow.start<typeof importWorkflow>('importWorkflow', {
    workflowId: `import:${importId}`,
    taskQueue,
    args: [{ importId, tuning: { heartbeatTimeout: '20 seconds', ...tuning } }],
  });
}

async function runStatuses(workflowId: string): Promise<string[]> {
  return waitFor('the runs to be visible', async () => {
    const statuses: string[] = [];
    for await (const run of ctx.env.client.workflow.list({ query: `WorkflowId = '${workflowId}'` })) statuses.push(run.status.name);
    return statuses.includes('COMPLETED') ? statuses : undefined;
  });
}

describe('import workflow', () => {
  it('stops at a cancel: the batches in flight finish, no batch starts after it, and the import finishes cancelled', async () => {
    const creating = new Gate();
    const { started, finished, batches, createdSeqs, fakes } = importFakes(40, { onBatch: (fromSeq) => (fromSeq >= 10 ? creating.wait() : undefined) });
    await withWorker(
      ctx,
      fakes,
      async (taskQueue) => {
        const handle = await startImport(taskQueue, { pageOrders: 10, batchSize: 5, parallelBatches: 2, concurrency: 2 });
        const importId = handle.workflowId.replace(/^import:/, '');
        await waitFor('both lanes to be creating a batch of the second page', () => creating.waiting === 2);
        expect([...batches].sort(([a], [b]) => a - b)).toEqual([
          [0, 5],
          [5, 10],
          [10, 15],
          [15, 20],
        ]);
        const cancelling = await handle.startUpdate(cancelImportUpdate, { args: [], waitForStage: 'ACCEPTED' });
        expect((await handle.query(importProgressQuery)).cancelRequested).toBe(true);
        creating.open();

        expect(await cancelling.result()).toEqual({ state: 'cancelled' });
        expect(await handle.result()).toEqual({ state: 'cancelled' });
        expect(batches).toHaveLength(4); // none after the cancel
        expect(createdSeqs()).toEqual(range(0, 20));
        expect(started).toEqual([importId]);
        expect(finished).toEqual([{ importId, state: 'cancelled', error: null }]);
      },
      { onStop: () => creating.open() },
    );
  });

  it('continues as new after every page (pagesPerRun 1) and still creates every order exactly once', async () => {
    const { started, finished, parsed, createdSeqs, fakes } = importFakes(23);
    await withWorker(ctx, fakes, async (taskQueue) => {
      const handle = await startImport(taskQueue, { pageOrders: 5, batchSize: 2, parallelBatches: 2, concurrency: 2, pagesPerRun: 1 });
      const importId = handle.workflowId.replace(/^import:/, '');
      expect(await handle.result()).toEqual({ state: 'completed' });
      expect(createdSeqs()).toEqual(range(0, 23));
      expect(parsed.map((c) => c.seq)).toEqual([0, 5, 10, 15, 20]);
      expect(parsed[0]).toEqual({ offset: 0, row: 1, seq: 0 });
      expect(started).toEqual([importId]); // once, by the first run
      expect(finished).toEqual([{ importId, state: 'completed', error: null }]);
      const runs = await runStatuses(handle.workflowId);
      expect(runs.filter((s) => s === 'CONTINUED_AS_NEW')).toHaveLength(4);
      expect(runs.filter((s) => s === 'COMPLETED')).toHaveLength(1);
    });
  });

  it('fails with the parse error code when a page cannot be parsed, after the batches already queued', async () => {
    const { finished, parsed, createdSeqs, fakes } = importFakes(30, {
      onParse: (from) => {
        if (from.seq === 10) throw ApplicationFailure.create({ message: 'row 12: unreadable', type: 'FILE_UNREADABLE', nonRetryable: true });
      },
    });
    await withWorker(ctx, fakes, async (taskQueue) => {
      const handle = await startImport(taskQueue, { pageOrders: 10, batchSize: 5, parallelBatches: 2, concurrency: 2 });
      const importId = handle.workflowId.replace(/^import:/, '');
      expect(await handle.result()).toEqual({ state: 'failed' });
      expect(finished).toEqual([{ importId, state: 'failed', error: { code: 'FILE_UNREADABLE' } }]);
      expect(parsed.map((c) => c.seq)).toEqual([0, 10]); // not retried
      expect(createdSeqs()).toEqual(range(0, 10));
      expect((await handle.query(importProgressQuery)).state).toBe('failed');
    });
  });
});
