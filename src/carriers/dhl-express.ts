import { PDFDocument } from 'pdf-lib';
import { AccountCarrier, type AccountCarrierOptions } from './account-carrier';
import { DEFAULT_INCOTERMS_TYPE, INCOTERM_OF_TYPE } from '../domain/incoterms';
import type { DraftInput, ItemInput, PartyInput } from '../domain/draft';
import type { LabelFormat } from '../domain/label';
import type { OutboundResponse } from '../http/outbound';
import type { TrackingEventName } from '../domain/tracking';
import {
  CarrierInputError,
  CarrierRefusedError,
  type Booking,
  type BookingRequest,
  type CancelResult,
  type Carrier,
  type CarrierFieldIssue,
  type CarrierLabel,
  type FoundBooking,
  type Quote,
  type QuoteParties,
  type ShipmentRef,
  type ShipmentSpec,
  type TrackedShipment,
  type TrackingQuery,
  type TrackingEvent,
  type TrackingLimits,
} from './carrier';
import { carrierCallFault, checkCarrierAnswer } from './carrier-http';

/**
 * DHL Express through the MyDHL API (OpenAPI 3.1.1, `dpdhl-express-api-3.1.1_swagger.yaml`): rates
 * (`POST /rates`), shipments with their label (`POST /shipments`), tracking
 * (`GET /shipments/{shipmentTrackingNumber}/tracking`; a batch by `GET /tracking?shipmentTrackingNumber=…`), the
 * look-up of an earlier booking by its reference (`GET /tracking?shipmentReference=…`) and the cancellation of a
 * booked pickup (`DELETE /pickups/{dcn}`). HTTP Basic on every call, `x-version` required. The contract has no
 * shipment cancel and no label re-issue: see `cancel` and `findBooking`. docs/carriers.md, "DHL Express", says what
 * this means for consignments.
 */

export const DHL_EXPRESS_TEST_URL = 'https://express.api.dhl.com/mydhlapi/test';
export const DHL_EXPRESS_PRODUCTION_URL = 'https://express.api.dhl.com/mydhlapi';
/** DHL's public tracking page: what a customer can open (the API's own tracking URL needs the account's credentials). */
export const DHL_EXPRESS_TRACKING_PAGE = 'https://www.dhl.com/global-en/home/tracking/tracking-express.html?submit=1&tracking-id=';
/** The value-added service code of Paperless Trade (PLT). */
const PAPERLESS_TRADE = 'WY';
/** The header value the document fixes ("do not change"). */
const X_VERSION = '3.1.0';
/**
 * How far ahead of now the planned shipping time is set: the document advises against the current time ("it may be
 * evaluated as being in the past the time it is received"). Our choice; the document names no figure.
 */
const PLANNED_SHIPPING_LEAD_MS = 10 * 60_000;
/** How far back (and ahead) a look-up by reference searches: the document asks to restrict it by a date range. Our choice. */
const LOOKUP_DAYS_BACK = 30;
const LOOKUP_DAYS_AHEAD = 10;
/** `GET /tracking`'s `shipmentTrackingNumber`: "Supports up to 200 tracking numbers" (`maxItems: 200`, `explode: true`). */
const TRACKING_BATCH_SIZE = 200;
/** What both tracking calls ask for: every checkpoint, at shipment level. */
const TRACKING_VIEW = { trackingView: 'all-checkpoints', levelOfDetail: 'shipment' } as const;

export interface DhlExpressCredentials {
  username: string;
  password: string;
  account_number: string;
}

export interface DhlExpressSettings {
  base_url?: string;
  label_format?: LabelFormat;
  /** Paperless Trade: the account may send its invoice as an image with the booking (DHL enables it per account) */
  paperless_trade?: boolean;
  /** product codes: EXPRESS DOMESTIC `N` and EXPRESS WORLDWIDE `P` unless the account needs others */
  product_domestic?: string;
  product_international?: string;
  /** IANA time zone of the place the account ships from (default: the shipper country's zone, see timeZoneOf) */
  time_zone?: string;
  /** a DHL courier collects every shipment booked (default: none; the consignor hands parcels to DHL) */
  pickup?: { requested: boolean; close_time?: string; location?: string };
}

/** The contract's incoterm enum (EXW FCA CPT CIP DPU DAP DDP FAS FOB CFR CIF DAF DAT DDU DEQ DES) holds every rule of ours. */
export { INCOTERM_OF_TYPE };

/**
 * DHL Express checkpoint codes (the document's reference data `trackingEventCode`; the list as karrio keeps it,
 * `status_1.csv`) onto our tracking events. Codes not listed are informational (AD agreed delivery, BN broker
 * notified, RR response received, SC service changed, CS closed shipment, …). The table in docs/carriers.md is this one.
 */
