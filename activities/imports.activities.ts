import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { Context } from '@temporalio/activity';
import type { Client } from '@temporalio/client';
import { WorkflowExecutionAlreadyStartedError } from '@temporalio/common';
import { createConsignmentService, type ConsignmentService } from '../src/services/consignments.service';
import type { CarrierRegistry } from '../src/carriers/registry';
import { findConsignment } from '../src/db/consignments.repository';
import type { Caller } from '../src/db/customers.repository';
import type { Database } from '../src/db/database';
import {
  findImport,
  findImportCaller,
  finishImport,
  insertDraftBatch,
  insertParsedOrders,
  loadOrders,
  markImportStarted,
  readFile,
  recordTransitions,
  type ImportRecord,
  type ImportState,
  type OrderTransition,
  type ParseCursor,
  type ParsedOrder,
  type StoredOrder,
} from '../src/db/imports.repository';
import { DomainError, type Issue } from '../src/domain/errors';
import { STATUS, statusMessage, statusName } from '../src/domain/statuses';
import { readCsvRecords } from '../src/feeds/csv-stream';
import { mapOrder, orderGroups, type OrderIssue } from '../src/feeds/order-mapper';
import { resolveLayout } from '../src/feeds/presets';
import { toDomainError } from '../src/temporal/failures';
import { consignmentWorkflow } from '../workflows/consignment.workflow';
import { consignmentWorkflowId } from '../workflows/ids';
import type { ParsedPage } from '../workflows/import.messages';
import { SA } from '../workflows/search-attributes';
import { asActivity } from './failures';

export interface ImportActivityDeps {
  db: Database;
  carriers: CarrierRegistry;
  /** the Temporal client the consignment service starts and updates lifecycle workflows with */
  temporal?: Client;
  taskQueue?: string;
  /** settings of the consignment workflows an import starts (as the API's consignment service has them) */
  consignmentWorkflows?: { historyLimit?: number; pollIntervalMs?: number };
}

/** Parsed orders written per transaction. */
const FLUSH_ORDERS = 250;
/** Workflow starts in flight per creation activity. */
const START_CONCURRENCY = 16;

/**
 * Back-pressure for a batch of workflow starts: waits until the batch's last started workflow has run its
 * first workflow task. A start only records the workflow on the server; its first task then waits in the
 * task queue. Without this, an import starts workflows faster than the workers run them, the task queue
 * backlog grows by tens of thousands, and everything else on that queue (the import's own next run, API
 * requests' updates) waits behind it. Tasks are dispatched roughly in order, so the last one running means
 * the batch has: at most `parallelBatches` × `batchSize` new workflows wait at any time.
 */
async function workerCaughtUp(client: Client, workflowId: string): Promise<void> {
  const handle = client.workflow.getHandle(workflowId);
  for (let pause = 50; ; pause = Math.min(pause * 2, 1000)) {
    // Started, task scheduled, task started, task completed: the worker has run it.
    const { historyLength } = await handle.describe();
    if (historyLength >= 4) return;
    heartbeat();
    await sleep(pause);
  }
}

/**
 * The uuid (and so the lifecycle workflow) of the consignment an import creates for its order `seq`:
 * derived, so a retried activity reaches the same workflow and the same record. Keyed by position, not
 * order number, so a file that repeats an order number gets that order reported as a duplicate instead of
 * silently merged into the first.
 */
