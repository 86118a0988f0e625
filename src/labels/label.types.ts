import type { PartyInput } from '../domain/draft';

/** One side of a shipment as it is printed on a label. */
export interface LabelParty {
  name: string;
  address: string;
  city: string;
  state?: string;
  postalCode?: string;
  /** ISO 3166-1 alpha-2, e.g. "TR". */
  countryIso2: string;
  phone?: string;
}

/** A draft's party as a label prints it. */
export function labelParty(p: PartyInput): LabelParty {
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

/** Everything a shipping label shows; the renderers (PDF, ZPL) take nothing else. */
export interface LabelData {
  /** Printed as Code128: the service barcode (API field `barcode`). */
  barcode: string;
  /** The carrier's tracking code. */
  trackingCode: string;
  /** Encoded in the QR code. */
  trackingUrl: string;
  referenceNo: string | null;
  carrierName: string;
  serviceName?: string;
  consignor: LabelParty;
  consignee: LabelParty;
  weightKg: number;
  desi: number;
  packageCount: number;
  createdAt: Date;
  /**
   * The barcode the carrier scans on each package, when it gives each its own: one page per piece, each
   * with its barcode (the first is `barcode`). Absent: one page for the consignment.
   */
  pieces?: string[];
  /** The routing text of the carrier's own label (destination branch, cross-dock, zone), printed among the details. */
  routing?: string;
}

/** One printed page: the consignment's data with the barcode of its piece, and which piece it is. */
export interface LabelPage extends LabelData {
  piece?: { number: number; of: number };
}

/**
 * The pages of a label: one per piece when the carrier scans each piece, else one. A single piece whose barcode is
 * not ours is still the carrier's to scan: its page prints that barcode.
 */
export function labelPages(data: LabelData): LabelPage[] {
  const pieces = data.pieces ?? [];
  if (pieces.length === 0 || (pieces.length === 1 && pieces[0] === data.barcode)) return [data];
  return pieces.map((barcode, i) => ({ ...data, barcode, piece: { number: i + 1, of: pieces.length } }));
}

/** The header's package count: "2/3 koli / pcs" on a piece's page, "3 koli / pcs" otherwise. */
export const packageCountText = (page: LabelPage) => `${page.piece ? `${page.piece.number}/${page.piece.of}` : page.packageCount} koli / pcs`;
