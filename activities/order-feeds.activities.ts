import type { Caller } from '../src/db/customers.repository';
import type { Database } from '../src/db/database';
import { findConsignment, findConsignmentRef, insertHistory } from '../src/db/consignments.repository';
import { findImportCaller } from '../src/db/imports.repository';
import {
  findOrderEvent,
  hasEarlierCreate,
  findOrderSourceById,
  hasPendingCreate,
  recordOrderEventOutcome,
  type OrderEventRecord,
  type OrderSourceRecord,
} from '../src/db/order-sources.repository';
import { isProcessed, type ConsignmentRecord } from '../src/domain/consignment';
import { orderSourceDraftUuid } from '../src/domain/derived-uuid';
import type { DraftInput } from '../src/domain/draft';
import { DomainError, type Issue } from '../src/domain/errors';
import { isMarketplace, type OrderEventState } from '../src/domain/order-source';
import { toDraftInput } from '../src/domain/processing-planner';
import { cancelRule, isDraft, STATUS } from '../src/domain/statuses';
import type { ImportOptions } from '../src/imports/import-options';
import { marketplaceDraft, marketplaceDraftPatch } from '../src/imports/marketplace-orders';
import { mapPlatformOrder } from '../src/imports/platform-orders';
import type { MarketplacePackage } from '../src/marketplaces/marketplace';
import type { Metrics } from '../src/metrics';
import { workflowStartOf, processUpdateId, type ConsignmentStarter } from '../src/temporal/consignment.starter';
import type { OrderFeedActivities } from '../workflows/activities';
import { asActivity } from './failures';

/**
 * Draft creation as order feeds need it: the consignment service's createDraft, the API's own (the caller's
 * provider and documents checked, then createDrafts: the draft row and its outbox entry in one statement). A
 * port, so these activities depend on what they use, not on the service layer (the runtime hands in the
 * consignment service, which has this shape).
 */
export interface OrderDrafts {
  createDraft(caller: Caller, draft: DraftInput, uuid: string): Promise<ConsignmentRecord>;
  /** a marketplace package changed (its address fixed): through the draft's workflow, as the API's updates */
  updateDraft(caller: Caller, id: number, patch: DraftInput): Promise<ConsignmentRecord>;
}

export interface OrderFeedActivityDeps {
  db: Database;
  consignments: OrderDrafts;
  /** the consignment workflows' starter: an order's draft is processed and cancelled by its workflow, as the API's are */
  consignmentStarter: Pick<ConsignmentStarter, 'process' | 'cancel'>;
  /** how long processing waits for a carrier that does not answer (IMPORT_CARRIER_WAIT_MS, as for imports) */
  importCarrierWaitMs: number;
  metrics?: Pick<Metrics, 'orderEvents'>;
}

const issuesOf = (error: DomainError): Issue[] => error.issues;

/** The history note of a draft whose package weight is the source's default (the order carried none). */
const weightNote = (platform: string, weight: number | undefined) =>
  `${platform === 'woocommerce' ? 'WooCommerce sends no item weights' : 'The order carries no weight'}: the package weight${weight !== undefined ? ` (${weight} kg)` : ''} is the order source's default.`;

/** A marketplace package's draft, its issues in the shape the CSV mapping answers them. */
function marketplaceMapped(pkg: MarketplacePackage, source: OrderSourceRecord) {
  const { draft, issues } = marketplaceDraft(pkg, source.defaults, source.settings.carrier_provider_id);
  return {
    draft,
    issues: issues.map((i) => ({ code: i.code, path: i.field ?? null, ...(i.params && { params: i.params }) })),
    weightFromDefaults: false,
  };
}

