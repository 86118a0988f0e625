import { serviceBarcode } from '../src/carriers/barcode';
import { addressLookups, correctionText, resolveDraftAddresses } from '../src/address/address-resolver';
import type { CarrierRegistry } from '../src/carriers/registry';
import { findCarrierLabel } from '../src/db/carrier-bookings.repository';
import { describeChoice, type Providers } from '../src/carriers/providers';
import {
  createDrafts,
  deleteDraftRow,
  findConsignment,
  insertHistory,
  markProcessed,
  moveStatus,
  referenceGuard,
  refuseTakenReference,
  saveDraft,
  findProcessKey,
} from '../src/db/consignments.repository';
import type { Database, Queryable } from '../src/db/database';
import { findLabelId, insertLabel, voidLabels } from '../src/db/labels.repository';
import { startTracking, stopTracking } from '../src/db/tracking.repository';
import { describeWait, firstCheckIn } from '../src/domain/tracking-schedule';
import { appendDeletedEvent, appendStatusEvent } from '../src/db/status-events.repository';
import type { ConsignmentRecord } from '../src/domain/consignment';
import { statusEventId } from '../src/domain/derived-uuid';
import { applyDraftPatch, newDraft, PREFERENCE } from '../src/domain/draft';
import { DomainError } from '../src/domain/errors';
import { costsOf } from '../src/domain/fees';
import { planProcessing, toDraftInput, type PlannerPorts } from '../src/domain/processing-planner';
import { isDraft, isFinal, requireDraft, STATUS, statusName } from '../src/domain/statuses';
import type { Metrics } from '../src/metrics';
import type { Logger } from 'pino';
import { totals } from '../src/domain/weights';
import { labelParty, type LabelData } from '../src/labels/label.types';
import { renderPdfLabel } from '../src/labels/pdf-label';
import { renderZplLabel } from '../src/labels/zpl-label';
import type { ConsignmentActivities } from '../workflows/activities';
import { asActivity } from './failures';

export interface ConsignmentActivityDeps {
  db: Database;
  /** the built-in carriers, which quote (cheapest and fastest choose among them) */
  carriers: CarrierRegistry;
  /** every provider of a customer: built-in carriers and carrier accounts */
  providers: Providers;
  /** the process's metrics (consignments processed, cancelled, deleted; status changes) */
  metrics?: Metrics;
  /** the process's logger */
  log?: Logger;
  /** CARRIER_POLL_INTERVAL_MS: when a consignment handed to a carrier without push is first asked (default 15 min) */
  trackingIntervalMs?: number;
}

/** The consignment; `forUpdate` locks its row for the rest of the transaction (changes of one consignment never interleave). */
async function load(q: Queryable, uuid: string, forUpdate = false): Promise<ConsignmentRecord> {
  const record = await findConsignment(q, { uuid }, { forUpdate });
  if (!record) throw new DomainError('CONSIGNMENT_NOT_FOUND');
  return record;
}

