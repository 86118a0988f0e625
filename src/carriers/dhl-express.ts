import { AccountCarrier, type AccountCarrierOptions } from './account-carrier';
import { DEFAULT_INCOTERMS_TYPE, INCOTERM_OF_TYPE } from '../domain/incoterms';
import type { DraftInput, ItemInput, PartyInput } from '../domain/draft';
import type { OutboundResponse } from '../http/outbound';
import type { TrackingEventName } from '../domain/tracking';
import {
  CarrierRefusedError,
  type Booking,
  type BookingRequest,
  type CancelResult,
  type Carrier,
  type Quote,
  type QuoteParties,
  type ShipmentRef,
  type ShipmentSpec,
  type TrackingEvent,
} from './carrier';
import { carrierCallFault, checkCarrierAnswer } from './carrier-http';

/**
 * DHL Express through the MyDHL API (OpenAPI 3.1.1, `dpdhl-express-api-3.1.1_swagger.yaml`): rates
 * (`POST /rates`), shipments with their label (`POST /shipments`), tracking
 * (`GET /shipments/{shipmentTrackingNumber}/tracking`). HTTP Basic on every call, `x-version` required.
 * The contract has no shipment cancel operation: see `cancel`.
 */

export const DHL_EXPRESS_TEST_URL = 'https://express.api.dhl.com/mydhlapi/test';
export const DHL_EXPRESS_PRODUCTION_URL = 'https://express.api.dhl.com/mydhlapi';
/** The value-added service code of Paperless Trade (PLT). */
const PAPERLESS_TRADE = 'WY';
/** The header value the document fixes ("do not change"). */
const X_VERSION = '3.1.0';

export interface DhlExpressCredentials {
  username: string;
  password: string;
  account_number: string;
}

export interface DhlExpressSettings {
  base_url?: string;
  label_format?: 'pdf' | 'zpl';
  /** Paperless Trade: the account may send its invoice as an image with the booking (DHL enables it per account) */
  paperless_trade?: boolean;
  /** product codes: EXPRESS DOMESTIC `N` and EXPRESS WORLDWIDE `P` unless the account needs others */
  product_domestic?: string;
  product_international?: string;
}

/** The contract's incoterm enum (EXW FCA CPT CIP DPU DAP DDP FAS FOB CFR CIF DAF DAT DDU DEQ DES) holds every rule of ours. */
export { INCOTERM_OF_TYPE };

/** The contract's checkpoint codes that move a consignment (others are informational). */
const EVENT_OF_CODE: Readonly<Record<string, TrackingEventName>> = {
  PU: 'PICKED_UP',
  PL: 'IN_TRANSIT',
  DF: 'IN_TRANSIT',
  AF: 'IN_TRANSIT',
  AR: 'IN_TRANSIT',
  CR: 'IN_TRANSIT',
  WC: 'OUT_FOR_DELIVERY',
  OK: 'DELIVERED',
  RT: 'RETURNED',
  CA: 'EXCEPTION',
  NH: 'EXCEPTION',
};

interface ErrorBody {
  title?: string;
  detail?: string;
  message?: string;
  additionalDetails?: string[];
}

const ADDRESS_LINE = 45;

/** `YYYY-MM-DDTHH:MM:SS GMT+00:00`, the timestamp format the document requires (UTC). */
export function dhlTimestamp(at: Date): string {
  return `${at.toISOString().slice(0, 19)} GMT+00:00`;
}

/** An address cut into the contract's lines of at most 45 characters (three lines at most; longer is refused). */
function addressLines(address: string): string[] {
  const words = address.trim().split(/\s+/);
  const lines: string[] = [];
  for (const word of words) {
    const last = lines.at(-1);
    if (last !== undefined && `${last} ${word}`.length <= ADDRESS_LINE) lines[lines.length - 1] = `${last} ${word}`;
    else lines.push(word.slice(0, ADDRESS_LINE));
  }
  return lines;
}

