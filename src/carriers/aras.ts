import { foldText } from '../address/fold';
import { cashOnDelivery } from '../domain/special-services';
import type { TrackingEventName } from '../domain/tracking';
import { totals } from '../domain/weights';
import {
  CarrierInputError,
  CarrierRefusedError,
  type Booking,
  type BookingRequest,
  type CancelResult,
  type Carrier,
  type CarrierFieldIssue,
  type FoundBooking,
  type ShipmentRef,
  type TrackingEvent,
} from './carrier';
import { RemoteUnavailableError } from './carrier-http';
import type { AccountRateSettings } from './rate-table';
import { RateTableCarrier, type RateTableCarrierOptions } from './rate-table-carrier';
import { callSoap, soapDecimal, soapList, soapText, xmlText, type SoapElement, type SoapOperation } from './soap';
import { turkishConsignee } from './turkish-provinces';

/**
 * Aras Kargo through its two SOAP services (Aras' own documents, kept in `tcgunel/omniship-aras` docs/: "Sevkiyat
 * Entegrasyonu" and "Müşteri Bilgi Sorgulama Servisleri"). The order service (`arascargoservice.asmx`): `SetOrder`
 * sends the order under our `IntegrationCode` (the service barcode printed on our label) with one barcode per piece,
 * which Aras' branch scans (Aras prints no label); `GetOrderWithIntegrationCode` finds it; `CancelDispatch` deletes it
 * until the branch has cut its waybill. The query service (`ArasCargoIntegrationService.svc`, its own login) answers
 * the cargo's status (QueryType 1) and movements (QueryType 9) once the branch has it. docs/carriers.md, "Aras Kargo",
 * says what is mapped and what is not supported.
 */

export const ARAS_ORDER_URL = 'https://customerservices.araskargo.com.tr/arascargoservice/arascargoservice.asmx';
export const ARAS_QUERY_URL = 'https://customerservices.araskargo.com.tr/ArasCargoCustomerIntegrationService/ArasCargoIntegrationService.svc';
const NAMESPACE = 'http://tempuri.org/';
/** Aras' clock: its times carry no offset and are Turkish time (UTC+3 all year since 2016). */
const TURKEY_OFFSET = '+03:00';
/** Aras' site: its tracking page takes Aras' own tracking number, which exists only once its branch has the cargo. */
const TRACKING_PAGE = 'https://www.araskargo.com.tr/';

export interface ArasCredentials {
  /** the order service's user name and password (also each Order's UserName and Password) */
  user_name: string;
  password: string;
  /** the query service's LoginInfo: its customer code, and its own user and password when Aras gave others */
  customer_code: string;
  query_user_name?: string;
  query_password?: string;
}

export interface ArasSettings {
  /** the order service (default production; test `https://customerservicestest.araskargo.com.tr/arascargoservice/arascargoservice.asmx`) */
  base_url?: string;
  /** the query service (default production; test `https://customerservicestest.araskargo.com.tr/ArasCargoIntegrationService.svc`) */
  query_url?: string;
  /** PayorTypeCode: 1 the sender pays (default), 2 the receiver pays */
  payor_type?: 1 | 2;
  rates?: AccountRateSettings;
}

const orderOperation = (name: string): SoapOperation => ({
  version: '1.1',
  namespace: NAMESPACE,
  name,
  action: `${NAMESPACE}${name}`,
  qualifiedChildren: true,
});
const SET_ORDER = orderOperation('SetOrder');
const FIND_ORDER = orderOperation('GetOrderWithIntegrationCode');
const CANCEL = orderOperation('CancelDispatch');
const QUERY: SoapOperation = {
  version: '1.1',
  namespace: NAMESPACE,
  name: 'GetQueryJSON',
  action: `${NAMESPACE}IArasCargoIntegrationService/GetQueryJSON`,
  qualifiedChildren: true,
};

/** DURUM_KODU, the cargo's documented status → our event (TIP_KODU 3, a return, decides before it). */
const EVENT_OF_STATUS: Readonly<Record<string, TrackingEventName>> = {
  '1': 'PICKED_UP', // Çıkış Şubesinde
  '2': 'IN_TRANSIT', // Yolda
  '3': 'IN_TRANSIT', // Teslimat Şubesinde
  '4': 'OUT_FOR_DELIVERY', // Teslimatta
  '5': 'EXCEPTION', // Parçalı Teslimat: part of it delivered
  '6': 'DELIVERED', // Teslim Edildi
  '7': 'IN_TRANSIT', // Yönlendirildi
};
const RETURNED_TYPE = '3';

/**
 * A movement's text (İŞLEM with its AÇIKLAMA) → our event, by the first keyword of the folded text; the documents
 * show examples, not a list, so any other movement of a cargo Aras holds is transit.
 */