export const EVENT_OF_CODE: Readonly<Record<string, TrackingEventName>> = {
  // DHL holds the parcel
  PU: 'PICKED_UP', // shipment pick up
  SA: 'PICKED_UP', // shipment acceptance (handed in at a DHL location)
  // moving
  PL: 'IN_TRANSIT', // processed at location
  DF: 'IN_TRANSIT', // depart facility
  AF: 'IN_TRANSIT', // arrived facility
  AR: 'IN_TRANSIT', // arrival in delivery facility
  CR: 'IN_TRANSIT', // clearance release
  BR: 'IN_TRANSIT', // broker release
  IC: 'IN_TRANSIT', // in clearance processing
  TR: 'IN_TRANSIT', // record of transfer
  FD: 'IN_TRANSIT', // forward destination
  TP: 'IN_TRANSIT', // forwarded to a 3rd party for delivery (no delivery details follow)
  // last step
  WC: 'OUT_FOR_DELIVERY', // with delivering courier
  CC: 'OUT_FOR_DELIVERY', // awaiting collection by the consignee
  // ends
  OK: 'DELIVERED', // delivery
  DD: 'DELIVERED', // delivered damaged: delivered all the same (damage is a claim, not a status)
  RT: 'RETURNED', // returned to consignor
  // something is wrong or waits for someone
  PD: 'EXCEPTION', // partial delivery: some pieces are still out
  BA: 'EXCEPTION', // bad address
  RD: 'EXCEPTION', // refused delivery
  ND: 'EXCEPTION', // not delivered
  NH: 'EXCEPTION', // not home
  CA: 'EXCEPTION', // closed on arrival
  CM: 'EXCEPTION', // customer moved
  MD: 'EXCEPTION', // missed delivery cycle
  OH: 'EXCEPTION', // on hold
  HP: 'EXCEPTION', // held for payment
  CD: 'EXCEPTION', // controllable clearance delay
  UD: 'EXCEPTION', // uncontrollable clearance delay
  MS: 'EXCEPTION', // mis-sort
  MC: 'EXCEPTION', // miscode
  SS: 'EXCEPTION', // shipment stopped
  DS: 'EXCEPTION', // destroyed / disposal
};

interface ErrorBody {
  title?: string;
  detail?: string;
  message?: string;
  additionalDetails?: string[];
}

// ---------------------------------------------------------------------------------------------------------------
// Time: plannedShippingDateAndTime is the origin's local time with its offset
// ---------------------------------------------------------------------------------------------------------------

/**
 * The zone of a country with one (and, for the few with several, the zone most of its people live in: an account
 * shipping from elsewhere sets `time_zone`). A country not listed counts as UTC.
 */
const COUNTRY_TIME_ZONES: Readonly<Record<string, string>> = {
  TR: 'Europe/Istanbul',
  DE: 'Europe/Berlin',
  GB: 'Europe/London',
  FR: 'Europe/Paris',
  NL: 'Europe/Amsterdam',
  BE: 'Europe/Brussels',
  LU: 'Europe/Luxembourg',
  IT: 'Europe/Rome',
  AT: 'Europe/Vienna',
  CH: 'Europe/Zurich',
  PL: 'Europe/Warsaw',
  CZ: 'Europe/Prague',
  SK: 'Europe/Bratislava',
  HU: 'Europe/Budapest',
  RO: 'Europe/Bucharest',
  BG: 'Europe/Sofia',
  GR: 'Europe/Athens',
  CY: 'Asia/Nicosia',
  MT: 'Europe/Malta',
  SI: 'Europe/Ljubljana',
  HR: 'Europe/Zagreb',
  RS: 'Europe/Belgrade',
  BA: 'Europe/Sarajevo',
  ME: 'Europe/Podgorica',
  MK: 'Europe/Skopje',
  AL: 'Europe/Tirane',
  SE: 'Europe/Stockholm',
  NO: 'Europe/Oslo',
  DK: 'Europe/Copenhagen',
  FI: 'Europe/Helsinki',
  IS: 'Atlantic/Reykjavik',
  IE: 'Europe/Dublin',
  EE: 'Europe/Tallinn',
  LV: 'Europe/Riga',
  LT: 'Europe/Vilnius',
  UA: 'Europe/Kyiv',
  MD: 'Europe/Chisinau',
  BY: 'Europe/Minsk',
  GE: 'Asia/Tbilisi',
  AM: 'Asia/Yerevan',
  AZ: 'Asia/Baku',
  IL: 'Asia/Jerusalem',
  JO: 'Asia/Amman',
  LB: 'Asia/Beirut',
  IQ: 'Asia/Baghdad',
  IR: 'Asia/Tehran',
  SA: 'Asia/Riyadh',
  AE: 'Asia/Dubai',
  QA: 'Asia/Qatar',
  KW: 'Asia/Kuwait',
  BH: 'Asia/Bahrain',
  OM: 'Asia/Muscat',
  EG: 'Africa/Cairo',
  MA: 'Africa/Casablanca',
  TN: 'Africa/Tunis',
  DZ: 'Africa/Algiers',
  ZA: 'Africa/Johannesburg',
  NG: 'Africa/Lagos',
  KE: 'Africa/Nairobi',
  IN: 'Asia/Kolkata',
  PK: 'Asia/Karachi',
  BD: 'Asia/Dhaka',
  LK: 'Asia/Colombo',
  CN: 'Asia/Shanghai',
  HK: 'Asia/Hong_Kong',
  TW: 'Asia/Taipei',
  JP: 'Asia/Tokyo',
  KR: 'Asia/Seoul',
  SG: 'Asia/Singapore',
  MY: 'Asia/Kuala_Lumpur',
  TH: 'Asia/Bangkok',
  VN: 'Asia/Ho_Chi_Minh',
  PH: 'Asia/Manila',
  UZ: 'Asia/Tashkent',
  AR: 'America/Argentina/Buenos_Aires',
  CO: 'America/Bogota',
  PE: 'America/Lima',
  UY: 'America/Montevideo',
  // several zones: the most populous one
  US: 'America/New_York',
  CA: 'America/Toronto',
  MX: 'America/Mexico_City',
  BR: 'America/Sao_Paulo',
  AU: 'Australia/Sydney',
  RU: 'Europe/Moscow',
  ID: 'Asia/Jakarta',
  KZ: 'Asia/Almaty',
  CL: 'America/Santiago',
  NZ: 'Pacific/Auckland',
  ES: 'Europe/Madrid',
  PT: 'Europe/Lisbon',
};

