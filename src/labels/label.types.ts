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
}
