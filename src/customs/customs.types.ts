import type { LabelParty } from '../labels/label.types';

/** One side of an international consignment as the customs documents print it: the label's party and more. */
export interface CustomsParty extends LabelParty {
  email?: string;
  /** VKN / TCKN or the foreign equivalent; printed beside the party when present. */
  taxNumber?: string;
  /** EU Economic Operators Registration and Identification number, needed by EU customs for business imports. */
  eoriNumber?: string;
}

/** One line of contents. */
export interface CustomsItem {
  description: string;
  /** HS tariff number (GTIP in Turkey). */
  gtip: string | null;
  /** Country of origin, ISO 3166-1 alpha-2. */
  originIso2: string | null;
  quantity: number;
  /** Price of one unit, in `currency`. */
  unitPrice: number;
  /** ISO 4217, e.g. "EUR". */
  currency: string;
  /** Net weight of the whole line (all `quantity` units), see allocateItemWeights. */
  netWeightKg: number;
  /** Free text from the draft; matched against the CN22/CN23 categories (gift, documents, ...). */
  category: string | null;
}

/** Everything the customs documents show; the renderers take nothing else. */
export interface CustomsData {
  barcode: string | null;
  referenceNo: string | null;
  invoiceNumber: string | null;
  date: Date;
  sender: CustomsParty;
  receiver: CustomsParty;
  items: CustomsItem[];
  grossWeightKg: number;
  packageCount: number;
  /** e.g. "DAP", "DDP". */
  incoterms: string | null;
  carrierName: string | null;
}

export type CustomsDocumentKind = 'cn22' | 'cn23' | 'proforma';