const EVENT_OF_MOVEMENT: readonly [keyword: string, event: TrackingEventName][] = [
  ['iade', 'RETURNED'],
  ['devir', 'EXCEPTION'],
  ['parcali', 'EXCEPTION'],
  ['teslim edildi', 'DELIVERED'],
  ['dagitim', 'OUT_FOR_DELIVERY'],
  ['kabul', 'PICKED_UP'],
];
export function arasMovementEvent(text: string): TrackingEventName {
  const folded = foldText(text);
  return EVENT_OF_MOVEMENT.find(([keyword]) => folded.includes(keyword))?.[1] ?? 'IN_TRANSIT';
}

/** An Aras time (`dd.MM.yyyy`, with `HH:mm[:ss]` in the same text or apart), Turkish time. */
export function arasTime(date: string | undefined, time?: string): Date | undefined {
  const m = /^(\d{2})[./](\d{2})[./](\d{4})(?:[ T](\d{2}):(\d{2})(?::(\d{2}))?)?$/.exec((date ?? '').trim());
  if (!m) return undefined;
  const t = /^(\d{2}):(\d{2})(?::(\d{2}))?$/.exec((time ?? '').trim());
  const [h, mi, s] = m[4] ? [m[4], m[5], m[6] ?? '00'] : t ? [t[1], t[2], t[3] ?? '00'] : ['00', '00', '00'];
  const at = new Date(`${m[3]}-${m[2]}-${m[1]}T${h}:${mi}:${s}${TURKEY_OFFSET}`);
  return Number.isNaN(at.getTime()) ? undefined : at;
}

type Row = Record<string, unknown>;

/** The rows of a GetQueryJSON answer (`{"QueryResult":{"<table>": row | rows}}`; null when none). */
function rowsOf(answer: unknown, table: string): Row[] {
  const result = (answer as { QueryResult?: Record<string, unknown> | null } | null)?.QueryResult;
  return soapList<Row>(result?.[table]);
}

/**
 * The events of a cargo from its status row (QueryType 1) and its movements (QueryType 9), oldest first: each
 * movement, and what the documented status says where no movement said it already.
 */
export function arasEvents(code: string, cargo: Row | undefined, movements: Row[]): TrackingEvent[] {
  const events: TrackingEvent[] = [];
  const add = (id: string, event: TrackingEventName, at: Date | undefined, message?: string, location?: string) => {
    if (at) events.push({ eventId: `${code}:${id}`, event, occurredAt: at, ...(message ? { message } : {}), ...(location ? { location } : {}) });
  };
  let last: Date | undefined;
  for (const m of movements) {
    const at = arasTime(soapText(m.ISLEM_TARIHI));
    const operation = soapText(m.ISLEM) ?? '';
    const description = soapText(m.ACIKLAMA);
    add(
      `${foldText(operation)}:${soapText(m.ISLEM_TARIHI)}`,
      arasMovementEvent(`${operation} ${description ?? ''}`),
      at,
      description ?? operation,
      soapText(m.BIRIM),
    );
    if (at && (!last || at > last)) last = at;
  }
  if (!cargo) return events.sort((a, b) => a.occurredAt.getTime() - b.occurredAt.getTime());
  const said = new Set(events.map((e) => e.event));
  const addUnsaid = (id: string, event: TrackingEventName, at: Date | undefined, message?: string) => {
    if (!said.has(event)) add(id, event, at, message, soapText(cargo.VARIS_SUBE));
  };
  addUnsaid('departed', 'PICKED_UP', arasTime(soapText(cargo.CIKIS_TARIH)), soapText(cargo.CIKIS_SUBE));
  const status = soapText(cargo.DURUM_KODU) ?? '';
  if (soapText(cargo.TIP_KODU) === RETURNED_TYPE) addUnsaid('returned', 'RETURNED', last, soapText(cargo.IADE_SEBEBI) ?? soapText(cargo.DURUMU));
  else if (status === '6')
    addUnsaid('delivered', 'DELIVERED', arasTime(soapText(cargo.TESLIM_TARIHI), soapText(cargo.TESLIM_SAATI)) ?? last, soapText(cargo.TESLIM_ALAN));
  else if (EVENT_OF_STATUS[status]) addUnsaid(`status:${status}`, EVENT_OF_STATUS[status], last, soapText(cargo.DURUMU));
  return events.sort((a, b) => a.occurredAt.getTime() - b.occurredAt.getTime());
}

export type ArasCarrierOptions = RateTableCarrierOptions<ArasCredentials, ArasSettings>;

export class ArasCarrier extends RateTableCarrier<ArasCredentials, ArasSettings> implements Carrier {
  readonly kind = 'aras';
  /** CancelDispatch deletes an order only until the branch has cut its waybill. */
  readonly supportsCancelInTransit = false;
  /** Aras can call a customer's own web service, which we do not offer: the account's tracking poller asks. */
  readonly supportsPush = false;

