import { findConsignment, insertDraft, saveDraft } from '../src/db/consignments.repository';
import type { Database, Queryable } from '../src/db/database';
import type { ConsignmentRecord } from '../src/domain/consignment';
import { applyDraftPatch, type DraftInput } from '../src/domain/draft';
import { DomainError } from '../src/domain/errors';
import { STATUS, statusMessage } from '../src/domain/statuses';
import type { CreateDraftRequest } from '../workflows/consignment.messages';
import { asActivity, isUniqueViolation } from './failures';

export interface ConsignmentActivityDeps {
  db: Database;
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
export function createConsignmentActivities({ db }: ConsignmentActivityDeps) {
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
  };
}