export function createOrderFeedActivities(deps: OrderFeedActivityDeps) {
  const load = async (eventId: number): Promise<{ event: OrderEventRecord & { payload: string }; source: OrderSourceRecord; caller: Caller }> => {
    const event = await findOrderEvent(deps.db, eventId);
    const source = event && (await findOrderSourceById(deps.db, event.sourceId));
    const caller = source && (await findImportCaller(deps.db, source.customerId, null));
    // Deleted with its customer: nothing is left to do.
    if (!event || !source || !caller) throw new DomainError('ORDER_SOURCE_NOT_FOUND');
    return { event, source, caller };
  };

  const record = async (
    event: OrderEventRecord,
    platform: string,
    state: Exclude<OrderEventState, 'received'>,
    extra: { consignmentId?: number; errors?: Issue[] } = {},
    from: OrderEventState[] = ['received'],
  ) => {
    if (await recordOrderEventOutcome(deps.db, event.id, { state, consignmentId: extra.consignmentId, errors: extra.errors ?? null }, from)) {
      deps.metrics?.orderEvents.inc({ platform, outcome: state });
    }
  };

  /**
   * A new order: a shop's mapped by the platform's CSV preset, a marketplace package by its own mapping; created as a
   * draft under the uuid of (source, order).
   */
  const draft = async (event: OrderEventRecord & { payload: string }, source: OrderSourceRecord, caller: Caller): Promise<OrderEventState> => {
    const mapped = isMarketplace(source.platform)
      ? marketplaceMapped(JSON.parse(event.payload) as MarketplacePackage, source)
      : mapPlatformOrder(source.platform, JSON.parse(event.payload) as Record<string, unknown>, {
          preset: source.platform,
          mapping: {},
          process: source.process,
          ...source.defaults,
        } satisfies ImportOptions);
    if (!mapped.draft) {
      await record(event, source.platform, 'failed', {
        errors: mapped.issues.map((i) => ({ code: i.code, ...(i.path && { field: i.path }), ...(i.params && { params: i.params }) })),
      });
      return 'failed';
    }
    const uuid = orderSourceDraftUuid(source.id, event.orderId!);
    // Another event of the same order came first: the order's draft is that event's, this one duplicates it.
    if (await hasEarlierCreate(deps.db, event.id, source.id, event.orderId!)) {
      await record(event, source.platform, 'duplicate', { consignmentId: (await findConsignment(deps.db, { uuid }))?.id });
      return 'duplicate';
    }
    let consignment: ConsignmentRecord;
    try {
      consignment = await deps.consignments.createDraft(caller, mapped.draft, uuid);
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      const state = error.code === 'REFERENCE_USED' ? 'duplicate' : 'failed';
      await record(event, source.platform, state, { errors: issuesOf(error) });
      return state;
    }
    if (mapped.weightFromDefaults) {
      await insertHistory(deps.db, {
        consignmentId: consignment.id,
        status: STATUS.NEW_DRAFT,
        message: weightNote(source.platform, source.defaults.package?.weight ?? undefined),
        eventKey: 'order-feed:weight',
      });
    }
    await record(event, source.platform, 'drafted', { consignmentId: consignment.id });
    return 'drafted';
  };

  /**
   * A marketplace package changed (an address fixed, a line changed): its draft takes the change; a consignment
   * already processed does not (the carrier has it), and the event says so.
   */
  const update = async (event: OrderEventRecord & { payload: string }, source: OrderSourceRecord, caller: Caller): Promise<OrderEventState> => {
    const target = await findConsignment(deps.db, { uuid: orderSourceDraftUuid(source.id, event.orderId!) });
    // The package's create is still on its way to a draft: retried until it is one.
    if (!target) {
      if (await hasPendingCreate(deps.db, source.id, event.orderId!)) throw new Error(`package ${event.orderId}: its draft is not created yet`);
      await record(event, source.platform, 'failed', { errors: [{ code: 'ORDER_NOT_DRAFTED' }] });
      return 'failed';
    }
    const pkg = JSON.parse(event.payload) as MarketplacePackage;
    if (!isDraft(target.status)) {
      const change = `${pkg.consignee.address ?? ''} ${pkg.consignee.city ?? ''}`.trim().slice(0, 200);
      await record(event, source.platform, 'failed', { consignmentId: target.id, errors: [{ code: 'ORDER_CHANGED_AFTER_PROCESSING', params: { change } }] });
      return 'failed';
    }
    try {
      await deps.consignments.updateDraft(caller, target.id, marketplaceDraftPatch(pkg, toDraftInput(target)));
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      await record(event, source.platform, 'failed', { consignmentId: target.id, errors: issuesOf(error) });
      return 'failed';
    }
    await record(event, source.platform, 'drafted', { consignmentId: target.id });
    return 'drafted';
  };

  /** A cancelled order cancels its draft or consignment, by the carrier rules (a carrier's refusal fails the event). */
  const cancel = async (event: OrderEventRecord, source: OrderSourceRecord, caller: Caller): Promise<OrderEventState> => {
    const target = await findConsignment(deps.db, { uuid: orderSourceDraftUuid(source.id, event.orderId!) });
    if (!target) {
      // The order's create event is still on its way to a draft: retried until it is one.
      if (await hasPendingCreate(deps.db, source.id, event.orderId!)) throw new Error(`order ${event.orderId}: its draft is not created yet`);
      await record(event, source.platform, 'failed', { errors: [{ code: 'ORDER_NOT_DRAFTED' }] });
      return 'failed';
    }
    try {
      // Final statuses answer from the read model (their workflows may have completed), by the cancel rule.
      const rule = cancelRule(target.status);
      if (rule.refusal) throw new DomainError(rule.refusal.code, { params: rule.refusal.params });
      // Keyed by the event: a retried activity attaches to the cancellation it sent.
      await deps.consignmentStarter.cancel(workflowStartOf(target, caller.customerCode), `order-cancel-${event.id}`);
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      if (error.code !== 'ALREADY_CANCELLED') {
        await record(event, source.platform, 'failed', { consignmentId: target.id, errors: issuesOf(error) });
        return 'failed';
      }
    }
    await record(event, source.platform, 'cancelled', { consignmentId: target.id });
    return 'cancelled';
  };

  return {
    applyOrderEvent({ eventId }) {
      return asActivity(async () => {
        const { event, source, caller } = await load(eventId);
        // A retry after the outcome was recorded: answered from the record.
        if (event.state !== 'received') return { state: event.state, process: source.process };
        const state =
          event.action === 'create'
            ? await draft(event, source, caller)
            : event.action === 'update'
              ? await update(event, source, caller)
              : await cancel(event, source, caller);
        // Only a new draft is processed: an updated one was a draft before, and is processed as it was going to be.
        return { state, process: source.process && event.action === 'create' };
      });
    },

    processOrderEvent({ eventId }) {
      return asActivity(async () => {
        const { event, source, caller } = await load(eventId);
        if (event.state !== 'drafted' || event.consignmentId === null) return { state: event.state };
        const uuid = orderSourceDraftUuid(source.id, event.orderId!);
        try {
          const current = await findConsignmentRef(deps.db, source.customerId, event.consignmentId);
          if (!current) throw new DomainError('DRAFT_NOT_FOUND');
          // Straight to the draft's workflow, which decides. Keyed by the order: a retried activity attaches to the processing it sent.
          await deps.consignmentStarter.process(
            workflowStartOf(current, caller.customerCode),
            { patch: null, labelFormat: 'pdf', carrierWaitMs: deps.importCarrierWaitMs },
            processUpdateId(uuid),
          );
        } catch (error) {
          if (!(error instanceof DomainError)) throw error;
          const current = await findConsignment(deps.db, { id: event.consignmentId, customerId: source.customerId });
          if (!(error.code === 'NOT_DRAFT' && current && isProcessed(current))) {
            await record(event, source.platform, 'failed', { errors: issuesOf(error) }, ['drafted']);
            return { state: 'failed' as const };
          }
        }
        await record(event, source.platform, 'processed', {}, ['drafted']);
        return { state: 'processed' as const };
      });
    },
  } satisfies OrderFeedActivities;
}