/** Read-model writes of the consignment lifecycle. Each is one transaction and safe to retry. */
export function createConsignmentActivities({ db, carriers, providers, metrics, log, trackingIntervalMs = 15 * 60_000 }: ConsignmentActivityDeps) {
  /** The planner's view of the world (src/domain/processing-planner.ts): the read model, address data, the carrier directory. */
  const plannerPorts: PlannerPorts = {
    findProcessKey: (uuid) => findProcessKey(db, uuid),
    resolveAddresses: (draft) => resolveDraftAddresses(addressLookups(db), draft),
    providerIssue: (customerId, providerId) => providers.issue(customerId, providerId),
    refuseTakenReference: (customerId, referenceNo, exceptUuid) => refuseTakenReference(db, customerId, referenceNo, exceptUuid),
    isBuiltIn: (providerId) => providers.isBuiltIn(providerId),
    carrierPushes: async (providerId) => (await providers.carrierFor(providerId))?.supportsPush ?? false,
    chooseSpecific: async (shipment, providerId) => (await carriers.choose(shipment, PREFERENCE.SPECIFIC, providerId))?.carrier.id,
    chooseAmong: async (customerId, shipment, parties, preference) => {
      const { chosen, considered } = await providers.choose(customerId, shipment, parties, preference);
      return chosen ? { providerId: chosen.providerId, note: describeChoice(preference, chosen, considered) } : undefined;
    },
    serviceBarcode,
  };

  return {
    /**
     * Replay-only: the write of the workflow's createDraft handler, which no production code sends now; kept
     * while a recorded history in test/workflows/histories/ calls it (see ConsignmentActivities.insertDraft).
     * Creates the draft (idempotent on uuid) without an outbox entry, its workflow being the one asking.
     */
    insertDraft(request) {
      return asActivity(async () => {
        const draft = newDraft({
          uuid: request.uuid,
          customerId: request.customerId,
          userId: request.userId,
          importId: request.importId,
          draft: request.draft,
        });
        const [{ record }] = await createDrafts(db, [draft], { workflowStart: 'none' });
        return record;
      });
    },

    /** Applies a partial update to a draft still in status 24. */
    updateDraft({ uuid, patch }) {
      return asActivity(() =>
        referenceGuard(() =>
          db.transaction(async (tx) => {
            const current = await load(tx, uuid, true);
            requireDraft(current.status);
            await saveDraft(tx, uuid, applyDraftPatch(toDraftInput(current), patch), patch.packages !== undefined);
            return load(tx, uuid);
          }),
        ),
      );
    },

    /**
     * Checks that the draft (with the optional patch applied, not yet saved) can be processed and picks the
     * carrier by its preference. Writes nothing: a refusal leaves the draft as it was.
     */
    planProcessing({ uuid, patch, processKey }) {
      return asActivity(async () => planProcessing(plannerPorts, await load(db, uuid), { patch, processKey }));
    },

    /**
     * Writes the processed consignment in one transaction: the draft changes, carrier and costs, status 2
     * (drop-off) or 3 (pickup booked), the label (PDF and ZPL, rendered before the transaction opens), a
     * history entry and the status event. Idempotent: a retry after success returns what the first attempt wrote.
     */
    completeProcessing({ uuid, plan, booking }) {
      return asActivity(async () => {
        const carrierName = (await providers.describe(booking.providerId))?.name ?? `Provider ${booking.providerId}`;
        const { weight, desi } = totals(plan.draft.packages ?? []);
        const labelData: LabelData = {
          barcode: plan.serviceBarcode,
          trackingCode: booking.trackingCode,
          trackingUrl: booking.trackingUrl,
          referenceNo: plan.draft.reference_no ?? null,
          carrierName,
          serviceName: booking.serviceName,
          consignor: labelParty(plan.draft.consignor ?? {}),
          consignee: labelParty(plan.draft.consignee ?? {}),
          weightKg: weight,
          desi,
          packageCount: plan.draft.packages?.length ?? 0,
          createdAt: new Date(),
          ...(booking.pieceBarcodes?.length ? { pieces: booking.pieceBarcodes } : {}),
          ...(booking.routing ? { routing: booking.routing } : {}),
        };
        // The carrier's own label when it made one (kept as received); ours otherwise. A carrier ZPL whose barcodes
        // we know gets our PDF beside it, printing those very barcodes; any other carrier label is the only one.
        const carrierLabel = booking.carrierLabel ? await findCarrierLabel(db, uuid) : undefined;
        if (booking.carrierLabel && !carrierLabel) throw new Error(`the carrier label of booking ${uuid} is missing`);
        const isZpl = carrierLabel !== undefined && /zpl/i.test(carrierLabel.contentType);
        const [pdf, zpl] = !carrierLabel
          ? [await renderPdfLabel(labelData), renderZplLabel(labelData)]
          : isZpl
            ? [booking.pieceBarcodes?.length ? await renderPdfLabel(labelData) : null, carrierLabel.content.toString('utf8')]
            : [carrierLabel.content, null];
        // A carrier without push is asked by its account's tracking poller, first soon after the hand-over.
        const tracking = plan.carrierPushes
          ? undefined
          : { intervalMs: trackingIntervalMs, minReaskMs: (await providers.carrierFor(booking.providerId))?.trackingLimits?.minReaskMs ?? 0 };
        let wrote: number | undefined;
        const done = await referenceGuard(() =>
          db.transaction(async (tx) => {
            const current = await load(tx, uuid, true);
            // Written by an earlier attempt of this very processing: what it wrote is the answer.
            if (!isDraft(current.status)) {
              const labelId = await findLabelId(tx, current.id);
              if (current.tracking_code === booking.trackingCode && labelId !== undefined)
                return { record: current, labelId, eventId: statusEventId(uuid, 'processed') };
            }
            requireDraft(current.status);
            // Without a patch the draft is as stored (the carrier chosen is written below); a plan recorded
            // without `patched` (older histories) saves it.
            if (plan.patched !== false) await saveDraft(tx, uuid, plan.draft, plan.replacePackages);
            const status = booking.pickupBooked ? STATUS.AWAITING_PICKUP : STATUS.LABEL_CREATED;
            const record = await markProcessed(tx, uuid, {
              status,
              barcode: plan.serviceBarcode,
              providerId: booking.providerId,
              trackingCode: booking.trackingCode,
              trackingUrl: booking.trackingUrl,
              serviceName: booking.serviceName,
              costs: costsOf(booking.baseCost, plan.draft.special_services?.length ?? 0),
              currency: booking.currency,
              processKey: plan.processKey,
            });
            // Each address correction is an entry of its own, before the processing one.
            for (const c of plan.addressCorrections ?? []) {
              await insertHistory(tx, {
                consignmentId: record.id,
                status: STATUS.NEW_DRAFT,
                message: correctionText(c),
                eventKey: `address:${c.party}.${c.field}`,
              });
            }
            // What booking found beyond the booking (an earlier one recovered, voided or left unused), likewise.
            for (const [i, note] of (booking.notes ?? []).entries()) {
              await insertHistory(tx, { consignmentId: record.id, status: STATUS.NEW_DRAFT, message: note, eventKey: `booking-note:${i}` });
            }
            const labelId = await insertLabel(tx, {
              consignmentId: record.id,
              providerId: booking.providerId,
              fileName: `${plan.serviceBarcode}.${pdf ? 'pdf' : 'zpl'}`,
              trackingCode: booking.trackingCode,
              pdf,
              zpl,
            });
            if (tracking)
              await startTracking(tx, {
                consignmentId: record.id,
                uuid,
                providerId: booking.providerId,
                trackingCode: booking.trackingCode,
                carrierReference: booking.carrierReference ?? null,
                firstCheckInMs: firstCheckIn(tracking),
              });
            // One entry per status change: how cheapest or fastest chose the carrier is part of this one.
            const booked = `Label created; booked with ${carrierName} (${booking.trackingCode})`;
            await insertHistory(tx, { consignmentId: record.id, status, message: plan.choice ? `${booked}. ${plan.choice}` : booked, eventKey: 'processed' });
            const event = await appendStatusEvent(tx, {
              consignmentId: record.id,
              consignmentUuid: uuid,
              customerId: record.customer_id,
              referenceNo: record.reference_no,
              barcode: record.barcode,
              from: STATUS.NEW_DRAFT,
              to: status,
              eventKey: 'processed',
              location: null,
              occurredAt: new Date(),
            });
            wrote = status;
            return { record, labelId, ...event };
          }),
        );
        // Counted once committed, and not again by a retry that finds it written.
        if (wrote !== undefined) {
          metrics?.consignments.inc({ event: 'processed' });
          metrics?.statusTransitions.inc({ from: statusName(STATUS.NEW_DRAFT), to: statusName(wrote) });
        }
        return done;
      });
    },

    /**
     * Moves the consignment from `from` to `to` with a history entry and a status event, in one transaction.
     * Guarded by the expected status and keyed by `eventKey`, so a retried write changes nothing twice.
     * Cancelling voids the label.
     */
    recordStatus(change) {
      return asActivity(async () => {
        let moved = false;
        const written = await db.transaction(async (tx) => {
          const record = await moveStatus(tx, change.uuid, change.from, change.to);
          const eventId = statusEventId(change.uuid, change.eventKey);
          if (!record) return { record: await load(tx, change.uuid), eventId }; // already applied by an earlier attempt
          moved = true;
          const occurredAt = change.occurredAt ? new Date(change.occurredAt) : new Date();
          await insertHistory(tx, {
            consignmentId: record.id,
            status: change.to,
            message: change.message,
            location: change.location,
            eventKey: change.eventKey,
            occurredAt,
          });
          if (change.to === STATUS.CANCELLED) await voidLabels(tx, record.id);
          if (isFinal(change.to)) await stopTracking(tx, record.id);
          const event = await appendStatusEvent(tx, {
            consignmentId: record.id,
            consignmentUuid: change.uuid,
            customerId: record.customer_id,
            referenceNo: record.reference_no,
            barcode: record.barcode,
            from: change.from,
            to: change.to,
            eventKey: change.eventKey,
            location: change.location,
            occurredAt,
          });
          return { record, ...event };
        });
        if (moved) {
          metrics?.statusTransitions.inc({ from: statusName(change.from), to: statusName(change.to) });
          if (change.to === STATUS.CANCELLED) metrics?.consignments.inc({ event: 'cancelled' });
        }
        return written;
      });
    },

    recordTrackingFailure({ uuid, providerId, reason, refused, failures, eventKey, retryInMs }) {
      return asActivity(async () => {
        const record = await load(db, uuid);
        const provider = await providers.describe(providerId);
        const name = provider?.name ?? `Provider ${providerId}`;
        const message = `Tracking at ${name} ${refused ? 'refused' : 'failed'}: ${reason}. Asking again in ${describeWait(retryInMs)}`;
        await insertHistory(db, { consignmentId: record.id, status: record.status, message: message.slice(0, 1000), eventKey });
        metrics?.trackingFailures.inc({ carrier: provider?.carrier ?? 'unknown', outcome: refused ? 'refused' : 'failed' });
        log?.warn(
          { consignment: record.id, providerId, carrier: provider?.carrier, reason, failures, retryInMs },
          'carrier tracking failed; polling goes on with backoff',
        );
      });
    },

    recordNotes({ uuid, notes, eventKey }) {
      return asActivity(async () => {
        const record = await load(db, uuid);
        for (const [i, note] of notes.entries()) {
          await insertHistory(db, { consignmentId: record.id, status: record.status, message: note.slice(0, 1000), eventKey: `${eventKey}:${i}` });
        }
      });
    },

    deleteDraft({ uuid }) {
      return asActivity(async () => {
        let deletedNow = false;
        const result = await db.transaction(async (tx) => {
          const { deleted, status } = await deleteDraftRow(tx, uuid);
          if (deleted) {
            const event = await appendDeletedEvent(tx, {
              consignmentId: deleted.id,
              consignmentUuid: uuid,
              customerId: deleted.customerId,
              referenceNo: deleted.referenceNo,
              status: deleted.status,
            });
            deletedNow = true;
            return event;
          }
          if (status !== undefined) requireDraft(status);
          // Gone: deleted by an earlier attempt of this activity, whose event is in the outbox.
          return { eventId: statusEventId(uuid, 'deleted') };
        });
        if (deletedNow) metrics?.consignments.inc({ event: 'deleted' });
        return result;
      });
    },
  } satisfies ConsignmentActivities;
}
