/**
 * A contract-faithful test double of the Kolay Gelsin REST API, for the `kolay_gelsin` carrier adapter.
 * Contract and deviations: KOLAY-GELSIN-CONTRACT.md next to this file. Schemas and response builders: kolay-gelsin.schemas.ts.
 *
 * Every operation is `POST {baseUrl}/{Operation}` with a JSON body and the provisioned token in the `Authorization`
 * header (there is no login operation). Answers use the api-docs.md envelope (ResultCode/ResultMessage/Payload).
 */
import { randomUUID } from 'node:crypto';
import { createServer, request as httpRequest, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormatsImport from 'ajv-formats';
import {
  CARGO_EVENT_CODES,
  KOLAY_GELSIN_REQUEST_SCHEMAS,
  TCKN_PATTERN,
  VKN_PATTERN,
  cargoEventTypesHeadersSchema,
  kolayGelsinResponses,
  webhookPayloadSchema,
  type EventInput,
  type SaveShipmentPayload,
  type KolayGelsinEnvelope,
  type KolayGelsinOperation,
  type ShipmentItemStatusModel,
} from './kolay-gelsin.schemas';

// ajv-formats is CommonJS with `exports.default`; under ts-jest/nodenext the default import may be the module object.
const addFormats = ((addFormatsImport as unknown as { default?: typeof addFormatsImport }).default ?? addFormatsImport) as typeof addFormatsImport;

export const KOLAY_GELSIN_BASE_PATH = '/api/request';
export const KOLAY_GELSIN_DEFAULT_TOKEN = 'kolay-gelsin-test-token';

/** Documented "address does not belong to the customer" answer (api-docs.md): the only non-500 ResultCode. */
const ADDRESS_NOT_OWNED = { code: 404.1, message: 'Adres müşteriye ait değil' };

export type WebhookAuth = { type: 'none' } | { type: 'basic'; username: string; password: string } | { type: 'hash'; value: string; headerName?: string };

export interface KolayGelsinCustomer {
  customerId: number;
  addressIds: number[];
  /** contract allows "Tahsilatlı kargo" (SenderInvoiceAmount); default true */
  cashOnDelivery?: boolean;
}

export interface KolayGelsinDoubleOptions {
  /** Tokens Kolay Gelsin provisioned (there is no login operation). Default [KOLAY_GELSIN_DEFAULT_TOKEN]. */
  tokens?: string[];
  /** `Authorization: Bearer <t>` (api-docs "OAuth2 token", PHP adapter), raw `<t>` (swagger apiKey) or either (default). */
  authScheme?: 'bearer' | 'raw' | 'either';
  /** Known sender customers and their address ids. Default [{ customerId: 20, addressIds: [28] }] (api-docs example). */
  customers?: KolayGelsinCustomer[];
  /** RecipientIds known before the test (as if saved earlier with SaveRecipient). */
  recipientIds?: number[];
  /** Plate codes inside the service area; others need SaveOutOfCoverage=true. Default: all 1..81. */
  coveredCityIds?: number[];
  /** HTTP status of error envelopes: swagger declares "500: İşlem başarısız" (default); 200 tests that ResultCode is read. */
  errorHttpStatus?: 200 | 500;
  /** Name of the HTML label field in ShipmentItemLabelList: swagger `ShipmentItemIdLabel` (default) or api-docs `ShipmentItemLabel`. */
  labelField?: 'ShipmentItemIdLabel' | 'ShipmentItemLabel';
  /** GetCorporateShipmentsStatus Payload: api-docs `{ ShipmentModelList }` (default) or the swagger bare array. */
  statusPayloadShape?: 'ShipmentModelList' | 'array';
  /** Add `TimeStamp` to status events (not in the swagger event model). Default false. */
  includeEventTimeStamp?: boolean;
  /** false → GetCorporateShipmentsStatus answers "CustomerNotFound" (customer not integrated with a webhook definition). */
  webhookConfigured?: boolean;
  /** Event types selected in the "Webhook Ayarlar" tab: only these appear in status answers. Default: all. */
  subscribedEventTypes?: number[];
  /** How pushed webhooks authenticate (api-docs: Basic auth or a static hash header you choose). Default none. */
  webhookAuth?: WebhookAuth;
  /** Tracking link prefix (the value is not in the contract; shape from the PHP adapter's fixture). */
  trackingLinkBase?: string;
  firstShipmentId?: number;
  /** loopback port to listen on (default: any free one) */
  port?: number;
}

export interface RecordedRequest {
  at: Date;
  method: string;
  path: string;
  operation?: string;
  headers: IncomingHttpHeaders;
  rawBody: string;
  body: unknown;
  outcome: 'ok' | 'unauthorized' | 'invalid' | 'refused' | 'fault' | 'hang' | 'not-found' | 'bad-media-type' | 'dropped-after-apply';
  status?: number;
  response?: unknown;
  validationErrors?: string[];
}

export interface KolayGelsinItem {
  shipmentItemId: string;
  customerBarcode: string;
  customerTrackingId: string;
}

export interface KolayGelsinDelivery {
  shipmentId: string;
  operation: 'SaveIntegrationShipment' | 'SaveIntegrationShipmentV2';
  customerId: number;
  customerSpecificCode: string;
  items: KolayGelsinItem[];
  events: Array<EventInput & { timeStamp: string }>;
  cancellation?: { reason: number; kind: 'cancelled-before-pickup' | 'return-started' };
  request: Record<string, unknown>;
}

export interface PushedWebhook {
  url: string;
  headers: Record<string, string>;
  payload: unknown;
  status: number;
  body: string;
}

export interface RefusalFault {
  operation?: KolayGelsinOperation;
  resultMessage?: string;
  resultCode?: number;
}

export interface KolayGelsinFaults {
  /** Next n requests answer HTTP 500/503 (plain text, no envelope). */
  failNext(n: number, status?: 500 | 503): void;
  /** Next n requests (to `operation`, when given) never get an answer (until close()). */
  hangNext(n: number, operation?: KolayGelsinOperation): void;
  /**
   * Next n requests to `operation` are carried out (a shipment IS saved) and then the connection is destroyed
   * without an answer: the caller sees a connection error, as when an answer is lost on the way.
   */
  applyThenDropNext(n: number, operation: KolayGelsinOperation): void;
  /** Next n (valid, authenticated) requests to `operation` (default any) get a business refusal envelope. */
  refuseNext(n: number, refusal?: RefusalFault): void;
  reset(): void;
}

export interface KolayGelsinDouble {
  /** http://127.0.0.1:<port>/api/request — append `/{Operation}` */
  baseUrl: string;
  token: string;
  requests: RecordedRequest[];
  deliveries: Map<string, KolayGelsinDelivery>;
  webhooks: PushedWebhook[];
  faults: KolayGelsinFaults;
  addToken(token: string): void;
  /** Simulates a revoked/expired token (the contract states no lifetime). */
  revokeToken(token: string): void;
  /**
   * Moves a delivery to a new CargoEventType (appends an event) and returns the webhook.json payload for that event.
   * Delivered (29) gets a signature document (DocumentType 4) unless one is given.
   */
  advance(shipmentId: string, event: number | EventInput): ShipmentItemStatusModel[];
  /** The webhook.json payload of a delivery's latest event (or of all events). */
  webhookPayload(shipmentId: string, all?: boolean): ShipmentItemStatusModel[];
  /** POSTs `payload` as Kolay Gelsin would (JSON, with the configured Basic/hash authentication). */
  pushWebhook(targetUrl: string, payload: unknown, auth?: WebhookAuth): Promise<PushedWebhook>;
  close(): Promise<void>;
}

// --------------------------------------------------------------------------------------------------------------------
// Validation
// --------------------------------------------------------------------------------------------------------------------

const ajv = new Ajv({ allErrors: true, strict: true, strictTypes: false, strictRequired: false, allowUnionTypes: true });
addFormats(ajv);
const validators = Object.fromEntries(Object.entries(KOLAY_GELSIN_REQUEST_SCHEMAS).map(([op, schema]) => [op, ajv.compile(schema)])) as Record<
  KolayGelsinOperation,
  ValidateFunction
>;
const validateCargoHeaders = ajv.compile(cargoEventTypesHeadersSchema);
export const validateWebhookPayload = ajv.compile(webhookPayloadSchema);

const fieldPath = (instancePath: string, extra?: string): string =>
  [...instancePath.split('/').filter(Boolean), ...(extra ? [extra] : [])]
    .map((seg, i) => (/^\d+$/.test(seg) ? `[${seg}]` : i === 0 ? seg : `.${seg}`))
    .join('');

interface FieldError {
  field: string;
  keyword: string;
  pattern?: string;
  text: string;
}

/** ajv errors → one line per offending field (`ShipmentItemList[0].CustomerTrackingId is required`). */
export function describeErrors(errors: ErrorObject[] | null | undefined): FieldError[] {
  const out: FieldError[] = [];
  const list = errors ?? [];
  for (const e of list) {
    if (e.keyword === 'if') continue; // its then/else errors are reported themselves
    if (e.schemaPath.includes('/anyOf/')) continue; // folded into the anyOf error below
    if (e.keyword === 'anyOf') {
      const branches = list.filter((c) => c.instancePath === e.instancePath && c.schemaPath.startsWith(e.schemaPath.replace(/anyOf$/, 'anyOf/')));
      if (branches.length && branches.every((c) => c.keyword === 'required')) {
        const names = branches.map((c) => (c.params as { missingProperty: string }).missingProperty);
        out.push({ field: fieldPath(e.instancePath, names[0]), keyword: 'required', text: `${fieldPath(e.instancePath, names.join('|'))} is required` });
      } else {
        out.push({ field: fieldPath(e.instancePath), keyword: 'anyOf', text: `${fieldPath(e.instancePath)} ${branches.map((c) => c.message).join(' or ')}` });
      }
      continue;
    }
    if (e.keyword === 'required') {
      const field = fieldPath(e.instancePath, (e.params as { missingProperty: string }).missingProperty);
      out.push({ field, keyword: 'required', text: `${field} is required` });
      continue;
    }
    const field = fieldPath(e.instancePath) || '(body)';
    const params = e.params as { allowedValues?: unknown[]; pattern?: string };
    const detail = e.keyword === 'enum' ? `must be one of ${params.allowedValues!.join(', ')}` : e.message;
    out.push({ field, keyword: e.keyword, pattern: params.pattern, text: `${field} ${detail}` });
  }
  return out.filter((f, i) => out.findIndex((g) => g.text === f.text) === i);
}

/** The ResultCode/ResultMessage api-docs.md documents for an invalid field; undefined when it documents none. */
function documentedError(op: string, f: FieldError): { code: number; message: string } | undefined {
  const m = (message: string, code = 500) => ({ code, message });
  const isShipment = op === 'SaveIntegrationShipment' || op === 'SaveIntegrationShipmentV2';
  if (isShipment) {
    if (f.field === 'SenderCustomer') return m(op === 'SaveIntegrationShipmentV2' ? 'CustomerNotFound' : 'SomethingWentWrong');
    if (f.field.startsWith('SenderCustomer.CustomerId')) return m('CustomerNotFound');
    if (f.field.startsWith('SenderCustomer.Address')) return ADDRESS_NOT_OWNED;
    if (f.field.startsWith('ShipmentItemList')) return m('SomethingWentWrong');
    if (f.field.startsWith('PackageType')) return m('MoveOptionNotFound');
    if (op === 'SaveIntegrationShipment' && f.field === 'Recipient') {
      return m('Sipariş kaydedilemedi. Hata detayı: Object reference not set to an instance of an object.');
    }
    if (op === 'SaveIntegrationShipment' && f.field.startsWith('Recipient.RecipientId')) return m('NoContactsFound');
    if (op === 'SaveIntegrationShipmentV2' && f.field === 'Recipient') return m('ErrorSavingReceiver');
  }
  // recipient fields: the whole body of SaveRecipient, `Recipient.*` of SaveIntegrationShipmentV2
  let rf: string;
  if (op === 'SaveRecipient') rf = f.field;
  else if (op === 'SaveIntegrationShipmentV2' && f.field.startsWith('Recipient.')) rf = f.field.slice('Recipient.'.length);
  else return undefined;
  if (rf === 'Address.CityId' && f.keyword !== 'required') return m('CityNotFound');
  if (rf === 'RecipientIdentityNumber') {
    if (f.keyword === 'required') return m('IdentityNumberEntryIsRequired');
    return m(f.pattern === TCKN_PATTERN ? 'IdentityNumberNotValid' : 'Alici kimlik numarasinda gecersiz karakterler bulunuyor');
  }
  if (rf === 'RecipientTaxIdentityNumber') {
    if (f.keyword === 'required') return m('TaxIdentificationNumberInputIsRequired');
    return m(f.pattern === VKN_PATTERN ? 'TaxIdentificationNumberNotValid' : 'Alici vergi kimlik numarasinda gecersiz karakterler bulunuyor');
  }
  if (rf.startsWith('Recipient') || rf.startsWith('Address')) return m('ErrorSavingReceiver');
  return undefined;
}

// --------------------------------------------------------------------------------------------------------------------
// The server
// --------------------------------------------------------------------------------------------------------------------

const PICKUP_PENDING = new Set([1, 2]);
const REFUSE_CANCEL: Record<number, string> = {
  29: 'ShipmentAlreadyDelivered',
  31: 'ShipmentAlreadyCancelled',
  32: 'ShipmentAlreadyCancelled',
  46: 'ShipmentAlreadyCancelled',
  33: 'ShipmentLost',
};

class HttpAnswer {
  constructor(
    readonly status: number,
    readonly body: unknown,
    readonly outcome: RecordedRequest['outcome'],
    readonly validationErrors?: string[],
  ) {}
}

export async function startKolayGelsinDouble(options: KolayGelsinDoubleOptions = {}): Promise<KolayGelsinDouble> {
  const tokens = new Set(options.tokens ?? [KOLAY_GELSIN_DEFAULT_TOKEN]);
  const authScheme = options.authScheme ?? 'either';
  const customers = options.customers ?? [{ customerId: 20, addressIds: [28] }];
  const recipients = new Set<number>(options.recipientIds ?? []);
  const covered = new Set(options.coveredCityIds ?? Array.from({ length: 81 }, (_, i) => i + 1));
  const errorHttpStatus = options.errorHttpStatus ?? 500;
  const labelField = options.labelField ?? 'ShipmentItemIdLabel';
  const subscribed = new Set(options.subscribedEventTypes ?? CARGO_EVENT_CODES);
  const trackingLinkBase = options.trackingLinkBase ?? 'https://esubebeta.klyglsn.com/track/';
  let nextShipmentId = options.firstShipmentId ?? 900001;
  let nextItemId = 5000001;
  let nextRecipientId = 4501;
  let nextBarcode = 124001;

  const requests: RecordedRequest[] = [];
  const deliveries = new Map<string, KolayGelsinDelivery>();
  const documents = new Map<string, { type: number; pdf: Buffer }>();
  const webhooks: PushedWebhook[] = [];
  const fault = {
    fail: 0,
    failStatus: 500 as 500 | 503,
    hang: 0,
    refuse: 0,
    refusal: {} as RefusalFault,
    drop: 0,
    dropOperation: undefined as KolayGelsinOperation | undefined,
    hangOperation: undefined as KolayGelsinOperation | undefined,
  };

  const envelopeError = (message: string, code = 500, outcome: RecordedRequest['outcome'] = 'refused', errors?: string[]) =>
    new HttpAnswer(errorHttpStatus, kolayGelsinResponses.error(message, code), outcome, errors);
  const ok = (body: KolayGelsinEnvelope) => new HttpAnswer(200, body, 'ok');

  function authorised(header: string | undefined): boolean {
    if (!header) return false;
    const bearer = /^Bearer\s+(.+)$/i.exec(header)?.[1];
    if (bearer !== undefined && authScheme !== 'raw') return tokens.has(bearer.trim());
    return authScheme !== 'bearer' && tokens.has(header.trim());
  }

  const itemModel = (d: KolayGelsinDelivery, item: KolayGelsinItem) => ({
    ShipmentId: d.shipmentId,
    ShipmentItemId: item.shipmentItemId,
    CustomerTrackingId: item.customerTrackingId,
    CustomerBarcode: item.customerBarcode,
    CustomerSpecificCode: d.customerSpecificCode,
  });

  function statusModels(d: KolayGelsinDelivery, items: KolayGelsinItem[], onlyLatest: boolean): ShipmentItemStatusModel[] {
    const visible = d.events.filter((e) => subscribed.has(e.cargoEventType));
    const events = onlyLatest ? visible.slice(-1) : visible;
    return items.map((item) => ({
      ...itemModel(d, item),
      CargoEventLogModelList: events.map((e) => kolayGelsinResponses.eventLog(e, options.includeEventTimeStamp ?? false)),
    }));
  }

  const label = (d: KolayGelsinDelivery, item: KolayGelsinItem, index: number) =>
    `<html><body><div class="kg-label"><h1>Kolay Gelsin</h1><p>Gönderi: ${d.shipmentId} (${index + 1}/${d.items.length})</p>` +
    `<p class="barcode">${item.customerBarcode}</p><p>Parça: ${item.shipmentItemId}</p></div></body></html>`;

  function createShipment(op: 'SaveIntegrationShipment' | 'SaveIntegrationShipmentV2', body: Record<string, unknown>): HttpAnswer {
    const sender = body.SenderCustomer as { CustomerId: number; Address: { AddressId: number } };
    const customer = customers.find((c) => c.customerId === sender.CustomerId);
    if (!customer) return envelopeError('CustomerNotFound');
    if (!customer.addressIds.includes(sender.Address.AddressId)) return envelopeError(ADDRESS_NOT_OWNED.message, ADDRESS_NOT_OWNED.code);
    if (op === 'SaveIntegrationShipment') {
      if (!recipients.has((body.Recipient as { RecipientId: number }).RecipientId)) return envelopeError('NoContactsFound');
    } else {
      const refusal = recipientRules(body.Recipient as Record<string, unknown>);
      if (refusal) return refusal;
    }
    if (body.SenderInvoiceAmount !== undefined && body.SenderInvoiceAmount !== null && customer.cashOnDelivery === false) {
      return envelopeError('Tahsilatlı kargo yapılamaz.');
    }
    const shipmentId = String(nextShipmentId++);
    const items = (body.ShipmentItemList as Array<Record<string, string>>).map((it) => ({
      shipmentItemId: String(nextItemId++),
      customerBarcode: it.CustomerBarcode || `KLY000${nextBarcode++}`,
      customerTrackingId: it.CustomerTrackingId,
    }));
    const d: KolayGelsinDelivery = {
      shipmentId,
      operation: op,
      customerId: customer.customerId,
      customerSpecificCode: (body.CustomerSpecificCode as string | undefined) ?? '',
      items,
      events: [{ cargoEventType: 1, timeStamp: new Date().toISOString(), locationName: '' }],
      request: body,
    };
    deliveries.set(shipmentId, d);
    const payload: SaveShipmentPayload = {
      ShipmentId: shipmentId,
      CustomerSpecificCode: d.customerSpecificCode,
      ShipmentItemLabelList: items.map((item, i) => ({
        ShipmentItemId: item.shipmentItemId,
        CustomerBarcode: item.customerBarcode,
        [labelField]: label(d, item, i),
      })),
      ShipmentTrackingLink: `${trackingLinkBase}${shipmentId}`,
    };
    return ok(kolayGelsinResponses.saveShipment(payload));
  }

  /** Business rules of a recipient (SaveRecipient, SaveIntegrationShipmentV2.Recipient) beyond the schema. */
  function recipientRules(r: Record<string, unknown>): HttpAnswer | undefined {
    const address = r.Address as { CityId: number };
    if (!covered.has(address.CityId) && r.SaveOutOfCoverage !== true) return envelopeError('Bu kordinatta kurye çalışma alanı bulunamamıştır.');
    return undefined;
  }

  function cancel(body: { ShipmentId: string; DeliveryCancellationReason: number }): HttpAnswer {
    const d = deliveries.get(body.ShipmentId);
    if (!d) return envelopeError('ShipmentNotFound');
    const latest = d.events[d.events.length - 1].cargoEventType;
    if (REFUSE_CANCEL[latest]) return envelopeError(REFUSE_CANCEL[latest]);
    const pending = d.events.every((e) => PICKUP_PENDING.has(e.cargoEventType));
    d.cancellation = { reason: body.DeliveryCancellationReason, kind: pending ? 'cancelled-before-pickup' : 'return-started' };
    d.events.push({ cargoEventType: 31, timeStamp: new Date().toISOString(), detail: { DeliveryCancellationReason: String(body.DeliveryCancellationReason) } });
    return ok(kolayGelsinResponses.cancel());
  }

  function status(body: Record<string, unknown>): HttpAnswer {
    if (options.webhookConfigured === false) return envelopeError('CustomerNotFound');
    const list = (k: string) => (body[k] as string[] | undefined) ?? [];
    const [ids, codes, barcodes, trackingIds] = ['ShipmentIdList', 'CustomerSpecificCodeList', 'CustomerBarcodeList', 'CustomerTrackingIdList'].map(list);
    if (!ids.length && !codes.length && !barcodes.length && !trackingIds.length) return envelopeError('Parametrelerin hepsi boş olamaz');
    const models: ShipmentItemStatusModel[] = [];
    for (const d of deliveries.values()) {
      const whole = ids.includes(d.shipmentId) || (d.customerSpecificCode !== '' && codes.includes(d.customerSpecificCode));
      const items = whole ? d.items : d.items.filter((i) => barcodes.includes(i.customerBarcode) || trackingIds.includes(i.customerTrackingId));
      models.push(...statusModels(d, items, body.OnlyLatestEvents === true));
    }
    return ok(kolayGelsinResponses.shipmentsStatus(models, options.statusPayloadShape));
  }

  function handle(op: KolayGelsinOperation, body: Record<string, unknown>, headers: IncomingHttpHeaders): HttpAnswer {
    switch (op) {
      case 'SaveRecipient': {
        const refusal = recipientRules(body);
        if (refusal) return refusal;
        const id = nextRecipientId++;
        recipients.add(id);
        return ok(kolayGelsinResponses.saveRecipient(id));
      }
      case 'SaveIntegrationShipment':
      case 'SaveIntegrationShipmentV2':
        return createShipment(op, body);
      case 'CancelPickupAndDelivery':
        return cancel(body as { ShipmentId: string; DeliveryCancellationReason: number });
      case 'GetCorporateShipmentsStatus':
        return status(body);
      case 'GetCorporateCustomerCargoEventTypes':
        return ok(kolayGelsinResponses.cargoEventTypes(headers['accept-language'] as 'tr-TR' | 'en-EN'));
      case 'GetDocumentForHistory': {
        const doc = documents.get(String(body.DocumentId).toLowerCase());
        if (!doc || doc.type !== body.DocumentType) return envelopeError('DocumentNotFound');
        return ok(kolayGelsinResponses.document(String(body.DocumentId), doc.pdf));
      }
    }
  }

  function answer(method: string, path: string, headers: IncomingHttpHeaders, raw: string, rec: RecordedRequest): HttpAnswer {
    const op = path.startsWith(`${KOLAY_GELSIN_BASE_PATH}/`) ? path.slice(KOLAY_GELSIN_BASE_PATH.length + 1) : '';
    if (!(op in KOLAY_GELSIN_REQUEST_SCHEMAS))
      return new HttpAnswer(404, { Message: `No HTTP resource was found that matches the request URI '${path}'.` }, 'not-found');
    const operation = op as KolayGelsinOperation;
    rec.operation = operation;
    if (method !== 'POST') return new HttpAnswer(405, { Message: `The requested resource does not support http method '${method}'.` }, 'not-found');
    if (!authorised(headers.authorization)) return new HttpAnswer(401, kolayGelsinResponses.unauthorized(), 'unauthorized');
    if (!/^application\/json\b/i.test(headers['content-type'] ?? '')) {
      return new HttpAnswer(415, { Message: "The request entity's media type is not supported for this resource." }, 'bad-media-type');
    }
    let body: unknown;
    try {
      body = raw.trim() === '' ? undefined : JSON.parse(raw);
    } catch {
      return envelopeError('SomethingWentWrong [body is not valid JSON]', 500, 'invalid', ['body is not valid JSON']);
    }
    rec.body = body;
    const errors: FieldError[] = [];
    if (operation === 'GetCorporateCustomerCargoEventTypes' && !validateCargoHeaders({ ...headers })) {
      errors.push(...describeErrors(validateCargoHeaders.errors).map((e) => ({ ...e, text: `header ${e.text}` })));
    }
    if (!validators[operation](body ?? null)) errors.push(...describeErrors(validators[operation].errors));
    if (errors.length) {
      const documented = errors.map((e) => documentedError(operation, e)).find((d) => d !== undefined) ?? { code: 500, message: 'SomethingWentWrong' };
      const texts = errors.map((e) => e.text);
      return envelopeError(`${documented.message} [${texts.join('; ')}]`, documented.code, 'invalid', texts);
    }
    if (fault.refuse > 0 && (!fault.refusal.operation || fault.refusal.operation === operation)) {
      fault.refuse--;
      return envelopeError(fault.refusal.resultMessage ?? 'SomethingWentWrong', fault.refusal.resultCode ?? 500);
    }
    return handle(operation, body as Record<string, unknown>, headers);
  }

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const path = (req.url ?? '/').split('?')[0];
      const rec: RecordedRequest = { at: new Date(), method: req.method ?? '', path, headers: req.headers, rawBody: raw, body: undefined, outcome: 'ok' };
      requests.push(rec);
      try {
        rec.body = raw ? JSON.parse(raw) : undefined;
      } catch {
        rec.body = undefined;
      }
      if (fault.hang > 0 && (!fault.hangOperation || path === `${KOLAY_GELSIN_BASE_PATH}/${fault.hangOperation}`)) {
        fault.hang--;
        rec.outcome = 'hang';
        return; // never answered; close() drops the connection
      }
      if (fault.fail > 0) {
        fault.fail--;
        rec.outcome = 'fault';
        rec.status = fault.failStatus;
        res.writeHead(fault.failStatus, { 'content-type': 'text/html' });
        res.end(fault.failStatus === 503 ? '<h1>Service Unavailable</h1>' : '<h1>Internal Server Error</h1>');
        return;
      }
      const a = answer(rec.method, path, req.headers, raw, rec);
      rec.outcome = a.outcome;
      rec.status = a.status;
      rec.response = a.body;
      if (a.validationErrors) rec.validationErrors = a.validationErrors;
      if (fault.drop > 0 && rec.operation === fault.dropOperation && a.outcome === 'ok') {
        fault.drop--;
        rec.outcome = 'dropped-after-apply';
        req.socket.destroy();
        return;
      }
      res.writeHead(a.status, { 'content-type': 'application/json; charset=utf-8' });
      res.end(JSON.stringify(a.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  function mustGet(shipmentId: string): KolayGelsinDelivery {
    const d = deliveries.get(shipmentId);
    if (!d) throw new Error(`kolay-gelsin double: no delivery ${shipmentId}`);
    return d;
  }

  const webhookPayload = (shipmentId: string, all = false): ShipmentItemStatusModel[] => {
    const d = mustGet(shipmentId);
    return kolayGelsinResponses.webhook(
      d.items.map((i) => itemModel(d, i)),
      all ? d.events : d.events.slice(-1),
    );
  };

  return {
    baseUrl: `http://127.0.0.1:${port}${KOLAY_GELSIN_BASE_PATH}`,
    token: [...tokens][0] ?? '',
    requests,
    deliveries,
    webhooks,
    faults: {
      failNext(n, s = 500) {
        fault.fail = n;
        fault.failStatus = s;
      },
      hangNext(n, operation) {
        fault.hang = n;
        fault.hangOperation = operation;
      },
      applyThenDropNext(n, operation) {
        fault.drop = n;
        fault.dropOperation = operation;
      },
      refuseNext(n, refusal = {}) {
        fault.refuse = n;
        fault.refusal = refusal;
      },
      reset() {
        Object.assign(fault, { fail: 0, hang: 0, refuse: 0, refusal: {}, drop: 0, dropOperation: undefined, hangOperation: undefined });
      },
    },
    addToken: (t) => void tokens.add(t),
    revokeToken: (t) => void tokens.delete(t),
    advance(shipmentId, event) {
      const d = mustGet(shipmentId);
      const e: EventInput = typeof event === 'number' ? { cargoEventType: event } : { ...event };
      if (!CARGO_EVENT_CODES.includes(e.cargoEventType)) throw new Error(`kolay-gelsin double: undocumented CargoEventType ${e.cargoEventType}`);
      if (e.cargoEventType === 29 && e.documentType === undefined) e.documentType = 4;
      if (e.documentType !== undefined) {
        e.documentId ??= randomUUID();
        documents.set(e.documentId.toLowerCase(), { type: e.documentType, pdf: Buffer.from('%PDF-1.4\n% kolay-gelsin double document\n%%EOF\n') });
      }
      d.events.push({ ...e, timeStamp: e.timeStamp ?? new Date().toISOString() });
      return webhookPayload(shipmentId);
    },
    webhookPayload,
    pushWebhook(targetUrl, payload, auth = options.webhookAuth ?? { type: 'none' }) {
      const body = JSON.stringify(payload);
      const headers: Record<string, string> = { 'content-type': 'application/json; charset=utf-8', 'content-length': String(Buffer.byteLength(body)) };
      if (auth.type === 'basic') headers.authorization = `Basic ${Buffer.from(`${auth.username}:${auth.password}`).toString('base64')}`;
      // api-docs.md: "a HASH value you choose is added to the HEADER" — the header name is not documented.
      if (auth.type === 'hash') headers[(auth.headerName ?? 'hash').toLowerCase()] = auth.value;
      return new Promise<PushedWebhook>((resolve, reject) => {
        const req = httpRequest(targetUrl, { method: 'POST', headers, agent: false }, (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (c: string) => (text += c));
          res.on('end', () => {
            const pushed = { url: targetUrl, headers, payload, status: res.statusCode ?? 0, body: text };
            webhooks.push(pushed);
            resolve(pushed);
          });
        });
        req.on('error', reject);
        req.end(body);
      });
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve, reject) => server.close((err) => (err ? reject(err) : resolve())));
    },
  };
}