  constructor(options: ArasCarrierOptions) {
    super(options, ARAS_ORDER_URL, 'Aras Kargo');
  }

  /** Our service barcode: the IntegrationCode ("sipariş numarası") every later call names, printed on our label. */
  sentKey(req: BookingRequest): string {
    return req.serviceBarcode;
  }

  async book(req: BookingRequest): Promise<Booking> {
    const { order, pieces } = this.order(req);
    const answer = await this.callOrderService(SET_ORDER, {
      orderInfo: { Order: [order] },
      userName: this.options.credentials.user_name,
      password: this.options.credentials.password,
    });
    const result = soapList<Row>((answer.SetOrderResult as Row | undefined)?.OrderResultInfo)[0];
    if (!result || soapText(result.ResultCode) !== '0') {
      const code = soapText(result?.ResultCode);
      throw new CarrierRefusedError(
        this.id,
        `Aras Kargo: ${soapText(result?.ResultMessage) ?? 'the order was not taken'}${code ? ` (${code})` : ''}`.slice(0, 500),
      );
    }
    return this.booking(req, pieces);
  }

  /** GetOrderWithIntegrationCode: an order held under our code is the booking (its pieces as sent); none is none. */
  async findBooking(req: BookingRequest): Promise<FoundBooking> {
    const answer = await this.callOrderService(FIND_ORDER, {
      userName: this.options.credentials.user_name,
      password: this.options.credentials.password,
      integrationCode: this.sentKey(req),
    });
    const held = soapList<Row>((answer.GetOrderWithIntegrationCodeResult as Row | undefined)?.Order);
    if (held.length === 0) return { state: 'none' };
    const pieces = soapList<Row>((held[0].PieceDetails as Row | undefined)?.PieceDetail)
      .map((p) => soapText(p.BarcodeNumber))
      .filter((b): b is string => Boolean(b));
    return { state: 'found', booking: await this.booking(req, pieces) };
  }

  /** CancelDispatch by our code: 0 and 1 are both success in Aras' table; 999 (waybill cut) and others are its refusal. */
  async cancel(req: ShipmentRef & { inTransit: boolean }): Promise<CancelResult> {
    if (req.inTransit) return { accepted: false, reason: 'Aras Kargo deletes an order only before its branch has cut the waybill' };
    const answer = await this.callOrderService(CANCEL, {
      userName: this.options.credentials.user_name,
      password: this.options.credentials.password,
      integrationCode: this.keyOf(req),
    });
    const result = (answer.CancelDispatchResult ?? {}) as Row;
    const code = soapText(result.ResultCode);
    if (code === '0' || code === '1') return { accepted: true };
    return { accepted: false, reason: `Aras Kargo: ${soapText(result.ResultMessage) ?? 'the order was not deleted'}${code ? ` (${code})` : ''}`.slice(0, 500) };
  }

  /** QueryType 1 (the cargo's status) and 9 (its movements) by our code; nothing before Aras' branch has the cargo. */
  async track(shipment: ShipmentRef): Promise<TrackingEvent[]> {
    const code = this.keyOf(shipment);
    await this.options.lookupBudget?.();
    const [cargo] = rowsOf(await this.query(1, code), 'Cargo');
    if (!cargo) return [];
    const movements = rowsOf(await this.query(9, code), 'CargoTransaction');
    return arasEvents(code, cargo, movements);
  }

  /** One GetQueryJSON: the LoginInfo and QueryInfo are XML documents inside string parameters, as the document shows. */
  private async query(type: number, code: string): Promise<unknown> {
    const c = this.options.credentials;
    const answer = await callSoap(
      {
        http: this.options.http,
        url: this.options.settings.query_url ?? ARAS_QUERY_URL,
        carrierId: this.id,
        who: { name: 'Aras Kargo', secret: 'query service login' },
      },
      QUERY,
      {
        loginInfo: xmlText({
          LoginInfo: { UserName: c.query_user_name ?? c.user_name, Password: c.query_password ?? c.password, CustomerCode: c.customer_code },
        }),
        queryInfo: xmlText({ QueryInfo: { QueryType: type, IntegrationCode: code } }),
      },
    );
    const json = soapText(answer.GetQueryJSONResult) ?? '';
    try {
      return JSON.parse(json || '{"QueryResult":null}') as unknown;
    } catch {
      throw new RemoteUnavailableError(this.id, `Aras Kargo's query answer was not JSON: ${json.slice(0, 120)}`);
    }
  }

  private keyOf(shipment: Pick<ShipmentRef, 'carrierReference' | 'trackingCode'>): string {
    return shipment.carrierReference ?? shipment.trackingCode;
  }

