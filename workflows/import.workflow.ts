import {
  ActivityFailure,
  allHandlersFinished,
  ApplicationFailure,
  condition,
  continueAsNew,
  proxyActivities,
  setHandler,
  workflowInfo,
} from '@temporalio/workflow';
import type { ImportActivities } from './activities';
import type { ImportState, ParseCursor } from '../src/domain/imports';
import {
  cancelImportUpdate,
  DEFAULT_IMPORT_TUNING,
  importProgressQuery,
  type ImportProgress,
  type ImportTuning,
  type ImportWorkflowInput,
  type ParsedPage,
} from './import.messages';
import { doublingRetry } from './retry';

/** Bookkeeping writes: short, retried until the database answers. */
const BOOKKEEPING = { startToCloseTimeout: '1 minute', retry: doublingRetry('1 second', '1 minute') } as const;

/** Parsing and creating run long and heartbeat: a killed worker's activity is retried elsewhere, from its last heartbeat. */
const longRunning = (heartbeatTimeout: string) =>
  ({
    startToCloseTimeout: '15 minutes',
    heartbeatTimeout,
    retry: doublingRetry('1 second', '1 minute'),
  }) as const;

const control = proxyActivities<ImportActivities>(BOOKKEEPING);

const START = { offset: 0, row: 1, seq: 0 } as const;

function refuse(type: string, params: Record<string, string | number> = {}): never {
  throw ApplicationFailure.create({ message: type, type, nonRetryable: true, details: [[{ code: type, params }]] });
}

/** What failed the import, as a code the API turns into a message. */
function failureOf(error: unknown): { code: string; params?: Record<string, string | number> } {
  const cause = error instanceof ActivityFailure ? error.cause : error;
  if (cause instanceof ApplicationFailure && cause.type) return { code: cause.type };
  return { code: 'INTERNAL_ERROR' };
}

/**
 * One order import: parses the stored file page by page (a streaming activity that writes each order's
 * validation result), creates the valid orders' drafts through their lifecycle workflows in parallel
 * batches (and processes them when asked), and continues as new every few pages, so neither its memory nor
 * its history grows with the file. Everything it knows lives in the database and its small input, so a
 * killed worker only delays it. Cancellable: no new batch starts once a cancel arrives.
 */
export async function importWorkflow(input: ImportWorkflowInput): Promise<{ state: ImportState }> {
  const tuning: ImportTuning = { ...DEFAULT_IMPORT_TUNING, ...input.tuning };
  const heavy = proxyActivities<ImportActivities>(longRunning(tuning.heartbeatTimeout));
  const importId = input.importId;
  const progress: ImportProgress = { phase: 'starting', cancelRequested: false, scheduledUpTo: input.carry?.cursor.seq ?? 0, state: null };

  setHandler(importProgressQuery, () => progress);
  setHandler(
    cancelImportUpdate,
    async () => {
      progress.cancelRequested = true;
      await condition(() => progress.state !== null);
      return { state: progress.state! };
    },
    { validator: () => (progress.state !== null ? refuse('IMPORT_FINISHED', { state: progress.state }) : undefined) },
  );

  // Batches wait in a queue that parsing fills a page at a time; lanes take them across page boundaries, so
  // creation never pauses for a page to end. One page is parsed ahead: memory holds two pages' seq ranges.
  const queue: [number, number][] = [];
  const enqueue = (page: ParsedPage) => {
    for (let from = page.fromSeq; from < page.toSeq; from += tuning.batchSize) queue.push([from, Math.min(from + tuning.batchSize, page.toSeq)]);
    progress.scheduledUpTo = page.toSeq;
  };
  let parsing: Promise<ParsedPage> | undefined;
  let refilling: Promise<void> | undefined;
  let pages = 0;
  /** Where the next run starts parsing when this one continues as new. */
  let carryOn: ParseCursor | undefined;
  let failure: unknown;
  const parseFrom = (from: ParseCursor) => {
    parsing = heavy.parseImportPage({ importId, from, maxOrders: tuning.pageOrders });
    // Not awaited until a lane needs it; a failure is picked up there.
    parsing.catch(() => undefined);
  };
  const refill = async () => {
    const page = await parsing!;
    parsing = undefined;
    pages++;
    enqueue(page);
    if (page.eof || progress.cancelRequested) return;
    if (pages >= tuning.pagesPerRun || workflowInfo().continueAsNewSuggested) carryOn = page.next;
    else parseFrom(page.next);
  };
  const nextBatch = async (): Promise<[number, number] | undefined> => {
    for (;;) {
      if (progress.cancelRequested || failure !== undefined) return undefined;
      const batch = queue.shift();
      if (batch) return batch;
      if (!parsing && !refilling) return undefined;
      refilling ??= refill().finally(() => (refilling = undefined));
      try {
        await refilling;
      } catch (error) {
        // Parsing failed for good: the other lanes finish their batches, then the import fails.
        failure ??= error;
      }
    }
  };
  const lane = async () => {
    for (let batch = await nextBatch(); batch; batch = await nextBatch()) {
      try {
        await heavy.createImportBatch({ importId, fromSeq: batch[0], toSeq: batch[1], concurrency: tuning.concurrency });
      } catch (error) {
        failure ??= error;
      }
    }
  };

  let state: Exclude<ImportState, 'queued' | 'running'>;
  let error: { code: string; params?: Record<string, string | number> } | null = null;
  try {
    if (!input.carry) await control.startImport({ importId });
    progress.phase = 'importing';
    parseFrom(input.carry?.cursor ?? START);
    // Every lane ends before the run does: nothing is left running when the import finishes or continues as new.
    await Promise.all(Array.from({ length: tuning.parallelBatches }, lane));
    if (failure !== undefined) throw failure;
    if (carryOn && !progress.cancelRequested) {
      // A cancel arriving now waits for the import to stop: it is handled in this run, not carried over.
      await condition(() => allHandlersFinished() || progress.cancelRequested);
      if (!progress.cancelRequested) return continueAsNew<typeof importWorkflow>({ importId, tuning: input.tuning, carry: { cursor: carryOn } });
    }
    state = progress.cancelRequested ? 'cancelled' : 'completed';
  } catch (caught) {
    state = 'failed';
    error = failureOf(caught);
  }
  // A page still being parsed writes pending orders: let it finish, so finishing marks them cancelled too.
  if (parsing) await parsing.catch(() => undefined);
  progress.phase = 'finishing';
  await control.finishImport({ importId, state, error });
  progress.state = state;
  progress.phase = 'finished';
  await condition(allHandlersFinished);
  return { state };
}
