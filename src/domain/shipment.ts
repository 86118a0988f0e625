import type { AddressCorrection } from './address-correction';
import type { DraftInput } from './draft';
import type { LabelFormat } from './label';
import { totals } from './weights';

/** What a carrier needs to price and book a consignment. Weights are consignment totals. */
export interface ShipmentSpec {
  /** ISO 3166-1 alpha-2 of the consignor. */
  fromCountry: string;
  /** ISO 3166-1 alpha-2 of the consignee. */
  toCountry: string;
  weightKg: number;
  desi: number;
  packageCount: number;
  /**
   * Each package of the draft (kg, cm), for carriers that price per piece (volumetric weight counts). Optional: plans
   * recorded in workflow histories before it existed have none, and carriers then price the totals.
   */
  packages?: { weightKg: number; lengthCm?: number; widthCm?: number; heightCm?: number }[];
}

/** The shipment of a draft that can be processed (both countries and at least one package present). */
export function shipmentSpecOf(draft: DraftInput): ShipmentSpec {
  const packages = draft.packages ?? [];
  const { weight, desi } = totals(packages);
  return {
    fromCountry: draft.consignor!.country!,
    toCountry: draft.consignee!.country!,
    weightKg: weight,
    desi,
    packageCount: packages.length,
    // Each piece with its dimensions, for carriers that price per piece (plain data: the plan is in the history).
    packages: packages.map((p) => ({
      weightKg: p.weight ?? 0,
      ...(p.length ? { lengthCm: p.length } : {}),
      ...(p.width ? { widthCm: p.width } : {}),
      ...(p.height ? { heightCm: p.height } : {}),
    })),
  };
}

/** A booking as the workflow carries it (plain data: it is stored in the workflow history). */
export interface BookedShipment {
  providerId: number;
  trackingCode: string;
  trackingUrl: string;
  pickupBooked: boolean;
  baseCost: number;
  currency: string;
  serviceName: string;
  /** the carrier's own id of the shipment (a remote consignment id), for tracking and cancelling */
  carrierReference?: string | null;
  /** the carrier made the label (kept with the booking, not in the workflow history): it is stored instead of ours */
  carrierLabel?: boolean;
  /** the barcodes the carrier scans, one per package, when it gives each its own (our label prints a page per piece) */
  pieceBarcodes?: string[];
  /** the routing text on the carrier's own label (destination branch, cross-dock, zone): our label prints it too */
  routing?: string;
  /** what booking found and did beyond the booking itself (an earlier booking recovered or voided): history entries */
  notes?: string[];
}

/** What processing will do, decided before anything is written or booked. */
export interface ProcessingPlan {
  draft: DraftInput;
  replacePackages: boolean;
  /** the request changed the draft (a patch), so processing writes it back; absent in plans recorded before it existed */
  patched?: boolean;
  providerId: number;
  shipment: ShipmentSpec;
  serviceBarcode: string;
  /** the carrier pushes its tracking events; otherwise the workflow polls it */
  carrierPushes: boolean;
  /** how cheapest or fastest chose the carrier, and the quotes it compared (a history entry) */
  choice?: string;
  /** the carrier is built in (runs in the worker's process): its booking is a local activity */
  carrierInProcess?: boolean;
  /** what address resolution changed in the draft (each a history entry) */
  addressCorrections?: AddressCorrection[];
  /** the id of the workflow update processing it, written with the processing (absent in older plans) */
  processKey?: string;
}

/** A label the carrier made, kept as received (our label store serves it instead of rendering one). */
export interface CarrierLabel {
  content: Buffer;
  contentType: string;
}

/** What booking needs: the plan's carrier, shipment and draft (never credentials: the activity loads them by provider id). */
export interface BookingOrder {
  uuid: string;
  providerId: number;
  shipment: ShipmentSpec;
  serviceBarcode: string;
  draft: DraftInput;
  /** our consignment at the carrier: reference_no, or the service barcode */
  reference: string;
  labelFormat: LabelFormat;
}
