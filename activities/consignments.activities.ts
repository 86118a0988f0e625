import { serviceBarcode } from '../src/carriers/barcode';
import type { ShipmentSpec } from '../src/carriers/carrier';
import type { CarrierRegistry } from '../src/carriers/registry';
import { findConsignment, insertDraft, isReferenceTaken, saveDraft } from '../src/db/consignments.repository';
import type { Database, Queryable } from '../src/db/database';
import type { ConsignmentRecord } from '../src/domain/consignment';
import { applyDraftPatch, PREFERENCE, type DraftInput, type PartyInput } from '../src/domain/draft';
import { DomainError } from '../src/domain/errors';
import { processingIssues } from '../src/domain/processing';
import { STATUS, statusMessage } from '../src/domain/statuses';
import { totals } from '../src/domain/weights';
import type { LabelParty } from '../src/labels/label.types';
import { renderPdfLabel } from '../src/labels/pdf-label';
import { renderZplLabel } from '../src/labels/zpl-label';
import type { CreateDraftRequest } from '../workflows/consignment.messages';
import type { BookedShipment } from './carriers.activities';
import { appendStatusEvent, stableEventId } from './events';
import { asActivity, isUniqueViolation } from './failures';

export interface ConsignmentActivityDeps {
  db: Database;
  carriers: CarrierRegistry;
}

/** Our fees on top of the carrier's price (TRY): a flat service fee and one per special service. */
export const FEES = { serviceFee: 7.5, perSpecialService: 25 } as const;

/** What processing will do, decided before anything is written or booked. */
export interface ProcessingPlan {
  draft: DraftInput;
  replacePackages: boolean;
  providerId: number;
  shipment: ShipmentSpec;
  serviceBarcode: string;
  /** the carrier pushes its tracking events; otherwise the workflow polls it */
  carrierPushes: boolean;
}

function labelParty(p: PartyInput): LabelParty {
  return {
    name: p.name ?? '',
    address: p.address ?? '',
    city: p.city ?? '',
    state: p.state ?? undefined,
    postalCode: p.postal_code ?? undefined,
    countryIso2: p.country ?? '',
    phone: p.phone_number ?? undefined,
  };
}

const REFERENCE_INDEX = 'consignments_customer_reference';

async function load(q: Queryable, uuid: string): Promise<ConsignmentRecord> {
  const record = await findConsignment(q, { uuid });
  if (!record) throw new DomainError('CONSIGNMENT_NOT_FOUND');
  return record;
}

/** The stored draft as request fields again, so a patch can be merged onto it. */
function toDraftInput(record: ConsignmentRecord): DraftInput {
  return {
    preference: record.preference,
    provider_id: record.provider_id,
    address_resolver_type: record.address_resolver_type,
    reference_no: record.reference_no,
    invoice_number: record.invoice_number,
    incoterms_type: record.incoterms_type,
    specific_shipping_method: record.specific_shipping_method,
    generate_provider_barcode: record.generate_provider_barcode,
    specific_provider_barcode: record.specific_provider_barcode,
    consignor: record.consignor,
    consignee: record.consignee,
    packages: record.packages.map(({ id: _id, desi: _desi, quantity: _quantity, items, ...rest }) => ({ ...rest, items: items.map(({ id: _itemId, ...item }) => item) })),
    documents: record.documents,
    special_services: record.special_services,
  };
}

async function referenceGuard<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    if (isUniqueViolation(error, REFERENCE_INDEX)) throw new DomainError('REFERENCE_USED', { field: 'reference_no' });
    throw error;
  }
}

