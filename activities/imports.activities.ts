import { Context } from '@temporalio/activity';
import type { Metrics } from '../src/metrics';
import { addressLookups, correctionText, resolveDraftAddresses } from '../src/address/address-resolver';
import { createDrafts, findByReferences, findConsignment, findConsignmentRef, insertHistory } from '../src/db/consignments.repository';
import { forEachLimit } from '../src/domain/concurrency';
import type { Caller } from '../src/db/customers.repository';
import type { Database } from '../src/db/database';
import { findImport, findImportCaller, finishImport, markImportStarted, type ImportRecord, type ParseCursor } from '../src/db/imports.repository';
import { readFile } from '../src/db/import-files.repository';
import {
  insertParsedOrders,
  loadOrders,
  recordCorrections,
  recordTransitions,
  type OrderTransition,
  type ParsedOrder,
  type StoredOrder,
} from '../src/db/import-orders.repository';
import { isProcessed } from '../src/domain/consignment';
import { importOrderUuid } from '../src/domain/derived-uuid';
import { newDraft } from '../src/domain/draft';
import { DomainError, type Issue } from '../src/domain/errors';
import { STATUS } from '../src/domain/statuses';
import { readCsvRecords } from '../src/imports/csv-stream';
import { mapOrder, orderGroups, type OrderIssue } from '../src/imports/order-mapper';
import { resolveLayout } from '../src/imports/presets';
import { workflowStartOf, processUpdateId, type ConsignmentStarter } from '../src/temporal/consignment.starter';
import type { Providers } from '../src/carriers/providers';
import type { ImportActivities } from '../workflows/activities';
import { asActivity } from './failures';

export interface ImportActivityDeps {
  db: Database;
  /** the process's metrics (rows read, orders by the state they reached) */
  metrics?: Metrics;
  providers: Pick<Providers, 'issue'>;
  /** how long processing an imported order waits for a carrier that does not answer (IMPORT_CARRIER_WAIT_MS) */
  importCarrierWaitMs: number;
  /** new drafts are in the outbox: the relay (in this process) starts their workflows now */
  draftsQueued?: () => void;
  /** the consignment workflows' starter: imported drafts are processed by their workflows, as the API's are */
  consignmentStarter: Pick<ConsignmentStarter, 'process'>;
}

/** Parsed orders written per transaction. */
const FLUSH_ORDERS = 250;

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
  return error.issues.map((issue: Issue) => ({
    row: order.firstRow,
    column: null,
    path: issue.field ?? null,
    code: issue.code,
    ...(issue.params && { params: issue.params }),
  }));
}