  /**
   * The Order of a draft (the document's field table): the consignee (the sender is the account's), its province and
   * district, the phone as digits, one PieceDetail per package with a barcode of its own (our code and the piece's
   * number: what Aras' branch scans), cash on delivery when the draft asks for it. Every field Aras would refuse is
   * refused here first, naming the draft's field.
   */
  private order(req: BookingRequest): { order: SoapElement; pieces: string[] } {
    const { draft } = req;
    const settings = this.options.settings;
    const issues: CarrierFieldIssue[] = [];
    const { to, province, district, phone } = turkishConsignee(draft, 'Aras Kargo', issues, { required: true, maxLength: 16 });
    const packages = draft.packages ?? [];
    if (packages.length === 0 || packages.length > 99) issues.push({ field: 'packages', reason: 'Aras Kargo takes 1 to 99 pieces an order' });
    if (!to.name?.trim()) issues.push({ field: 'consignee.name', reason: 'Aras Kargo needs the consignee’s name' });
    const address = [to.address, to.postal_code].filter((a) => a?.trim()).join(' ');
    if (!to.address?.trim() || address.length > 250) issues.push({ field: 'consignee.address', reason: 'Aras Kargo needs an address of up to 250 characters' });
    const { cod } = cashOnDelivery(draft);
    if (cod && (settings.payor_type ?? 1) === 2)
      issues.push({ field: `special_services.${cod.index}`, reason: 'Aras Kargo collects on delivery only when the sender pays (settings.payor_type 1)' });
    if (cod && cod.currency !== 'TRY')
      issues.push({ field: `special_services.${cod.index}.details.currency`, reason: 'Aras Kargo collects on delivery in TRY only' });
    if ((draft.invoice_number?.trim().length ?? 0) > 16)
      issues.push({ field: 'invoice_number', reason: 'Aras Kargo takes an invoice number of up to 16 characters' });
    if (issues.length) throw new CarrierInputError(this.id, issues);
    const key = this.sentKey(req);
    const pieces = packages.map((_, i) => `${key}${String(i + 1).padStart(2, '0')}`);
    const { weight, desi } = totals(packages);
    const content = packages
      .flatMap((p) => (p.items ?? []).map((i) => i.description))
      .filter(Boolean)
      .join(', ');
    const c = this.options.credentials;
    return {
      pieces,
      order: {
        UserName: c.user_name,
        Password: c.password,
        // The waybill number Aras prints (required): your invoice number, else our code.
        TradingWaybillNumber: draft.invoice_number?.trim() || key.slice(0, 16),
        InvoiceNumber: draft.invoice_number?.trim() || undefined,
        IntegrationCode: key,
        ReceiverName: to.name!.trim().slice(0, 100),
        ReceiverAddress: address,
        ReceiverPhone1: phone.gsm ?? phone.phone,
        ReceiverCityName: province,
        ReceiverTownName: district,
        VolumetricWeight: soapDecimal(desi, 3),
        Weight: soapDecimal(weight, 3),
        PieceCount: packages.length,
        IsCod: cod ? '1' : '0',
        CodAmount: cod ? soapDecimal(cod.amount) : undefined,
        CodCollectionType: cod ? (cod.payment === 'card' ? '1' : '0') : undefined,
        CodBillingType: cod ? '0' : undefined,
        Description: content ? content.slice(0, 255) : undefined,
        SpecialField1: req.reference !== req.serviceBarcode ? req.reference.slice(0, 200) : undefined,
        PayorTypeCode: settings.payor_type ?? 1,
        IsWorldWide: 0,
        PieceDetails: {
          PieceDetail: packages.map((p, i) => {
            const one = totals([p]);
            return {
              VolumetricWeight: soapDecimal(one.desi),
              Weight: soapDecimal(one.weight),
              BarcodeNumber: pieces[i],
              Description:
                (p.items ?? [])
                  .map((item) => item.description)
                  .filter(Boolean)
                  .join(', ')
                  .slice(0, 64) || undefined,
            };
          }),
        },
      },
    };
  }

  /** The order Aras holds under our code, as our booking: our code tracks it until Aras' branch makes its tracking number. */
  private async booking(req: BookingRequest, pieces: string[]): Promise<Booking> {
    const key = this.sentKey(req);
    return {
      trackingCode: key,
      trackingUrl: TRACKING_PAGE,
      pickupBooked: false,
      bookedAt: this.now(),
      cost: await this.costOf(req.shipment),
      carrierReference: key,
      ...(pieces.length > 0 && pieces.length === (req.draft.packages?.length ?? 0) ? { pieceBarcodes: pieces } : {}),
    };
  }

  private callOrderService(op: SoapOperation, body: SoapElement): Promise<Row> {
    return callSoap({ http: this.options.http, url: this.base, carrierId: this.id, who: { name: 'Aras Kargo', secret: 'user name or password' } }, op, body);
  }
}