/** True when Intl knows the IANA zone (what the account setting `time_zone` must be). */
export function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** The zone the shipper's local time is read in: the account's `time_zone`, else the country's, else UTC. */
export function timeZoneOf(country: string, settings: Pick<DhlExpressSettings, 'time_zone'> = {}): string {
  if (settings.time_zone && isTimeZone(settings.time_zone)) return settings.time_zone;
  return COUNTRY_TIME_ZONES[country.trim().toUpperCase()] ?? 'UTC';
}

/** `at` as the wall clock of `timeZone`: its date, time and offset (`+03:00`). */
function localParts(at: Date, timeZone: string) {
  const parts: Record<string, string> = {};
  const format = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    timeZoneName: 'longOffset',
  });
  for (const p of format.formatToParts(at)) parts[p.type] = p.value;
  // `GMT` alone for a zero offset, else `GMT+03:00` / `GMT-04:30`.
  const offset = parts.timeZoneName === 'GMT' ? '+00:00' : parts.timeZoneName.slice(3);
  return { date: `${parts.year}-${parts.month}-${parts.day}`, time: `${parts.hour}:${parts.minute}:${parts.second}`, offset };
}

/** `YYYY-MM-DDTHH:MM:SS GMT±hh:mm` in `timeZone` (default UTC), the timestamp format the document requires. */
export function dhlTimestamp(at: Date, timeZone = 'UTC'): string {
  const { date, time, offset } = localParts(at, timeZone);
  return `${date}T${time} GMT${offset}`;
}

/** An event's instant: its local date and time with its `GMTOffset` (`+04:00`); without an offset the time is read as UTC. */
export function eventInstant(date: string | undefined, time: string | undefined, gmtOffset: string | undefined): Date | undefined {
  if (!date || !/^\d{4}-\d{2}-\d{2}$/.test(date)) return undefined;
  const clock = /^\d{2}:\d{2}(:\d{2})?$/.test(time ?? '') ? (time!.length === 5 ? `${time}:00` : time!) : '00:00:00';
  const offset = /^[+-]\d{2}:?\d{2}$/.test(gmtOffset ?? '') ? gmtOffset!.replace(/^([+-]\d{2})(\d{2})$/, '$1:$2') : 'Z';
  const at = new Date(`${date}T${clock}${offset}`);
  return Number.isNaN(at.getTime()) ? undefined : at;
}

