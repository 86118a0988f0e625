import { ActivityFailure, allHandlersFinished, ApplicationFailure, condition, continueAsNew, proxyActivities, setHandler, workflowInfo } from '@temporalio/workflow';
import type { createActivities } from '../activities';
import type { ImportState } from '../src/db/imports.repository';
import {
  cancelImportUpdate,
  DEFAULT_IMPORT_TUNING,
  importProgressQuery,
  type ImportProgress,
  type ImportTuning,
  type ImportWorkflowInput,
  type ParsedPage,
} from './import.messages';

type Activities = ReturnType<typeof createActivities>;

/** Bookkeeping writes: short, retried until the database answers. */
const BOOKKEEPING = {
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute' },
} as const;

/** Parsing and creating run long and heartbeat: a killed worker's activity is retried elsewhere, from its last heartbeat. */
const longRunning = (heartbeatTimeout: string) =>
  ({
    startToCloseTimeout: '15 minutes',
    heartbeatTimeout,
    retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute' },
  }) as const;

const control = proxyActivities<Activities>(BOOKKEEPING);

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
  const heavy = proxyActivities<Activities>(longRunning(tuning.heartbeatTimeout));
  const importId = input.importId;
  const progress: ImportProgress = { phase: 'starting', cancelRequested: false, scheduledUpTo: input.carry?.page?.fromSeq ?? 0, state: null };

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

  /** Creates one page's orders: `parallelBatches` lanes, each taking the next batch until none is left or a cancel arrives. */
  const createPage = async (page: ParsedPage) => {
    const batches: [number, number][] = [];
    for (let from = page.fromSeq; from < page.toSeq; from += tuning.batchSize) batches.push([from, Math.min(from + tuning.batchSize, page.toSeq)]);
    let next = 0;
    let failure: unknown;
    const lane = async () => {
      while (next < batches.length && !progress.cancelRequested && failure === undefined) {
        const [fromSeq, toSeq] = batches[next++];
        progress.scheduledUpTo = toSeq;
        try {
          await heavy.createImportBatch({ importId, fromSeq, toSeq, concurrency: tuning.concurrency });
        } catch (error) {
          failure ??= error;
        }
      }
    };
    // Every lane ends before the page does: nothing is left running when the import finishes.
    await Promise.all(Array.from({ length: Math.min(tuning.parallelBatches, batches.length) }, lane));
    if (failure !== undefined) throw failure;
  };

  let state: Exclude<ImportState, 'queued' | 'running'>;
  let error: { code: string; params?: Record<string, string | number> } | null = null;
  let parsing: Promise<ParsedPage> | undefined;
  try {
    if (!input.carry) await control.startImport({ importId });
    progress.phase = 'importing';
    let page: ParsedPage | null = input.carry ? input.carry.page : await heavy.parseImportPage({ importId, from: START, maxOrders: tuning.pageOrders });
    let pages = 0;
    while (page && !progress.cancelRequested) {
      // The next page is parsed while this one is created.
      parsing = page.eof ? undefined : heavy.parseImportPage({ importId, from: page.next, maxOrders: tuning.pageOrders });
      await createPage(page);
      if (!parsing) break;
      page = await parsing;
      parsing = undefined;
      pages++;
      const historyFull = pages >= tuning.pagesPerRun || workflowInfo().continueAsNewSuggested;
      if (historyFull && !progress.cancelRequested) {
        // A cancel arriving now waits for the import to stop: it is handled in this run, not carried over.
        await condition(() => allHandlersFinished() || progress.cancelRequested);
        if (!progress.cancelRequested) return continueAsNew<typeof importWorkflow>({ importId, tuning: input.tuning, carry: { page } });
      }
    }
    state = progress.cancelRequested ? 'cancelled' : 'completed';
  } catch (failure) {
    state = 'failed';
    error = failureOf(failure);
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