/** Read-model writes of the consignment lifecycle. Each is one transaction and safe to retry. */
export function createConsignmentActivities({ db, carriers }: ConsignmentActivityDeps) {
  return {
    /** Inserts the draft (idempotent on uuid) and returns it as stored. */
    insertDraft(request: CreateDraftRequest & { uuid: string }): Promise<ConsignmentRecord> {
      return asActivity(() =>
        referenceGuard(() =>
          db.transaction(async (tx) => {
            await insertDraft(tx, {
              uuid: request.uuid,
              customerId: request.customerId,
              userId: request.userId,
              importId: request.importId,
              draft: request.draft,
              status: STATUS.NEW_DRAFT,
              statusMessage: statusMessage(STATUS.NEW_DRAFT, 'en'),
            });
            return load(tx, request.uuid);
          }),
        ),
      );
    },

    /** Applies a partial update to a draft still in status 24. */
    updateDraft({ uuid, patch }: { uuid: string; patch: DraftInput }): Promise<ConsignmentRecord> {
      return asActivity(() =>
        referenceGuard(() =>
          db.transaction(async (tx) => {
            await tx.query('SELECT 1 FROM consignments WHERE uuid = $1 FOR UPDATE', [uuid]);
            const current = await load(tx, uuid);
            if (current.status !== STATUS.NEW_DRAFT) throw new DomainError('NOT_DRAFT');
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
    planProcessing({ uuid, patch }: { uuid: string; patch: DraftInput | null }): Promise<ProcessingPlan> {
      return asActivity(async () => {
        const current = await load(db, uuid);
        if (current.status !== STATUS.NEW_DRAFT) throw new DomainError('NOT_DRAFT');
        const draft = applyDraftPatch(toDraftInput(current), patch ?? {});
        const issues = processingIssues(draft);
        if (draft.provider_id != null && !carriers.get(draft.provider_id)) {
          issues.push({ code: 'PROVIDER_NOT_FOUND', field: 'provider_id', params: { provider_id: draft.provider_id } });
        }
        if (issues.length) throw new DomainError('VALIDATION_FAILED', issues);
        if (patch?.reference_no && (await isReferenceTaken(db, current.customer_id, patch.reference_no, uuid))) {
          throw new DomainError('REFERENCE_USED', { field: 'reference_no' });
        }
        const { weight, desi } = totals(draft.packages ?? []);
        const shipment: ShipmentSpec = { fromCountry: draft.consignor!.country!, toCountry: draft.consignee!.country!, weightKg: weight, desi, packageCount: draft.packages!.length };
        // A provider_id without a preference means that provider.
        const preference = draft.preference ?? PREFERENCE.SPECIFIC;
        const choice = carriers.choose(shipment, preference as 0 | 1 | 2, draft.provider_id);
        if (!choice) {
          throw new DomainError('NO_CARRIER_AVAILABLE', { field: 'provider_id', params: { reason: `no carrier takes ${Math.max(weight, desi)} kg from ${shipment.fromCountry} to ${shipment.toCountry}` } });
        }
        return {
          draft: { ...draft, provider_id: choice.carrier.id },
          replacePackages: patch?.packages !== undefined,
          providerId: choice.carrier.id,
          shipment,
          serviceBarcode: serviceBarcode(current.id),
          carrierPushes: choice.carrier.supportsPush,
        };
      });
    },

    /**
     * Writes the processed consignment in one transaction: the draft changes, carrier and costs, status 2
     * (drop-off) or 3 (pickup booked), the label (PDF and ZPL), a history entry and the status event.
     * Idempotent: a retry after success returns what the first attempt wrote.
     */
    completeProcessing({ uuid, plan, booking }: { uuid: string; plan: ProcessingPlan; booking: BookedShipment }): Promise<{ record: ConsignmentRecord; labelId: number; eventId: string }> {
      return asActivity(() =>
        referenceGuard(() =>
          db.transaction(async (tx) => {
            await tx.query('SELECT 1 FROM consignments WHERE uuid = $1 FOR UPDATE', [uuid]);
            const current = await load(tx, uuid);
            if (current.status !== STATUS.NEW_DRAFT) {
              const label = await tx.query<{ id: number }>('SELECT id FROM labels WHERE consignment_id = $1', [current.id]);
              if (current.tracking_code === booking.trackingCode && label.rows[0]) return { record: current, labelId: Number(label.rows[0].id), eventId: stableEventId(uuid, 'processed') };
              throw new DomainError('NOT_DRAFT');
            }
            await saveDraft(tx, uuid, plan.draft, plan.replacePackages);
            const status = booking.pickupBooked ? STATUS.AWAITING_PICKUP : STATUS.LABEL_CREATED;
            const specialFee = FEES.perSpecialService * (plan.draft.special_services?.length ?? 0);
            const total = booking.baseCost + FEES.serviceFee + specialFee;
            await tx.query(
              `UPDATE consignments SET status = $2, barcode = $3, provider_id = $4, tracking_code = $5, tracking_url = $6, service_name = $7,
                 provider_base_cost = $8, additional_cost = 0, rule_cost = 0, service_fee = $9, special_service_fee = $10, total_cost = $11,
                 currency_code = $12, currency_rate = 1, processed_at = now(), updated_at = now()
               WHERE uuid = $1`,
              [uuid, status, plan.serviceBarcode, booking.providerId, booking.trackingCode, booking.trackingUrl, booking.serviceName, booking.baseCost, FEES.serviceFee, specialFee, total, booking.currency],
            );
            const record = await load(tx, uuid);
            const labelData = {
              barcode: plan.serviceBarcode,
              trackingCode: booking.trackingCode,
              trackingUrl: booking.trackingUrl,
              referenceNo: record.reference_no,
              carrierName: carriers.get(booking.providerId)?.name ?? `Provider ${booking.providerId}`,
              serviceName: booking.serviceName,
              consignor: labelParty(record.consignor),
              consignee: labelParty(record.consignee),
              weightKg: record.weight,
              desi: record.desi,
              packageCount: record.packages.length,
              createdAt: new Date(),
            };
            const [pdf, zpl] = [await renderPdfLabel(labelData), renderZplLabel(labelData)];
            const label = await tx.query<{ id: number }>(
              `INSERT INTO labels (consignment_id, provider_id, file_name, tracking_code, pdf, zpl) VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`,
              [record.id, booking.providerId, `${plan.serviceBarcode}.pdf`, booking.trackingCode, pdf, zpl],
            );
            await tx.query(`INSERT INTO consignment_history (consignment_id, status, message, event_key) VALUES ($1, $2, $3, 'processed')`, [
              record.id,
              status,
              `Label created; booked with ${labelData.carrierName} (${booking.trackingCode})`,
            ]);
            const eventId = await appendStatusEvent(tx, {
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
            return { record, labelId: Number(label.rows[0].id), eventId };
          }),
        ),
      );
    },

    /**
     * Moves the consignment from `from` to `to` with a history entry and a status event, in one transaction.
     * Guarded by the expected status and keyed by `eventKey`, so a retried write changes nothing twice.
     * Cancelling voids the label.
     */
    recordStatus(change: {
      uuid: string;
      from: number;
      to: number;
      eventKey: string;
      message: string | null;
      location: string | null;
      occurredAt: string | null;
    }): Promise<{ record: ConsignmentRecord; eventId: string }> {
      return asActivity(() =>
        db.transaction(async (tx) => {
          const moved = await tx.query<{ id: number }>('UPDATE consignments SET status = $3, updated_at = now() WHERE uuid = $1 AND status = $2 RETURNING id', [change.uuid, change.from, change.to]);
          const record = await load(tx, change.uuid);
          const eventId = stableEventId(change.uuid, change.eventKey);
          if (moved.rows.length === 0) return { record, eventId }; // already applied by an earlier attempt
          const occurredAt = change.occurredAt ? new Date(change.occurredAt) : new Date();
          await tx.query(
            `INSERT INTO consignment_history (consignment_id, status, message, location, event_key, occurred_at) VALUES ($1, $2, $3, $4, $5, $6)
             ON CONFLICT (consignment_id, event_key) DO NOTHING`,
            [record.id, change.to, change.message, change.location, change.eventKey, occurredAt],
          );
          if (change.to === STATUS.CANCELLED) await tx.query('UPDATE labels SET voided_at = now() WHERE consignment_id = $1 AND voided_at IS NULL', [record.id]);
          await appendStatusEvent(tx, {
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
          return { record, eventId };
        }),
      );
    },
  };
}