export function importOrderUuid(importId: string, seq: number): string {
  const h = createHash('sha256').update(`consignflow:import:${importId}:${seq}`).digest();
  h[6] = (h[6] & 0x0f) | 0x50; // version 5 (name-based, SHA) layout
  h[8] = (h[8] & 0x3f) | 0x80; // RFC 4122 variant
  const hex = h.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

/** Runs `fn` over `items` with at most `limit` calls in flight; the first error stops new calls and is thrown after the others end. */
async function forEachLimit<T>(items: readonly T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  let failure: { error: unknown } | undefined;
  const lane = async () => {
    while (next < items.length && !failure) {
      const item = items[next++];
      try {
        await fn(item);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, lane));
  if (failure) throw failure.error;
}

function heartbeat(details?: unknown): void {
  // Outside an activity (unit tests of these functions) there is no one to tell.
  try {
    Context.current().heartbeat(details);
  } catch {
    // not in an activity context
  }
}

function resumePoint(from: ParseCursor): ParseCursor {
  let details: unknown;
  try {
    details = Context.current().info.heartbeatDetails;
  } catch {
    return from;
  }
  const cursor = (details as { cursor?: ParseCursor } | undefined)?.cursor;
  return cursor && cursor.seq >= from.seq && cursor.offset >= from.offset ? cursor : from;
}

/** A refusal of one order, located at the order's first row (creation and processing refusals name draft fields, not columns). */
function orderIssues(order: StoredOrder, error: DomainError): OrderIssue[] {
  return error.issues.map((issue: Issue) => ({ row: order.firstRow, column: null, path: issue.field ?? null, code: issue.code, ...(issue.params && { params: issue.params }) }));
}

/** Order imports: parse pages of the stored file, create (and process) batches of orders, and the import's own bookkeeping. */
export function createImportActivities(deps: ImportActivityDeps) {
  let service: ConsignmentService | undefined;
  const consignments = (): ConsignmentService => {
    if (!deps.temporal || !deps.taskQueue) throw new Error('import activities need the Temporal client and task queue in their dependencies');
    service ??= createConsignmentService({
      db: deps.db,
      temporal: deps.temporal,
      taskQueue: deps.taskQueue,
      providerExists: (id) => deps.carriers.get(id) !== undefined,
      ...deps.consignmentWorkflows,
    });
    return service;
  };
  const workflowClient = (): { client: Client; taskQueue: string } => {
    if (!deps.temporal || !deps.taskQueue) throw new Error('import activities need the Temporal client and task queue in their dependencies');
    return { client: deps.temporal, taskQueue: deps.taskQueue };
  };

  /**
   * Inserts the drafts of a batch's pending orders in one transaction, with their transitions (so a retry
   * finds them created). An order whose reference_no the customer already has, or that an earlier order of
   * the batch carries, is a duplicate. A draft a crashed attempt inserted (same derived uuid) counts as created.
   */
  const insertDrafts = async (imp: ImportRecord, caller: Caller, orders: StoredOrder[]): Promise<OrderTransition[]> => {
    const pending = orders.filter((o) => o.state === 'pending' && o.draft);
    const refs = [...new Set(pending.map((o) => o.draft!.reference_no).filter((r): r is string => Boolean(r)))];
    const existing = refs.length
      ? (await deps.db.query<{ reference_no: string; uuid: string; id: number }>('SELECT reference_no, uuid, id FROM consignments WHERE customer_id = $1 AND reference_no = ANY($2::text[])', [imp.customerId, refs])).rows
      : [];
    const byRef = new Map(existing.map((r) => [r.reference_no, r]));
    const transitions: OrderTransition[] = [];
    const inserts: { order: StoredOrder; uuid: string }[] = [];
    const claimed = new Set<string>();
    for (const order of pending) {
      const uuid = importOrderUuid(imp.id, order.seq);
      const ref = order.draft!.reference_no!;
      const found = byRef.get(ref);
      if (found && found.uuid === uuid) transitions.push({ seq: order.seq, from: 'pending', to: 'created', consignmentId: Number(found.id) });
      else if (found || claimed.has(ref)) transitions.push({ seq: order.seq, from: 'pending', to: 'duplicate' });
      else if (order.draft!.provider_id != null && !deps.carriers.get(order.draft!.provider_id)) {
        const issue = { code: 'PROVIDER_NOT_FOUND' as const, field: 'provider_id', params: { provider_id: order.draft!.provider_id } };
        transitions.push({ seq: order.seq, from: 'pending', to: 'failed', errors: orderIssues(order, new DomainError('VALIDATION_FAILED', [issue])) });
      } else inserts.push({ order, uuid });
      claimed.add(ref);
    }
    const draftOf = ({ order, uuid }: { order: StoredOrder; uuid: string }) => ({
      uuid,
      customerId: imp.customerId,
      userId: caller.userId ?? null,
      importId: imp.id,
      draft: order.draft!,
      status: STATUS.NEW_DRAFT,
      statusMessage: statusMessage(STATUS.NEW_DRAFT, 'en'),
    });
    await deps.db.transaction(async (tx) => {
      const ids = await insertDraftBatch(tx, inserts.map(draftOf));
      // Skipped by the insert: another request took the reference_no since it was checked.
      const made = inserts.map(({ order, uuid }): OrderTransition =>
        ids.has(uuid) ? { seq: order.seq, from: 'pending', to: 'created', consignmentId: ids.get(uuid)! } : { seq: order.seq, from: 'pending', to: 'duplicate' },
      );
      await recordTransitions(tx, imp.id, imp.options.process, [...transitions, ...made]);
      transitions.push(...made);
    });
    return transitions;
  };

  /** Starts the lifecycle workflows of created drafts, already created (the service's search attributes, plus ImportId). */
  const startLifecycles = async (imp: ImportRecord, caller: Caller, uuids: string[]): Promise<void> => {
    if (uuids.length === 0) return;
    const { client, taskQueue } = workflowClient();
    const { rows } = await deps.db.query<{ id: number; uuid: string; reference_no: string | null; provider_id: number | null }>(
      'SELECT id, uuid, reference_no, provider_id FROM consignments WHERE uuid = ANY($1::uuid[])',
      [uuids],
    );
    await forEachLimit(rows, START_CONCURRENCY, async (row) => {
      const id = Number(row.id);
      try {
        await client.workflow.start(consignmentWorkflow, {
          workflowId: consignmentWorkflowId(row.uuid),
          taskQueue,
          args: [
            {
              uuid: row.uuid,
              customerCode: caller.customerCode,
              ...deps.consignmentWorkflows,
              state: { uuid: row.uuid, creation: 'created', consignmentId: id, status: STATUS.NEW_DRAFT, referenceNo: row.reference_no, providerId: row.provider_id, trackingCode: null, seenEvents: [] },
            },
          ],
          workflowIdConflictPolicy: 'USE_EXISTING',
          // A closed workflow (the consignment reached a final status) is never started again.
          workflowIdReusePolicy: 'REJECT_DUPLICATE',
          staticSummary: `Consignment ${row.reference_no ?? row.uuid} of ${caller.customerCode}, import ${imp.id}`,
          typedSearchAttributes: [
            { key: SA.CustomerCode, value: caller.customerCode },
            { key: SA.ConsignmentStatus, value: statusName(STATUS.NEW_DRAFT) },
            { key: SA.ConsignmentId, value: id },
            { key: SA.ImportId, value: imp.id },
            ...(row.reference_no ? [{ key: SA.ReferenceNo, value: row.reference_no }] : []),
            ...(row.provider_id != null ? [{ key: SA.ProviderId, value: row.provider_id }] : []),
          ],
        });
      } catch (error) {
        if (!(error instanceof WorkflowExecutionAlreadyStartedError)) throw error;
      }
      heartbeat();
    });
    await workerCaughtUp(client, consignmentWorkflowId(rows.at(-1)!.uuid));
  };

  const load = async (importId: string): Promise<ImportRecord> => {
    const found = await findImport(deps.db, importId);
    if (!found) throw new DomainError('IMPORT_NOT_FOUND');
    return found;
  };

  return {
    startImport({ importId }: { importId: string }): Promise<void> {
      return asActivity(() => markImportStarted(deps.db, importId));
    },

    finishImport({ importId, state, error }: { importId: string; state: Exclude<ImportState, 'queued' | 'running'>; error: ImportRecord['error'] }): Promise<void> {
      return asActivity(() => finishImport(deps.db, importId, state, error));
    },

    /**
     * Parses up to `maxOrders` orders from `from` on, streaming the stored file: consecutive rows with the same
     * order number are one order, mapped by the import's preset and validated with the draft API's rules.
     * Results are written every few hundred orders together with the cursor, which is also the heartbeat,
     * so a retried attempt resumes after the last write (and rewriting an order changes nothing).
     */
    parseImportPage({ importId, from, maxOrders }: { importId: string; from: ParseCursor; maxOrders: number }): Promise<ParsedPage> {
      return asActivity(async () => {
        const imp = await load(importId);
        if (imp.state !== 'queued' && imp.state !== 'running') return { fromSeq: from.seq, toSeq: from.seq, next: from, eof: true };
        const { layout } = resolveLayout(imp.options.preset, imp.header, imp.options.mapping);
        const start = resumePoint(from);
        const records = readCsvRecords(readFile(deps.db, imp.fileId, start.offset), { offset: start.offset, row: start.row, delimiter: imp.delimiter });

        let seq = start.seq;
        let buffer: ParsedOrder[] = [];
        let cursor = start;
        // The heartbeat carries the cursor of the last write: where a retried attempt resumes.
        let flushed = start;
        const flush = async (eof: boolean) => {
          await insertParsedOrders(deps.db, importId, buffer, cursor, eof);
          buffer = [];
          flushed = cursor;
          heartbeat({ cursor: flushed });
        };
        for await (const rows of orderGroups(records, layout)) {
          const mapped = mapOrder(rows, layout, imp.options);
          buffer.push({
            seq: seq++,
            firstRow: mapped.row,
            rowCount: mapped.rowCount,
            orderNo: mapped.orderNo,
            state: mapped.draft ? 'pending' : 'invalid',
            draft: mapped.draft,
            errors: mapped.issues.length ? mapped.issues : null,
          });
          // The next order starts where this one's last row ends (blank lines between are skipped alike).
          const last = rows[rows.length - 1];
          cursor = { offset: last.end, row: last.row + 1, seq };
          if (seq - from.seq >= maxOrders) {
            await flush(false);
            return { fromSeq: from.seq, toSeq: seq, next: cursor, eof: false };
          }
          if (buffer.length >= FLUSH_ORDERS) await flush(false);
          else if (seq % 50 === 0) heartbeat({ cursor: flushed });
        }
        await flush(true);
        return { fromSeq: from.seq, toSeq: seq, next: cursor, eof: true };
      });
    },

    /**
     * Creates the drafts of orders [fromSeq, toSeq) that are still pending: their read-model rows in one
     * transaction, then their lifecycle workflows (the consignment's uuid derived from the import and seq),
     * started as they would resume after continue-as-new, waiting for the worker to catch up; then processes
     * them, `concurrency` at a time, when the import asks for it. An order whose reference_no exists already is a duplicate.
     * Every outcome is recorded with a guarded transition, so a retried batch repeats nothing.
     */
    createImportBatch({ importId, fromSeq, toSeq, concurrency }: { importId: string; fromSeq: number; toSeq: number; concurrency: number }): Promise<{ done: number }> {
      return asActivity(async () => {
        const imp = await load(importId);
        const caller = await findImportCaller(deps.db, imp.customerId, imp.userId);
        if (!caller) throw new DomainError('IMPORT_NOT_FOUND');
        const processing = imp.options.process;
        const orders = await loadOrders(deps.db, importId, fromSeq, toSeq);
        let done = 0;

        const record = async (transitions: OrderTransition[], run: () => Promise<void>) => {
          try {
            await run();
          } finally {
            // What succeeded is kept even when a fault cuts the batch short (the retry then skips it).
            await recordTransitions(deps.db, importId, processing, transitions);
          }
        };

        // 1. The read model: every pending order of the batch in one transaction (duplicates decided first).
        const created = await insertDrafts(imp, caller, orders);
        done += created.filter((t) => t.to !== 'created' || !processing).length;
        heartbeat({ done });

        // 2. The lifecycle workflow of each created draft, started as it resumes after continue-as-new: created.
        //    A retried batch starts its earlier drafts' workflows again, which finds them running.
        const createdSeqs = new Set([...orders.filter((o) => o.state === 'created').map((o) => o.seq), ...created.filter((t) => t.to === 'created').map((t) => t.seq)]);
        await startLifecycles(imp, caller, [...createdSeqs].map((seq) => importOrderUuid(importId, seq)));
        heartbeat({ done });
        if (!processing) return { done };

        const createdNow = new Map(created.filter((t) => t.to === 'created').map((t) => [t.seq, t.consignmentId!]));
        const service = consignments();
        const toProcess = orders.flatMap((o) => {
          const id = o.state === 'created' ? o.consignmentId : createdNow.get(o.seq);
          return id ? [{ order: o, id }] : [];
        });
        const processed: OrderTransition[] = [];
        await record(processed, () =>
          forEachLimit(toProcess, concurrency, async ({ order, id }) => {
            try {
              await service.processDraft(caller, id, null, 'pdf');
              processed.push({ seq: order.seq, from: 'created', to: 'processed' });
            } catch (error) {
              const refusal = toDomainError(error);
              if (!(refusal instanceof DomainError)) throw error;
              // A retried batch finds the drafts its first attempt processed: no longer drafts, and labelled.
              const current = await findConsignment(deps.db, { id, customerId: imp.customerId });
              if (refusal.code === 'NOT_DRAFT' && current && current.status !== STATUS.NEW_DRAFT && current.barcode) {
                processed.push({ seq: order.seq, from: 'created', to: 'processed' });
              } else {
                processed.push({ seq: order.seq, from: 'created', to: 'failed', errors: orderIssues(order, refusal) });
              }
            }
            heartbeat({ done: ++done });
          }),
        );
        return { done };
      });
    },
  };
}