function party(p: PartyInput, role: string, carrierId: number) {
  const lines = addressLines(p.address ?? '');
  if (lines.length === 0 || lines.length > 3) throw new CarrierRefusedError(carrierId, `${role}.address must fit three lines of ${ADDRESS_LINE} characters for DHL Express`);
  const [addressLine1, addressLine2, addressLine3] = lines;
  return {
    postalAddress: {
      postalCode: p.postal_code ?? '',
      cityName: (p.city ?? '').slice(0, 45),
      countryCode: p.country ?? '',
      addressLine1,
      ...(addressLine2 ? { addressLine2 } : {}),
      ...(addressLine3 ? { addressLine3 } : {}),
      ...(p.state ? { countyName: p.state.slice(0, 45) } : {}),
    },
    contactInformation: {
      phone: p.phone_number ?? '',
      companyName: (p.name ?? '').slice(0, 100),
      fullName: (p.attention_name ?? p.name ?? '').slice(0, 255),
      ...(p.email ? { email: p.email } : {}),
    },
  };
}

/** The product a shipment is booked (and rated) with: EXPRESS WORLDWIDE `P` abroad, EXPRESS DOMESTIC `N` at home, unless the account says otherwise. */
export const productCodeFor = (international: boolean, settings: DhlExpressSettings) => (international ? (settings.product_international ?? 'P') : (settings.product_domestic ?? 'N'));

/** The create-shipment body of the contract for one of our drafts. */
export function shipmentRequest(req: BookingRequest, ctx: { carrierId: number; accountNumber: string; settings: DhlExpressSettings; now: Date; proforma?: Buffer }) {
  const draft: DraftInput = req.draft;
  const international = req.shipment.fromCountry !== req.shipment.toCountry;
  const incoterm = INCOTERM_OF_TYPE[draft.incoterms_type ?? DEFAULT_INCOTERMS_TYPE];
  if (!incoterm) throw new CarrierRefusedError(ctx.carrierId, `incoterms_type ${draft.incoterms_type} has no DHL Express incoterm`);
  const packages = draft.packages ?? [];
  const items: { item: ItemInput; weight: number }[] = packages.flatMap((p) => (p.items ?? []).map((item, _i, all) => ({ item, weight: (p.weight ?? 0) / all.length })));
  const declaredValue = items.reduce((sum, { item }) => sum + (item.unit_price ?? 0) * (item.quantity ?? 1), 0);
  const currency = items.find(({ item }) => item.currency_code)?.item.currency_code ?? 'TRY';
  const description = (items.map(({ item }) => item.description).filter(Boolean).join(', ') || 'Goods').slice(0, 70);
  return {
    plannedShippingDateAndTime: dhlTimestamp(ctx.now),
    pickup: { isRequested: false },
    // The answer then carries the charges, which become the consignment's cost.
    getRateEstimates: true,
    productCode: productCodeFor(international, ctx.settings),
    accounts: [{ typeCode: 'shipper', number: ctx.accountNumber }],
    // The account's label format wins: a printer that takes only ZPL gets ZPL whatever the request asked.
    outputImageProperties: { encodingFormat: ctx.settings.label_format ?? req.labelFormat, imageOptions: [{ typeCode: 'label' }] },
    customerReferences: [{ value: req.reference.slice(0, 35), typeCode: 'CU' }],
    // Paperless Trade: service WY and the proforma invoice (PNV) as a PDF image; DHL then needs no paper invoice.
    ...(international && ctx.proforma
      ? { valueAddedServices: [{ serviceCode: PAPERLESS_TRADE }], documentImages: [{ typeCode: 'PNV', imageFormat: 'PDF', content: ctx.proforma.toString('base64') }] }
      : {}),
    customerDetails: { shipperDetails: party(draft.consignor ?? {}, 'consignor', ctx.carrierId), receiverDetails: party(draft.consignee ?? {}, 'consignee', ctx.carrierId) },
    content: {
      packages: packages.map((p) => ({
        weight: p.weight ?? 0,
        ...(p.length && p.width && p.height ? { dimensions: { length: p.length, width: p.width, height: p.height } } : {}),
      })),
      isCustomsDeclarable: international,
      ...(international ? { declaredValue: Math.round(declaredValue * 1000) / 1000, declaredValueCurrency: currency } : {}),
      description,
      incoterm,
      unitOfMeasurement: 'metric',
      ...(international
        ? {
            exportDeclaration: {
              lineItems: items.map(({ item, weight }, i) => ({
                number: i + 1,
                description: (item.description ?? 'Goods').slice(0, 512),
                price: item.unit_price ?? 0,
                quantity: { value: item.quantity ?? 1, unitOfMeasurement: 'PCS' },
                ...(item.gtip ? { commodityCodes: [{ typeCode: 'outbound', value: item.gtip }] } : {}),
                manufacturerCountry: item.origin ?? req.shipment.fromCountry,
                weight: { netValue: Math.round(weight * 1000) / 1000, grossValue: Math.round(weight * 1000) / 1000 },
              })),
              ...(draft.invoice_number ? { invoice: { number: draft.invoice_number.slice(0, 35), date: ctx.now.toISOString().slice(0, 10) } } : {}),
            },
          }
        : {}),
    },
  };
}

