import { defineQuery, defineUpdate } from '@temporalio/workflow';
import type { ImportState, ParseCursor } from '../src/domain/imports';

/** How an import works through a file; the defaults suit production, tests make them small. */
export interface ImportTuning {
  /** orders parsed per page: the workflow holds one page's seq range, never the orders themselves */
  pageOrders: number;
  /** orders per creation activity */
  batchSize: number;
  /** creation activities in flight at once */
  parallelBatches: number;
  /** orders created at once inside one creation activity */
  concurrency: number;
  /** pages per run before continuing as new (Temporal's own suggestion also counts) */
  pagesPerRun: number;
  /** heartbeat timeout of the parse and creation activities: how soon a killed worker's work moves on */
  heartbeatTimeout: string;
}

export const DEFAULT_IMPORT_TUNING: ImportTuning = {
  pageOrders: 2000,
  batchSize: 100,
  parallelBatches: 8,
  concurrency: 8,
  pagesPerRun: 25,
  heartbeatTimeout: '30 seconds',
};

/** The seq range [fromSeq, toSeq) of one parsed page, and where the next page starts. */
export interface ParsedPage {
  fromSeq: number;
  toSeq: number;
  next: ParseCursor;
  eof: boolean;
}

export interface ImportWorkflowInput {
  importId: string;
  tuning?: Partial<ImportTuning>;
  /** carried over by continue-as-new: where parsing goes on (every order before it has been created) */
  carry?: { cursor: ParseCursor };
}

export interface ImportProgress {
  phase: 'starting' | 'importing' | 'finishing' | 'finished';
  cancelRequested: boolean;
  /** orders up to this seq have been handed to creation */
  scheduledUpTo: number;
  state: ImportState | null;
}

/** Stops the import: no new order is created; orders in flight finish. Answers once the import has stopped. */
export const cancelImportUpdate = defineUpdate<{ state: ImportState }, []>('cancelImport');
export const importProgressQuery = defineQuery<ImportProgress>('progress');