/** Order imports: parse pages of the stored file, create (and process) batches of orders, and the import's own bookkeeping. */
export function createImportActivities(deps: ImportActivityDeps) {
  /**
   * Inserts the drafts of a batch's pending orders in one transaction, with their transitions (so a retry
   * finds them created). An order whose reference_no the customer already has, or that an earlier order of
   * the batch carries, is a duplicate. A draft a crashed attempt inserted (same derived uuid) counts as created.
   */
  const insertDrafts = async (imp: ImportRecord, caller: Caller, orders: StoredOrder[]): Promise<OrderTransition[]> => {
    const pending = orders.filter((o) => o.state === 'pending' && o.draft);
    const refs = [...new Set(pending.map((o) => o.draft!.reference_no).filter((r): r is string => Boolean(r)))];
    const byRef = new Map((await findByReferences(deps.db, imp.customerId, refs)).map((r) => [r.referenceNo, r]));
    const transitions: OrderTransition[] = [];
    const inserts: { order: StoredOrder; uuid: string }[] = [];
    const claimed = new Set<string>();
    // One answer per provider id of the batch (accounts are looked up in the database).
    const issues = new Map<number | null | undefined, Promise<Issue | undefined>>();
    const issueOf = (providerId: number | null | undefined) => {
      if (!issues.has(providerId)) issues.set(providerId, deps.providers.issue(imp.customerId, providerId));
      return issues.get(providerId)!;
    };
    for (const order of pending) {
      const uuid = importOrderUuid(imp.id, order.seq);
      const ref = order.draft!.reference_no!;
      const found = byRef.get(ref);
      const providerIssue = await issueOf(order.draft!.provider_id);
      if (found && found.uuid === uuid) transitions.push({ seq: order.seq, from: 'pending', to: 'created', consignmentId: Number(found.id) });
      else if (found || claimed.has(ref)) transitions.push({ seq: order.seq, from: 'pending', to: 'duplicate' });
      else if (providerIssue)
        transitions.push({ seq: order.seq, from: 'pending', to: 'failed', errors: orderIssues(order, new DomainError('VALIDATION_FAILED', [providerIssue])) });
      else inserts.push({ order, uuid });
      claimed.add(ref);
    }
    // Address resolution (the import's address_resolver_type) corrects the drafts before they are created; what
    // it cannot place is left to processing, which refuses it in the strict mode (as for any draft).
    const lookups = addressLookups(deps.db);
    const resolved = await Promise.all(inserts.map(({ order }) => resolveDraftAddresses(lookups, order.draft!)));
    const draftOf = ({ uuid }: { order: StoredOrder; uuid: string }, i: number) =>
      newDraft({ uuid, customerId: imp.customerId, userId: caller.userId ?? null, importId: imp.id, draft: resolved[i].draft });
    let insertedNow = 0;
    await deps.db.transaction(async (tx) => {
      // With their outbox entries (the relay starts their workflows); a draft whose reference_no another
      // request took since it was checked is skipped: a duplicate.
      const ids = await createDrafts(tx, inserts.map(draftOf), { onTaken: 'skip' });
      const corrected = inserts.flatMap(({ order, uuid }, i) =>
        ids.has(uuid) && resolved[i].corrections.length > 0 ? [{ seq: order.seq, id: ids.get(uuid)!, corrections: resolved[i].corrections }] : [],
      );
      await recordCorrections(tx, imp.id, corrected);
      for (const { id, corrections } of corrected) {
        for (const c of corrections)
          await insertHistory(tx, { consignmentId: id, status: STATUS.NEW_DRAFT, message: correctionText(c), eventKey: `address:${c.party}.${c.field}` });
      }
      const made = inserts.map(({ order, uuid }): OrderTransition =>
        ids.has(uuid)
          ? { seq: order.seq, from: 'pending', to: 'created', consignmentId: ids.get(uuid)! }
          : { seq: order.seq, from: 'pending', to: 'duplicate' },
      );
      await recordTransitions(tx, imp.id, imp.options.process, [...transitions, ...made]);
      transitions.push(...made);
      insertedNow = ids.size;
    });
    for (const t of transitions) deps.metrics?.importOrders.inc({ state: t.to });
    if (insertedNow > 0) deps.metrics?.consignments.inc({ event: 'created' }, insertedNow);
    return transitions;
  };

  const load = async (importId: string): Promise<ImportRecord> => {
    const found = await findImport(deps.db, importId);
    if (!found) throw new DomainError('IMPORT_NOT_FOUND');
    return found;
  };

  return {
    startImport({ importId }) {
      return asActivity(() => markImportStarted(deps.db, importId));
    },

    finishImport({ importId, state, error }) {
      return asActivity(() => finishImport(deps.db, importId, state, error));
    },

    /**
     * Parses up to `maxOrders` orders from `from` on, streaming the stored file: consecutive rows with the same
     * order number are one order, mapped by the import's preset and validated with the draft API's rules.
     * Results are written every few hundred orders together with the cursor, which is also the heartbeat,
     * so a retried attempt resumes after the last write (and rewriting an order changes nothing).
     */
    parseImportPage({ importId, from, maxOrders }) {
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
          deps.metrics?.importRows.inc(buffer.reduce((rows, o) => rows + o.rowCount, 0));
          const invalid = buffer.filter((o) => o.state === 'invalid').length;
          if (invalid > 0) deps.metrics?.importOrders.inc({ state: 'invalid' }, invalid);
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
    createImportBatch({ importId, fromSeq, toSeq, concurrency }) {
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
            for (const t of transitions) deps.metrics?.importOrders.inc({ state: t.to });
          }
        };

        // 1. The read model: every pending order of the batch in one transaction (duplicates decided first).
        const created = await insertDrafts(imp, caller, orders);
        done += created.filter((t) => t.to !== 'created' || !processing).length;
        heartbeat({ done });

        deps.draftsQueued?.();
        if (!processing) return { done };

        const createdNow = new Map(created.filter((t) => t.to === 'created').map((t) => [t.seq, t.consignmentId!]));
        const toProcess = orders.flatMap((o) => {
          const id = o.state === 'created' ? o.consignmentId : createdNow.get(o.seq);
          return id ? [{ order: o, id }] : [];
        });
        const processed: OrderTransition[] = [];
        // Processing waits as long as a carrier is down (IMPORT_CARRIER_WAIT_MS): the batch stays alive meanwhile.
        const alive = setInterval(() => heartbeat({ done }), 5_000);
        await record(processed, () =>
          forEachLimit(toProcess, concurrency, async ({ order, id }) => {
            try {
              const current = await findConsignmentRef(deps.db, imp.customerId, id);
              if (!current) throw new DomainError('DRAFT_NOT_FOUND');
              // Straight to the draft's workflow, which decides (not a draft, carrier, label). Keyed by the order: a
              // retried batch (a worker that crashed mid-way) attaches to the processing it sent.
              await deps.consignmentStarter.process(
                workflowStartOf(current, caller.customerCode),
                { patch: null, labelFormat: 'pdf', carrierWaitMs: deps.importCarrierWaitMs },
                processUpdateId(importOrderUuid(importId, order.seq)),
              );
              processed.push({ seq: order.seq, from: 'created', to: 'processed' });
            } catch (refusal) {
              if (!(refusal instanceof DomainError)) throw refusal;
              // A retried batch finds the drafts its first attempt processed: no longer drafts, and labelled.
              const current = await findConsignment(deps.db, { id, customerId: imp.customerId });
              if (refusal.code === 'NOT_DRAFT' && current && isProcessed(current)) {
                processed.push({ seq: order.seq, from: 'created', to: 'processed' });
              } else {
                processed.push({ seq: order.seq, from: 'created', to: 'failed', errors: orderIssues(order, refusal) });
              }
            }
            heartbeat({ done: ++done });
          }),
        ).finally(() => clearInterval(alive));
        return { done };
      });
    },
  } satisfies ImportActivities;
}