export type DhlExpressCarrierOptions = AccountCarrierOptions<DhlExpressCredentials, DhlExpressSettings>;

export class DhlExpressCarrier extends AccountCarrier<DhlExpressCredentials, DhlExpressSettings> implements Carrier {
  readonly kind = 'dhl_express';
  /** No shipment cancel in the contract: once DHL holds the parcel, cancelling is DHL customer service's business. */
  readonly supportsCancelInTransit = false;
  readonly supportsPush = false;
  readonly supportsQuotes = true;
  constructor(options: DhlExpressCarrierOptions) {
    super(options, options.settings.base_url ?? DHL_EXPRESS_TEST_URL);
  }

  /**
   * The price `POST /rates` gives for the product booking would use (the account's domestic or international
   * product code), in the account's billing currency; null when DHL Express does not offer it for the route.
   */
  async quote(spec: ShipmentSpec, parties: QuoteParties = { from: {}, to: {} }): Promise<Quote | null> {
    const international = spec.fromCountry !== spec.toCountry;
    const res = await this.call<{ products?: { productCode?: string; productName?: string; totalPrice?: { currencyType?: string; priceCurrency?: string; price?: number }[]; deliveryCapabilities?: { totalTransitDays?: number } }[] }>('POST', '/rates', {
      customerDetails: {
        shipperDetails: { postalCode: parties.from.postal_code ?? '', cityName: parties.from.city ?? '', countryCode: spec.fromCountry },
        receiverDetails: { postalCode: parties.to.postal_code ?? '', cityName: parties.to.city ?? '', countryCode: spec.toCountry },
      },
      accounts: [{ typeCode: 'shipper', number: this.options.credentials.account_number }],
      plannedShippingDateAndTime: dhlTimestamp(this.now()),
      unitOfMeasurement: 'metric',
      isCustomsDeclarable: international,
      packages: [{ weight: Math.max(spec.weightKg, 0.001) }],
    });
    if (res.status !== 200) return null;
    const product = res.body?.products?.find((p) => p.productCode === productCodeFor(international, this.options.settings));
    const price = product?.totalPrice?.find((t) => t.currencyType === 'BILLC') ?? product?.totalPrice?.[0];
    if (!product || price?.price === undefined) return null;
    return { providerId: this.id, baseCost: price.price, currency: price.priceCurrency ?? 'EUR', transitDays: product.deliveryCapabilities?.totalTransitDays ?? 0, serviceName: product.productName ?? 'DHL Express' };
  }

