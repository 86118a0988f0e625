import type { AddressCorrection } from './address-correction';
import type { ConsignmentRecord } from './consignment';
import { applyDraftPatch, PREFERENCE, type DraftInput, type PartyInput } from './draft';
import { DomainError, type Issue } from './errors';
import { processingIssues } from './processing';
import { shipmentSpecOf, type ProcessingPlan, type ShipmentSpec } from './shipment';
import { isDraft, requireDraft } from './statuses';

/**
 * What planning needs to ask of the world, as functions: the activity (activities/consignments.activities.ts)
 * hands them in over the read model, address data and the carrier directory, so the rules here stay pure.
 */
export interface PlannerPorts {
  /** the id of the workflow update whose processing was written with the consignment, if any */
  findProcessKey(uuid: string): Promise<string | null | undefined>;
  /** address resolution of the draft (its address_resolver_type): corrected draft, corrections, problems */
  resolveAddresses(draft: DraftInput): Promise<{ draft: DraftInput; corrections: AddressCorrection[]; problems: Issue[] }>;
  /** the provider-existence rule for the customer (src/domain/providers.ts, over its accounts) */
  providerIssue(customerId: number, providerId: number | null | undefined): Promise<Issue | undefined>;
  /** the reference rule (referenceUsed): refuses a reference_no another consignment of the customer has */
  refuseTakenReference(customerId: number, referenceNo: string | null | undefined, exceptUuid: string): Promise<void>;
  /** a built-in carrier (quoted and booked in the worker's process) rather than a carrier account */
  isBuiltIn(providerId: number): boolean;
  /** the provider's carrier pushes its tracking events (otherwise the workflow polls it) */
  carrierPushes(providerId: number): Promise<boolean>;
  /** preference 0 among the built-in carriers: the provider, when it takes the shipment */
  chooseSpecific(shipment: ShipmentSpec, providerId: number | null | undefined): Promise<number | undefined>;
  /** cheapest (1) or fastest (2) among every provider of the customer that prices: the one chosen and how (a history note) */
  chooseAmong(
    customerId: number,
    shipment: ShipmentSpec,
    parties: { from: PartyInput; to: PartyInput },
    preference: 1 | 2,
  ): Promise<{ providerId: number; note: string } | undefined>;
  /** our service barcode for the consignment id */
  serviceBarcode(consignmentId: number): string;
}

/** The stored draft as request fields again, so a patch can be merged onto it. */
export function toDraftInput(record: ConsignmentRecord): DraftInput {
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
    packages: record.packages.map(({ id: _id, desi: _desi, quantity: _quantity, items, ...rest }) => ({
      ...rest,
      items: items.map(({ id: _itemId, ...item }) => item),
    })),
    documents: record.documents,
    special_services: record.special_services,
  };
}

/** The one way a processing plan is written out (the optional parts only when they say something). */
function planOf(
  fields: Omit<ProcessingPlan, 'choice' | 'addressCorrections' | 'processKey'> & {
    choice?: string;
    addressCorrections?: AddressCorrection[];
    processKey?: string;
  },
): ProcessingPlan {
  const { choice, addressCorrections, processKey, ...plan } = fields;
  return { ...plan, ...(choice ? { choice } : {}), ...(addressCorrections?.length ? { addressCorrections } : {}), ...(processKey ? { processKey } : {}) };
}

/**
 * The processing planner: checks that the draft (with the optional patch applied, not yet saved) can be
 * processed and picks the carrier by its preference. Decides, writes nothing: a refusal leaves the draft as it was.
 * `processKey` (the workflow update's id) recognises a processing this very update wrote already, whose answer a
 * crash lost: its plan is then what was done, so booking and writing (both idempotent) answer it again.
 */
export async function planProcessing(
  ports: PlannerPorts,
  current: ConsignmentRecord,
  request: { patch: DraftInput | null | undefined; processKey?: string },
): Promise<ProcessingPlan> {
  const { patch, processKey } = request;
  if (!isDraft(current.status) && processKey && (await ports.findProcessKey(current.uuid)) === processKey) {
    // The plan of a processing already written: its carrier as booked, the draft as stored, nothing to patch.
    const draft = toDraftInput(current);
    const providerId = current.provider_id!;
    return planOf({
      draft,
      replacePackages: false,
      patched: false,
      providerId,
      shipment: shipmentSpecOf(draft),
      serviceBarcode: current.barcode!,
      carrierPushes: await ports.carrierPushes(providerId),
      carrierInProcess: ports.isBuiltIn(providerId),
      processKey,
    });
  }
  requireDraft(current.status);
  // Address resolution (address_resolver_type 1 or 2) before anything reads the parties.
  const resolution = await ports.resolveAddresses(applyDraftPatch(toDraftInput(current), patch ?? {}));
  const draft = resolution.draft;
  const patched = (patch != null && Object.keys(patch).length > 0) || resolution.corrections.length > 0;
  const issues = [...resolution.problems, ...processingIssues(draft)];
  const providerIssue = await ports.providerIssue(current.customer_id, draft.provider_id);
  if (providerIssue) issues.push(providerIssue);
  if (issues.length) throw new DomainError('VALIDATION_FAILED', issues);
  await ports.refuseTakenReference(current.customer_id, patch?.reference_no, current.uuid);
  const shipment = shipmentSpecOf(draft);
  const { weightKg: weight, desi } = shipment;
  const common = {
    replacePackages: patch?.packages !== undefined,
    patched,
    shipment,
    serviceBarcode: ports.serviceBarcode(current.id),
    addressCorrections: resolution.corrections,
    processKey,
  };
  // A provider_id without a preference means that provider.
  const preference = draft.preference ?? PREFERENCE.SPECIFIC;
  if (preference === PREFERENCE.SPECIFIC && draft.provider_id != null && !ports.isBuiltIn(draft.provider_id)) {
    // A carrier account: its carrier prices and accepts (or refuses) the shipment when it books.
    return planOf({ ...common, draft, providerId: draft.provider_id, carrierPushes: await ports.carrierPushes(draft.provider_id), carrierInProcess: false });
  }
  const noCarrier = () =>
    new DomainError('NO_CARRIER_AVAILABLE', {
      field: 'provider_id',
      params: { reason: `no carrier takes ${Math.max(weight, desi)} kg from ${shipment.fromCountry} to ${shipment.toCountry}` },
    });
  let providerId: number;
  let choice: string | undefined;
  if (preference === PREFERENCE.SPECIFIC) {
    const chosen = await ports.chooseSpecific(shipment, draft.provider_id);
    if (chosen === undefined) throw noCarrier();
    providerId = chosen;
  } else {
    // Cheapest and fastest compare every provider of the customer that prices: built-in carriers and accounts.
    const chosen = await ports.chooseAmong(current.customer_id, shipment, { from: draft.consignor ?? {}, to: draft.consignee ?? {} }, preference as 1 | 2);
    if (!chosen) throw noCarrier();
    providerId = chosen.providerId;
    choice = chosen.note;
  }
  return planOf({
    ...common,
    draft: { ...draft, provider_id: providerId },
    providerId,
    carrierPushes: await ports.carrierPushes(providerId),
    carrierInProcess: ports.isBuiltIn(providerId),
    choice,
  });
}