const addDays = (isoDate: string, days: number) => {
  const d = new Date(`${isoDate}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
};

// ---------------------------------------------------------------------------------------------------------------
// Our data against the contract's rules (lengths, steps): cut where harmless, refused (CarrierInputError) otherwise
// ---------------------------------------------------------------------------------------------------------------

/** The contract's lengths (supermodelIoLogisticsExpressAddressCreateShipmentRequest, …Contact, …Reference, content). */
export const DHL_LIMITS = {
  postalCode: 12,
  cityName: 45,
  addressLine: 45,
  countyName: 45,
  provinceCode: 35,
  email: 70,
  phone: 70,
  companyName: 100,
  fullName: 255,
  description: 70,
  lineItemDescription: 512,
  invoiceNumber: 35,
  reference: 35,
  commodityCode: 18,
} as const;

/**
 * Countries whose addresses carry a state or province code (provinceCode). The document only says "Please enter your
 * province or state code"; the list is ours. DHL validates US and Canadian addresses by their state, so a party there
 * without one is refused before the call; elsewhere the code is sent when the party has one.
 */
export const PROVINCE_COUNTRIES: ReadonlySet<string> = new Set(['US', 'CA', 'AU', 'BR', 'CN', 'IN', 'MX', 'IT']);
const PROVINCE_REQUIRED: ReadonlySet<string> = new Set(['US', 'CA']);

/** A weight or measure in the contract's steps of 0.001 (`multipleOf: 0.001`), at least 0.001. */
export const thousandths = (n: number) => Math.max(0.001, Math.round(n * 1000) / 1000);
const money = (n: number) => Math.round(n * 1000) / 1000;

/** An address cut on word boundaries into the contract's lines of at most 45 characters, or undefined when it does not fit three. */
export function addressLines(address: string): string[] | undefined {
  const words = address.trim().split(/\s+/).filter(Boolean);
  const lines: string[] = [];
  for (const word of words) {
    if (word.length > DHL_LIMITS.addressLine) return undefined;
    const last = lines.at(-1);
    if (last !== undefined && `${last} ${word}`.length <= DHL_LIMITS.addressLine) lines[lines.length - 1] = `${last} ${word}`;
    else lines.push(word);
  }
  return lines.length === 0 || lines.length > 3 ? undefined : lines;
}

const text = (v: string | null | undefined) => (v ?? '').trim();

/** Collects every field our data breaks, so one refusal names them all. */
class Issues {
  readonly list: CarrierFieldIssue[] = [];
  add(field: string, reason: string) {
    this.list.push({ field, reason });
  }
  /** a required text of at most `max` characters (cutting it would change what it says) */
  text(field: string, value: string, max: number, required = true): string {
    if (required && !value) this.add(field, 'DHL Express needs it');
    else if (value.length > max) this.add(field, `DHL Express takes at most ${max} characters`);
    return value;
  }
  throwIfAny(carrierId: number) {
    if (this.list.length) throw new CarrierInputError(carrierId, this.list);
  }
}

/** The state or province code DHL wants for the party's country, from `state_code` (or a code-like `state`); never empty. */
function provinceCode(p: PartyInput, role: string, issues: Issues): string | undefined {
  const country = text(p.country).toUpperCase();
  if (!PROVINCE_COUNTRIES.has(country)) return undefined;
  const fromCode = text(p.state_code);
  const fromState = text(p.state);
  const code = fromCode || (/^[A-Za-z0-9-]{2,6}$/.test(fromState) ? fromState : '');
  if (!code) {
    if (PROVINCE_REQUIRED.has(country)) issues.add(`${role}.state_code`, `DHL Express needs the state or province code for ${country} addresses`);
    return undefined;
  }
  const field = fromCode ? `${role}.state_code` : `${role}.state`;
  if (code.length < 2 || code.length > DHL_LIMITS.provinceCode) {
    issues.add(field, `DHL Express takes a state or province code of 2 to ${DHL_LIMITS.provinceCode} characters`);
    return undefined;
  }
  return code.toUpperCase();
}

/** A party as `customerDetails.*Details` of a shipment. */
function party(p: PartyInput, role: string, issues: Issues) {
  const lines = addressLines(text(p.address));
  if (!lines) issues.add(`${role}.address`, `does not fit DHL Express's three address lines of ${DHL_LIMITS.addressLine} characters (split on spaces)`);
  const [addressLine1, addressLine2, addressLine3] = lines ?? [''];
  const province = provinceCode(p, role, issues);
  const state = text(p.state);
  const name = issues.text(`${role}.name`, text(p.name), DHL_LIMITS.companyName);
  const attention = text(p.attention_name);
  const fullName = attention ? issues.text(`${role}.attention_name`, attention, DHL_LIMITS.fullName) : name;
  const email = issues.text(`${role}.email`, text(p.email), DHL_LIMITS.email, false);
  return {
    postalAddress: {
      postalCode: issues.text(`${role}.postal_code`, text(p.postal_code), DHL_LIMITS.postalCode, false),
      cityName: issues.text(`${role}.city`, text(p.city), DHL_LIMITS.cityName),
      countryCode: issues.text(`${role}.country`, text(p.country).toUpperCase(), 2),
      ...(province ? { provinceCode: province } : {}),
      addressLine1,
      ...(addressLine2 ? { addressLine2 } : {}),
      ...(addressLine3 ? { addressLine3 } : {}),
      // The state as the county (a label line, cut where it is longer), unless it is the province code already.
      ...(state && state.toUpperCase() !== province ? { countyName: state.slice(0, DHL_LIMITS.countyName) } : {}),
    },
    contactInformation: {
      phone: issues.text(`${role}.phone_number`, text(p.phone_number), DHL_LIMITS.phone),
      companyName: name,
      fullName,
      ...(email ? { email } : {}),
    },
  };
}

/** A party as the address of a rate request (no lines or contact needed). */
function rateParty(p: PartyInput, country: string, role: string, issues: Issues) {
  const province = provinceCode({ ...p, country }, role, issues);
  return {
    postalCode: issues.text(`${role}.postal_code`, text(p.postal_code), DHL_LIMITS.postalCode, false),
    cityName: issues.text(`${role}.city`, text(p.city), DHL_LIMITS.cityName),
    countryCode: country.trim().toUpperCase(),
    ...(province ? { provinceCode: province } : {}),
  };
}

/** Dimensions when all three are known, in the contract's steps. */
function dimensions(length?: number | null, width?: number | null, height?: number | null) {
  return length && width && height && length > 0 && width > 0 && height > 0
    ? { dimensions: { length: thousandths(length), width: thousandths(width), height: thousandths(height) } }
    : {};
}

/** The product a shipment is booked (and rated) with: EXPRESS WORLDWIDE `P` abroad, EXPRESS DOMESTIC `N` at home, unless the account says otherwise. */
export const productCodeFor = (international: boolean, settings: DhlExpressSettings) =>
  international ? (settings.product_international ?? 'P') : (settings.product_domestic ?? 'N');

/** The reference every booking of a consignment carries (shipment `customerReferences`, type CU): what findBooking looks for. */
export const sentKeyOf = (bookingKey: string) => bookingKey.replace(/-/g, '').slice(0, DHL_LIMITS.reference);

/**
 * The create-shipment body of the contract for one of our drafts. Throws CarrierInputError naming every draft field
 * the contract's rules refuse (before anything is sent).
 */
export function shipmentRequest(req: BookingRequest, ctx: { carrierId: number; accountNumber: string; settings: DhlExpressSettings; now: Date }) {
  const draft: DraftInput = req.draft;
  const issues = new Issues();
  const international = req.shipment.fromCountry !== req.shipment.toCountry;
  const incoterm = INCOTERM_OF_TYPE[draft.incoterms_type ?? DEFAULT_INCOTERMS_TYPE];
  if (!incoterm) throw new CarrierRefusedError(ctx.carrierId, `incoterms_type ${draft.incoterms_type} has no DHL Express incoterm`);
  const zone = timeZoneOf(req.shipment.fromCountry, ctx.settings);
  const planned = new Date(ctx.now.getTime() + PLANNED_SHIPPING_LEAD_MS);
  const packages = draft.packages ?? [];
  if (packages.length === 0) issues.add('packages', 'DHL Express needs at least one package');
  const items: { item: ItemInput; weight: number; at: string }[] = packages.flatMap((p, i) =>
    (p.items ?? []).map((item, j, all) => ({ item, weight: (p.weight ?? 0) / all.length, at: `packages.${i}.items.${j}` })),
  );
  const declaredValue = items.reduce((sum, { item }) => sum + (item.unit_price ?? 0) * (item.quantity ?? 1), 0);
  const currency = items.find(({ item }) => item.currency_code)?.item.currency_code ?? 'TRY';
  // A description is a label line: cut where it is longer (and never starting with a space, `^[^\s]`).
  const description = (
    items
      .map(({ item }) => text(item.description))
      .filter(Boolean)
      .join(', ') || 'Goods'
  )
    .slice(0, DHL_LIMITS.description)
    .trim();
  const invoiceNumber = issues.text('invoice_number', text(draft.invoice_number), DHL_LIMITS.invoiceNumber, false);
  const pickup = ctx.settings.pickup?.requested
    ? {
        isRequested: true,
        ...(ctx.settings.pickup.close_time ? { closeTime: ctx.settings.pickup.close_time } : {}),
        ...(ctx.settings.pickup.location ? { location: ctx.settings.pickup.location.slice(0, 80) } : {}),
      }
    : { isRequested: false };
  const shipper = party(draft.consignor ?? {}, 'consignor', issues);
  const receiver = party(draft.consignee ?? {}, 'consignee', issues);
  const pieces = packages.map((p, i) => {
    if (!((p.weight ?? 0) > 0)) issues.add(`packages.${i}.weight`, 'DHL Express needs a weight above 0');
    return {
      weight: thousandths(p.weight ?? 0),
      ...dimensions(p.length, p.width, p.height),
      // Our reference on every piece (label text); cut where longer, it only helps people find the parcel.
      ...(req.reference.trim() ? { customerReferences: [{ value: req.reference.trim().slice(0, DHL_LIMITS.reference), typeCode: 'CU' }] } : {}),
    };
  });
  for (const { item, at } of items) {
    if (item.gtip && text(item.gtip).length > DHL_LIMITS.commodityCode)
      issues.add(`${at}.gtip`, `DHL Express takes a commodity code of at most ${DHL_LIMITS.commodityCode} characters`);
  }
  issues.throwIfAny(ctx.carrierId);
  return {
    plannedShippingDateAndTime: dhlTimestamp(planned, zone),
    pickup,
    // The answer then carries the charges, which become the consignment's cost.
    getRateEstimates: true,
    productCode: productCodeFor(international, ctx.settings),
    accounts: [{ typeCode: 'shipper', number: ctx.accountNumber }],
    // The account's label format wins: a printer that takes only ZPL gets ZPL whatever the request asked.
    // The waybill document ("isRequested: true then the document is provided") is printed after the labels.
    outputImageProperties: {
      encodingFormat: ctx.settings.label_format ?? req.labelFormat,
      imageOptions: [{ typeCode: 'label' }, { typeCode: 'waybillDoc', isRequested: true }],
    },
    // Our key for this booking: what findBooking asks tracking for after a lost answer.
    customerReferences: [{ value: sentKeyOf(req.bookingKey), typeCode: 'CU' }],
    customerDetails: { shipperDetails: shipper, receiverDetails: receiver },
    content: {
      packages: pieces,
      isCustomsDeclarable: international,
      ...(international ? { declaredValue: money(declaredValue), declaredValueCurrency: currency } : {}),
      description,
      incoterm,
      unitOfMeasurement: 'metric',
      ...(international
        ? {
            exportDeclaration: {
              lineItems: items.map(({ item, weight }, i) => ({
                number: i + 1,
                description: (text(item.description) || 'Goods').slice(0, DHL_LIMITS.lineItemDescription),
                price: money(item.unit_price ?? 0),
                quantity: { value: Math.max(1, Math.round(item.quantity ?? 1)), unitOfMeasurement: 'PCS' },
                ...(item.gtip ? { commodityCodes: [{ typeCode: 'outbound', value: text(item.gtip) }] } : {}),
                manufacturerCountry: item.origin ?? req.shipment.fromCountry,
                weight: { netValue: money(weight), grossValue: money(weight) },
              })),
              // Dated the day it is issued, in the shipper's calendar.
              ...(invoiceNumber ? { invoice: { number: invoiceNumber, date: localParts(ctx.now, zone).date } } : {}),
            },
          }
        : {}),
    },
  };
}

/** Paperless Trade: service WY and the proforma invoice (PNV) as a PDF image; DHL then needs no paper invoice. */
export function withPaperlessTrade<B extends object>(
  body: B,
  proforma: Buffer,
): B & { valueAddedServices: { serviceCode: string }[]; documentImages: { typeCode: string; imageFormat: string; content: string }[] } {
  return {
    ...body,
    valueAddedServices: [{ serviceCode: PAPERLESS_TRADE }],
    documentImages: [{ typeCode: 'PNV', imageFormat: 'PDF', content: proforma.toString('base64') }],
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Documents: every label document kept, in piece order, then the waybill document
// ---------------------------------------------------------------------------------------------------------------

export interface DhlDocument {
  imageFormat?: string;
  content?: string;
  typeCode?: string;
  packageReferenceNumber?: number;
}

const isZpl = (format: string | undefined) => /zpl/i.test(format ?? '');

/** PDFs one after the other, every page of each (a single one is kept as received). */
export async function concatPdfs(parts: Buffer[]): Promise<Buffer> {
  if (parts.length === 1) return parts[0];
  const out = await PDFDocument.create();
  for (const part of parts) {
    const doc = await PDFDocument.load(part, { ignoreEncryption: true });
    for (const page of await out.copyPages(doc, doc.getPageIndices())) out.addPage(page);
  }
  return Buffer.from(await out.save());
}

/**
 * The one carrier label of a shipment: every `label` document (DHL may answer one per piece, each with its
 * `packageReferenceNumber`) in piece order, then the `waybillDoc` document(s) when in the same format. PDF pages are
 * merged into one document; ZPL labels are concatenated. Undefined when there is no label.
 */
export async function labelOf(documents: DhlDocument[]): Promise<CarrierLabel | undefined> {
  const withContent = documents.map((d, i) => ({ d, i })).filter(({ d }) => d.content);
  const labels = withContent
    .filter(({ d }) => d.typeCode === 'label')
    .sort((a, b) => (a.d.packageReferenceNumber ?? Number.MAX_SAFE_INTEGER) - (b.d.packageReferenceNumber ?? Number.MAX_SAFE_INTEGER) || a.i - b.i)
    .map(({ d }) => d);
  if (labels.length === 0) return undefined;
  const zpl = isZpl(labels[0].imageFormat);
  const parts = [...labels, ...withContent.filter(({ d }) => d.typeCode === 'waybillDoc').map(({ d }) => d)]
    .filter((d) => isZpl(d.imageFormat) === zpl)
    .map((d) => Buffer.from(d.content!, 'base64'));
  if (zpl) return { content: Buffer.from(parts.map((p) => p.toString('utf8').replace(/\s*$/, '\n')).join('')), contentType: 'application/zpl' };
  try {
    return { content: await concatPdfs(parts), contentType: 'application/pdf' };
  } catch {
    // DHL booked already: a PDF we cannot merge must not fail the booking (a retry would book again). The first
    // label document is kept as received.
    return { content: parts[0], contentType: 'application/pdf' };
  }
}

// ---------------------------------------------------------------------------------------------------------------
// The carrier
// ---------------------------------------------------------------------------------------------------------------

interface TrackedShipmentBody {
  shipmentTrackingNumber?: string;
  events?: { date?: string; time?: string; GMTOffset?: string; typeCode?: string; description?: string; serviceArea?: { description?: string }[] }[];
}

export type DhlExpressCarrierOptions = AccountCarrierOptions<DhlExpressCredentials, DhlExpressSettings>;

export class DhlExpressCarrier extends AccountCarrier<DhlExpressCredentials, DhlExpressSettings> implements Carrier {
  readonly kind = 'dhl_express';
  /** No shipment cancel in the contract: once DHL holds the parcel, cancelling is DHL customer service's business. */
  readonly supportsCancelInTransit = false;
  readonly supportsPush = false;
  readonly supportsQuotes = true;
  readonly trackingLimits: TrackingLimits = {
    batchSize: TRACKING_BATCH_SIZE,
    // The document states no rate limit, cache or polling interval for tracking (and defines no 429 answer): 0.
    minReaskMs: 0,
  };
  constructor(options: DhlExpressCarrierOptions) {
    super(options, options.settings.base_url ?? DHL_EXPRESS_TEST_URL);
  }

  /**
   * The price `POST /rates` gives for the product booking would use (the account's domestic or international
   * product code), in the account's billing currency, for one package per piece with its dimensions (DHL charges
   * the volumetric weight where it is greater). Null when DHL answers without that product (not offered on the route
   * or date). DHL's refusal (400: account, route; 422: our data) is thrown as a CarrierRefusedError with DHL's detail,
   * so whoever asked keeps the reason (cheapest/fastest leaves the account out and notes it); our data breaking the
   * contract's rules is a CarrierInputError, before any call.
   */
  async quote(spec: ShipmentSpec, parties: QuoteParties = { from: {}, to: {} }): Promise<Quote | null> {
    const international = spec.fromCountry !== spec.toCountry;
    const issues = new Issues();
    const shipperDetails = rateParty(parties.from, spec.fromCountry, 'consignor', issues);
    const receiverDetails = rateParty(parties.to, spec.toCountry, 'consignee', issues);
    issues.throwIfAny(this.id);
    const pieces = spec.packages?.length
      ? spec.packages.map((p) => ({ weight: thousandths(p.weightKg), ...dimensions(p.lengthCm, p.widthCm, p.heightCm) }))
      : [{ weight: thousandths(spec.weightKg) }];
    const productCode = productCodeFor(international, this.options.settings);
    const res = await this.call<{
      products?: {
        productCode?: string;
        productName?: string;
        totalPrice?: { currencyType?: string; priceCurrency?: string; price?: number }[];
        deliveryCapabilities?: { totalTransitDays?: number };
      }[];
    }>('POST', '/rates', {
      customerDetails: { shipperDetails, receiverDetails },
      accounts: [{ typeCode: 'shipper', number: this.options.credentials.account_number }],
      plannedShippingDateAndTime: dhlTimestamp(new Date(this.now().getTime() + PLANNED_SHIPPING_LEAD_MS), timeZoneOf(spec.fromCountry, this.options.settings)),
      unitOfMeasurement: 'metric',
      isCustomsDeclarable: international,
      packages: pieces,
    });
    if (res.status !== 200) throw new CarrierRefusedError(this.id, reasonOf(res));
    const product = res.body?.products?.find((p) => p.productCode === productCode);
    const price = product?.totalPrice?.find((t) => t.currencyType === 'BILLC') ?? product?.totalPrice?.[0];
    if (!product || price?.price === undefined) return null;
    return {
      providerId: this.id,
      baseCost: price.price,
      currency: price.priceCurrency ?? 'EUR',
      transitDays: product.deliveryCapabilities?.totalTransitDays ?? 0,
      serviceName: product.productName ?? 'DHL Express',
    };
  }

  /** Our reference of the booking, sent as the shipment's `CU` customer reference (at most 35 characters). */
  sentKey(req: BookingRequest): string {
    return sentKeyOf(req.bookingKey);
  }

  /**
   * Not idempotent at DHL: a create whose answer was lost (a dropped connection, a 5xx after DHL booked) leaves a
   * shipment behind. The booking activity records its intent first and asks findBooking on any later try.
   */
  async book(req: BookingRequest): Promise<Booking> {
    const international = req.shipment.fromCountry !== req.shipment.toCountry;
    // Checked (and refused) before anything is made or sent.
    const body = shipmentRequest(req, {
      carrierId: this.id,
      accountNumber: this.options.credentials.account_number,
      settings: this.options.settings,
      now: this.now(),
    });
    const proforma = international && this.options.settings.paperless_trade ? await req.customsDocument?.('proforma') : undefined;
    const res = await this.call<{
      shipmentTrackingNumber?: string;
      dispatchConfirmationNumber?: string;
      documents?: DhlDocument[];
      packages?: { trackingNumber?: string }[];
      shipmentCharges?: { currencyType?: string; priceCurrency?: string; price?: number }[];
    }>('POST', '/shipments', proforma ? withPaperlessTrade(body, proforma) : body, {
      // The contract's own correlation header: a retried booking is recognisable in DHL's logs.
      'message-reference': req.bookingKey.replace(/-/g, '').slice(0, 36),
    });
    if (res.status !== 201 && res.status !== 200) throw new CarrierRefusedError(this.id, reasonOf(res));
    const awb = res.body?.shipmentTrackingNumber;
    const label = await labelOf(res.body?.documents ?? []);
    if (!awb || !label) throw new CarrierRefusedError(this.id, 'DHL Express answered without a waybill number or label');
    const charge = res.body?.shipmentCharges?.find((c) => c.currencyType === 'BILLC') ?? res.body?.shipmentCharges?.[0];
    const dcn = body.pickup.isRequested ? res.body?.dispatchConfirmationNumber : undefined;
    return {
      trackingCode: awb,
      trackingUrl: `${DHL_EXPRESS_TRACKING_PAGE}${encodeURIComponent(awb)}`,
      pickupBooked: dcn !== undefined,
      bookedAt: this.now(),
      cost: {
        providerId: this.id,
        baseCost: charge?.price ?? 0,
        currency: charge?.priceCurrency ?? 'TRY',
        transitDays: 0,
        serviceName: `DHL Express ${body.productCode}`,
      },
      // The pickup's dispatch confirmation number when a courier was booked (cancel cancels it); the waybill otherwise.
      carrierReference: dcn ?? awb,
      label,
    };
  }

  /**
   * `GET /tracking` by our reference (type CU) under the account, within a date range (the document asks for one
   * when tracking by reference). DHL's API re-issues no label of an earlier shipment (get-image gives only the waybill
   * document and invoices), so a shipment found is unusable: the activity books anew and keeps it as unused. 404:
   * nothing was booked. DHL refusing the look-up (400, credentials) is `unknown`, and booking goes on.
   */
  async findBooking(req: BookingRequest): Promise<FoundBooking> {
    const today = localParts(this.now(), timeZoneOf(req.shipment.fromCountry, this.options.settings)).date;
    const query = new URLSearchParams({
      shipmentReference: this.sentKey(req),
      shipmentReferenceType: 'CU',
      shipperAccountNumber: this.options.credentials.account_number,
      dateRangeFrom: addDays(today, -LOOKUP_DAYS_BACK),
      dateRangeTo: addDays(today, LOOKUP_DAYS_AHEAD),
      trackingView: 'shipment-details-only',
      levelOfDetail: 'shipment',
    });
    let res: OutboundResponse<({ shipments?: TrackedShipmentBody[] } & ErrorBody) | null>;
    try {
      res = await this.call<{ shipments?: TrackedShipmentBody[] }>('GET', `/tracking?${query}`);
    } catch (error) {
      if (error instanceof CarrierRefusedError) return { state: 'unknown', reason: error.reason };
      throw error;
    }
    if (res.status === 404) return { state: 'none' };
    if (res.status !== 200) return { state: 'unknown', reason: reasonOf(res) };
    const awbs = [...new Set((res.body?.shipments ?? []).map((s) => s.shipmentTrackingNumber).filter((n): n is string => typeof n === 'string' && n !== ''))];
    if (awbs.length === 0) return { state: 'none' };
    return {
      state: 'unusable',
      trackingCodes: awbs,
      reason:
        'DHL Express cannot hand out the label of an earlier shipment again (its API re-issues only waybill and invoice images); the unused waybill is not billed unless DHL carries it',
    };
  }

  /**
   * The MyDHL API has no shipment cancel or void operation; it cancels pickups. A booking that requested a pickup
   * (its carrierReference is the dispatch confirmation number) cancels it with `DELETE /pickups/{dcn}`; DHL's
   * refusal (already cancelled or completed, not found) is passed on. Without a pickup, before DHL holds the parcel
   * the label is voided on our side and the unused waybill lapses (DHL bills only what it carries); once in transit,
   * cancelling is refused with that reason.
   */
  async cancel(req: ShipmentRef & { inTransit: boolean }): Promise<CancelResult> {
    if (req.inTransit) return { accepted: false, reason: 'DHL Express offers no cancellation once it holds the parcel; contact DHL Express customer service' };
    const dcn = req.carrierReference && req.carrierReference !== req.trackingCode ? req.carrierReference : undefined;
    if (!dcn) return { accepted: true };
    const query = new URLSearchParams({
      requestorName: this.name.slice(0, 100) || 'consignflow',
      reason: `consignment cancelled (waybill ${req.trackingCode})`,
    });
    try {
      const res = await this.call('DELETE', `/pickups/${encodeURIComponent(dcn)}?${query}`);
      if (res.status === 200 || res.status === 204) return { accepted: true };
      return { accepted: false, reason: `DHL Express did not cancel pickup ${dcn}: ${reasonOf(res)}` };
    } catch (error) {
      if (error instanceof CarrierRefusedError) return { accepted: false, reason: error.reason };
      throw error;
    }
  }

  /**
   * The shipment's checkpoints (by its waybill), each at its own place's offset (`requestGMTOffsetPerEvent`), in
   * time order. Codes that move a consignment are mapped (EVENT_OF_CODE); the others are left out. Event ids are
   * the waybill, code and local time DHL gives, so they stay the same from one poll to the next.
   */
  async track(shipment: ShipmentRef): Promise<TrackingEvent[]> {
    const awb = shipment.trackingCode;
    const query = new URLSearchParams({ ...TRACKING_VIEW, requestGMTOffsetPerEvent: 'true' });
    const res = await this.call<{ shipments?: TrackedShipmentBody[] }>('GET', `/shipments/${encodeURIComponent(awb)}/tracking?${query}`);
    if (res.status === 404) return [];
    if (res.status !== 200) throw new CarrierRefusedError(this.id, reasonOf(res));
    return this.eventsOf(awb, res.body?.shipments?.[0]?.events);
  }

  /**
   * `GET /tracking` naming up to 200 waybills (more are split into several calls), with the view `track` asks for. A
   * 404 means none of them is known yet; a waybill missing from the answer is not known yet either: both answer no
   * events. The operation has no `requestGMTOffsetPerEvent` (only the single-shipment one has), so a shipment whose
   * mapped checkpoints come back without their offset is asked again with `track` (read as UTC they would be hours
   * off) — unless its checkpoints are the ones we know already (as many, the newest among them: ids hold DHL's local
   * time, not the offset, so they are the same in both answers; DHL adds checkpoints, it does not replace them): then
   * nothing changed, and it answers no events. A refusal of that one call
   * answers for that shipment only.
   */
  async trackMany(shipments: TrackingQuery[]): Promise<TrackedShipment[]> {
    const answered = new Map<string, TrackedShipmentBody>();
    const awbs = [...new Set(shipments.map((s) => s.trackingCode))];
    for (let from = 0; from < awbs.length; from += TRACKING_BATCH_SIZE) {
      const query = new URLSearchParams(awbs.slice(from, from + TRACKING_BATCH_SIZE).map((awb): [string, string] => ['shipmentTrackingNumber', awb]));
      for (const [name, value] of Object.entries(TRACKING_VIEW)) query.append(name, value);
      const res = await this.call<{ shipments?: TrackedShipmentBody[] }>('GET', `/tracking?${query}`);
      if (res.status === 404) continue;
      if (res.status !== 200) throw new CarrierRefusedError(this.id, reasonOf(res));
      for (const s of res.body?.shipments ?? []) if (s.shipmentTrackingNumber !== undefined) answered.set(String(s.shipmentTrackingNumber), s);
    }
    const out: TrackedShipment[] = [];
    // One after the other: the re-asks are part of one batch, not a burst against DHL's limits.
    for (const shipment of shipments) {
      const checkpoints = answered.get(shipment.trackingCode)?.events ?? [];
      if (!checkpoints.some((e) => e.typeCode && EVENT_OF_CODE[e.typeCode] && !e.GMTOffset)) {
        out.push({ shipment, events: this.eventsOf(shipment.trackingCode, checkpoints) });
        continue;
      }
      const known = shipment.known;
      const listed = this.checkpointEvents(shipment.trackingCode, checkpoints);
      if (known && listed.length === known.count && listed.some((e) => e.eventId === known.newestEventId)) {
        out.push({ shipment, events: [] });
        continue;
      }
      try {
        out.push({ shipment, events: await this.track(shipment) });
      } catch (error) {
        if (!(error instanceof CarrierRefusedError)) throw error;
        out.push({ shipment, error: error.reason });
      }
    }
    return out;
  }

  /** A shipment's checkpoints as our events: the mapped codes only, each at its own offset, in time order. */
  private eventsOf(awb: string, checkpoints: TrackedShipmentBody['events']): TrackingEvent[] {
    return this.checkpointEvents(awb, checkpoints)
      .map((e, order) => ({ ...e, order }))
      .sort((a, b) => a.occurredAt.getTime() - b.occurredAt.getTime() || a.order - b.order)
      .map(({ order: _order, ...e }) => e);
  }

  /** The mapped checkpoints as our events, in the order DHL lists them; ids of repeated checkpoints numbered (#2, #3, …). */
  private checkpointEvents(awb: string, checkpoints: TrackedShipmentBody['events']): TrackingEvent[] {
    const seen = new Map<string, number>();
    const events: TrackingEvent[] = [];
    for (const e of checkpoints ?? []) {
      const event = e.typeCode ? EVENT_OF_CODE[e.typeCode] : undefined;
      if (!event) continue;
      const base = `${awb}:${e.typeCode}:${e.date}T${e.time}`;
      const n = (seen.get(base) ?? 0) + 1;
      seen.set(base, n);
      events.push({
        eventId: n === 1 ? base : `${base}#${n}`,
        event,
        occurredAt: eventInstant(e.date, e.time, e.GMTOffset) ?? this.now(),
        location: e.serviceArea?.[0]?.description,
        message: e.description,
      });
    }
    return events;
  }

  /** One call: 429 waits its Retry-After, 5xx and network faults are retried, 401/403 and 4xx refusals are not. */
  private async call<T>(
    method: 'GET' | 'POST' | 'DELETE',
    path: string,
    json?: unknown,
    headers: Record<string, string> = {},
  ): Promise<OutboundResponse<(T & ErrorBody) | null>> {
    const { username, password } = this.options.credentials;
    let res: OutboundResponse<(T & ErrorBody) | null>;
    try {
      res = await this.options.http.json<T & ErrorBody>({
        method,
        url: `${this.base}${path}`,
        headers: { authorization: `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`, 'x-version': X_VERSION, ...headers },
        ...(json === undefined ? {} : { json }),
      });
    } catch (error) {
      throw carrierCallFault(this.id, error);
    }
    return checkCarrierAnswer(this.id, res, { name: 'DHL Express', secret: 'credentials' });
  }
}

/** The contract's error body as one line: its detail and every additional detail (the field paths of a 422). */
function reasonOf(res: OutboundResponse<ErrorBody | null>): string {
  const parts = [res.body?.detail ?? res.body?.title ?? `HTTP ${res.status}`, ...(res.body?.additionalDetails ?? [])];
  return parts.join('; ');
}