  async book(req: BookingRequest): Promise<Booking> {
    const international = req.shipment.fromCountry !== req.shipment.toCountry;
    const proforma = international && this.options.settings.paperless_trade ? await req.customsDocument?.('proforma') : undefined;
    const body = shipmentRequest(req, { carrierId: this.id, accountNumber: this.options.credentials.account_number, settings: this.options.settings, now: this.now(), proforma });
    const res = await this.call<{
      shipmentTrackingNumber?: string;
      trackingUrl?: string;
      documents?: { imageFormat?: string; content?: string; typeCode?: string }[];
      shipmentCharges?: { currencyType?: string; priceCurrency?: string; price?: number }[];
    }>('POST', '/shipments', body, {
      // The contract's own correlation header: a retried booking is recognisable in DHL's logs.
      'message-reference': req.bookingKey.replace(/-/g, '').slice(0, 36),
    });
    if (res.status !== 201 && res.status !== 200) throw new CarrierRefusedError(this.id, reasonOf(res));
    const awb = res.body?.shipmentTrackingNumber;
    const label = res.body?.documents?.find((d) => d.typeCode === 'label' && d.content);
    if (!awb || !label?.content) throw new CarrierRefusedError(this.id, 'DHL Express answered without a waybill number or label');
    const zpl = /zpl/i.test(label.imageFormat ?? '');
    const charge = res.body?.shipmentCharges?.find((c) => c.currencyType === 'BILLC') ?? res.body?.shipmentCharges?.[0];
    return {
      trackingCode: awb,
      trackingUrl: res.body?.trackingUrl ?? `https://www.dhl.com/tr-en/home/tracking.html?tracking-id=${awb}`,
      pickupBooked: false,
      bookedAt: this.now(),
      cost: { providerId: this.id, baseCost: charge?.price ?? 0, currency: charge?.priceCurrency ?? 'TRY', transitDays: 0, serviceName: `DHL Express ${body.productCode}` },
      carrierReference: awb,
      label: { content: Buffer.from(label.content, 'base64'), contentType: zpl ? 'application/zpl' : 'application/pdf' },
    };
  }

  /**
   * The MyDHL API has no shipment cancel or void operation (only pickups can be cancelled). Before DHL holds
   * the parcel, the label is voided on our side and the unused waybill simply expires (DHL bills only what it
   * carries); once in transit, cancelling is refused with that reason.
   */
  async cancel(req: ShipmentRef & { inTransit: boolean }): Promise<CancelResult> {
    if (req.inTransit) return { accepted: false, reason: 'DHL Express offers no cancellation once it holds the parcel; contact DHL Express customer service' };
    return { accepted: true };
  }

  async track(shipment: ShipmentRef): Promise<TrackingEvent[]> {
    const awb = shipment.carrierReference ?? shipment.trackingCode;
    const res = await this.call<{ shipments?: { events?: { date?: string; time?: string; typeCode?: string; description?: string; serviceArea?: { description?: string }[] }[] }[] }>(
      'GET',
      `/shipments/${encodeURIComponent(awb)}/tracking?trackingView=all-checkpoints&levelOfDetail=shipment`,
    );
    if (res.status === 404) return [];
    if (res.status !== 200) throw new CarrierRefusedError(this.id, reasonOf(res));
    const events: TrackingEvent[] = [];
    for (const e of res.body?.shipments?.[0]?.events ?? []) {
      const event = e.typeCode ? EVENT_OF_CODE[e.typeCode] : undefined;
      if (!event) continue;
      const occurredAt = new Date(`${e.date}T${e.time ?? '00:00:00'}Z`);
      events.push({
        eventId: `${awb}:${e.typeCode}:${e.date}T${e.time}`,
        event,
        occurredAt: Number.isNaN(occurredAt.getTime()) ? this.now() : occurredAt,
        location: e.serviceArea?.[0]?.description,
        message: e.description,
      });
    }
    return events;
  }

  /** One call: 429 waits its Retry-After, 5xx and network faults are retried, 401/403 and 4xx refusals are not. */
  private async call<T>(method: 'GET' | 'POST', path: string, json?: unknown, headers: Record<string, string> = {}): Promise<OutboundResponse<(T & ErrorBody) | null>> {
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
