/**
 * A contract-faithful test double of Sürat Kargo's SOAP web service (`services.asmx`, ASP.NET ASMX), for the `surat`
 * carrier adapter. Contract and every choice where the document is silent: SURAT-CONTRACT.md next to this file.
 * Operation parameters, XML binding, envelopes, messages, cities: surat.schemas.ts.
 *
 *   POST /services.asmx  SOAPAction "http://tempuri.org/<operation>" (SOAP 1.1, text/xml) or
 *                        application/soap+xml; action="http://tempuri.org/<operation>" (SOAP 1.2)
 *     GonderiyiKargoyaGonderYeniSiparisBarkodOlustur  KullaniciAdi, Sifre (cari şifresi), Gonderi → MesajTipi {isError, Message, Barcode}
 *     KargoTakipHareketDetayliV2                      CariKodu, Sifre (web servis şifresi), WebSiparisKodu → movement lines
 *     GonderiGeriCek                                  KullaniciAdi, Sifre (cari şifresi), OzelKargoTakipNo, IptalNeden → string
 *     WebSiparisKodu                                  GonderenCariKodu, Sifre (web servis şifresi), WebSiparisKodu → DataSet
 *   GET  /services.asmx  a help page
 *
 * Order of checks (as ASMX would): path (404) → fault switches → method (405) → media type (500 "Request format is
 * invalid") → well-formed envelope → action → body element → XmlSerializer binding (all: HTTP 500 soap:Fault) → the
 * operation's own rules (HTTP 200, the refusal inside the normal answer). Every request is recorded in `requests` with
 * its outcome, the contract violations found and the elements the service ignores.
 */
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import {
  SURAT_COD_COLLECTION_TYPES,
  SURAT_CARGO_TYPES,
  SURAT_EXTRA_SERVICES,
  SURAT_FINAL_MOVEMENTS,
  SURAT_MAX_LENGTHS,
  SURAT_MESSAGES,
  SURAT_MOVEMENTS,
  SURAT_NAMESPACE,
  SURAT_OPERATIONS,
  SURAT_PAYMENT_TYPES,
  SURAT_SERVICE_PATH,
  SURAT_TEST_ACCOUNT,
  SURAT_TEST_COD_ACCOUNT,
  SoapReadError,
  WEB_SIPARIS_KODU_COLUMNS,
  bindParameters,
  dataSetXml,
  districtKnown,
  findCity,
  helpPage,
  isLandOrMobile,
  isMobile,
  mesajTipiXml,
  operationResponse,
  parseDecimal,
  parseSoapEnvelope,
  soapFault,
  suratLocalTime,
  type SoapFaultCode,
  type SuratAccount,
  type SuratGonderi,
  type SuratMesajTipi,
  type SuratMovementKind,
  type SuratOperation,
} from './surat.schemas';

export {
  SURAT_HOSTS,
  SURAT_MESSAGES,
  SURAT_MOVEMENTS,
  SURAT_NAMESPACE,
  SURAT_OPERATIONS,
  SURAT_TEST_ACCOUNT,
  SURAT_TEST_COD_ACCOUNT,
  type SuratAccount,
  type SuratGonderi,
  type SuratMovementKind,
  type SuratOperation,
} from './surat.schemas';
import { DoubleServer, FaultQueue } from '../double-server';

export type SuratFault =
  /** answers this HTTP status without doing anything: 500 as an ASMX unhandled exception (soap:Server fault), others as IIS's HTML error page */
  | { kind: 'status'; status: number }
  /** never answers until close(), nothing done */
  | { kind: 'hang' }
  /** destroys the socket without doing anything */
  | { kind: 'drop' }
  /** performs the operation (e.g. the shipment IS booked) and then destroys the socket without answering */
  | { kind: 'applyThenDrop' }
  /** performs the operation and answers only after `ms` (a slow answer; a client that gives up earlier has lost it) */
  | { kind: 'applyThenHold'; ms: number }
  /** performs the operation and never answers until close(): "booked, answer lost" */
  | { kind: 'applyThenHang' };

export interface SuratDoubleOptions {
  /** default [SURAT_TEST_ACCOUNT, SURAT_TEST_COD_ACCOUNT] */
  accounts?: SuratAccount[];
  /** the double's clock (movement and booking times); default real time */
  now?: () => Date;
  /** first barcode handed out (14 digits); default '30000000000001' */
  firstBarcode?: string;
  /** where the helpers' pickups and returns happen (not in the document); default 'Istanbul Kadikoy Sube' */
  originBranch?: string;
  /** loopback port to listen on (default: any free one) */
  port?: number;
}

export interface SuratRecordedRequest {
  at: Date;
  method: string;
  /** path without the query, as sent */
  path: string;
  query: Record<string, string>;
  headers: IncomingHttpHeaders;
  rawBody: string;
  soapVersion?: '1.1' | '1.2';
  /** the action as sent (SOAPAction header or the `action` media type parameter), quotes removed */
  action?: string;
  /** the operation the action names, undefined when unknown */
  operation?: SuratOperation;
  /** the bound parameters (XmlSerializer view: null = absent, 0/false for absent int/boolean) */
  params?: Record<string, unknown>;
  /** cari kodu of the account the credentials matched */
  account?: string;
  outcome:
    | 'ok'
    /** a business refusal inside a normal answer (isError=true, "HATA…") */
    | 'refused'
    /** wrong credentials, answered inside a normal answer */
    | 'unauthorized'
    /** a query for a shipment the account does not have (empty answer) */
    | 'no-record'
    /** HTTP 500 soap:Fault: malformed XML, unknown action, unreadable value, SOAP version mismatch */
    | 'soap-fault'
    | 'unsupported-media-type'
    | 'not-found'
    | 'method-not-allowed'
    /** answered (or not) by a fault switch */
    | 'fault';
  /** HTTP status answered; undefined while hanging or when the connection was dropped */
  status?: number;
  /** the XML/text answered (or, for applyThenDrop/applyThenHang, the one that would have been answered) */
  response?: string;
  /** the operation's result: MesajTipi, the result string, or the DataSet rows */
  result?: unknown;
  /** every contract violation found, `Field: message` (empty when the request was valid) */
  validationErrors: string[];
  /** elements the service's model does not have (ignored by the service), e.g. `Gonderi.Telefon` or `{urn:x}Sifre` */
  unknownFields: string[];
  fault?: SuratFault['kind'];
}

export interface SuratMovement {
  kind: SuratMovementKind;
  /** the text KargoTakipHareketDetayliV2 shows (SURAT_MOVEMENTS) */
  text: string;
  at: Date;
  location: string;
}

export interface SuratShipment {
  /** the 14-digit barcode (Sürat's TakipNo) */
  barcode: string;
  /** our reference, trimmed; null when the booking had none (then only the barcode identifies it) */
  ozelKargoTakipNo: string | null;
  /** cari kodu of the booking account */
  account: string;
  gonderi: SuratGonderi;
  /** the request XML as sent */
  rawRequest: string;
  movements: SuratMovement[];
  withdrawal?: { reason: string; at: Date };
  createdAt: Date;
}

export interface SuratMoveOptions {
  /** default: the double's clock */
  at?: Date;
  /** default: the origin branch (pickup, transit, return) or `<Il> <Ilce> Sube` of the receiver */
  location?: string;
}

export interface SuratDouble {
  /** 'http://127.0.0.1:<port>' */
  baseUrl: string;
  /** baseUrl + '/services.asmx': the endpoint, as the real hosts are given (SURAT_HOSTS) */
  serviceUrl: string;
  requests: SuratRecordedRequest[];
  /** by barcode */
  shipments: Map<string, SuratShipment>;
  accounts: readonly SuratAccount[];
  /** a shipment by OzelKargoTakipNo or barcode (any account) */
  find(key: string): SuratShipment | undefined;
  failNext(fault: SuratFault, options?: { times?: number; operation?: SuratOperation }): void;
  clearFaults(): void;
  /** appends a movement; throws for an unknown shipment, after a final movement, or before pickup (except pickedUp) */
  move(key: string, kind: Exclude<SuratMovementKind, 'withdrawn'>, options?: SuratMoveOptions): SuratMovement;
  pickUp(key: string, options?: SuratMoveOptions): SuratMovement;
  inTransit(key: string, options?: SuratMoveOptions): SuratMovement;
  outForDelivery(key: string, options?: SuratMoveOptions): SuratMovement;
  deliver(key: string, options?: SuratMoveOptions): SuratMovement;
  returnToSender(key: string, options?: SuratMoveOptions): SuratMovement;
  /** what KargoTakipHareketDetayliV2Result says for a shipment now */
  trackingText(key: string): string;
  close(): Promise<void>;
}

class Answer {
  constructor(
    readonly status: number,
    readonly body: string,
    readonly contentType: string,
    readonly outcome: SuratRecordedRequest['outcome'],
    readonly validationErrors: string[] = [],
    readonly result?: unknown,
  ) {}
}

const has = (s: string | null | undefined): s is string => typeof s === 'string' && s.trim() !== '';
const stripQuotes = (s: string) => s.trim().replace(/^"(.*)"$/, '$1');
const ascii = (s: string) =>
  s
    .trim()
    .replace(/İ/g, 'I')
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/ı/g, 'i');

export async function startSuratDouble(options: SuratDoubleOptions = {}): Promise<SuratDouble> {
  const now = options.now ?? (() => new Date());
  const accounts: readonly SuratAccount[] = (options.accounts ?? [SURAT_TEST_ACCOUNT, SURAT_TEST_COD_ACCOUNT]).map((a) => ({ ...a }));
  const originBranch = options.originBranch ?? 'Istanbul Kadikoy Sube';
  const requests: SuratRecordedRequest[] = [];
  const shipments = new Map<string, SuratShipment>();
  let nextBarcode = BigInt(options.firstBarcode ?? '30000000000001');
  const faults = new FaultQueue<SuratFault, SuratOperation>();

  if (!/^\d{14}$/.test(nextBarcode.toString())) throw new Error('surat double: firstBarcode must have 14 digits');

  // ---- answers ------------------------------------------------------------------------------------------------------

  const mediaType = (v: '1.1' | '1.2') => (v === '1.1' ? 'text/xml; charset=utf-8' : 'application/soap+xml; charset=utf-8');
  const fault = (v: '1.1' | '1.2', code: SoapFaultCode, text: string) =>
    new Answer(500, soapFault(v, code, text), mediaType(v), 'soap-fault', [`(envelope): ${text}`]);
  const answer = (v: '1.1' | '1.2', op: SuratOperation, result: unknown, xml: unknown, outcome: SuratRecordedRequest['outcome'], errors: string[] = []) =>
    new Answer(200, operationResponse(v, op, xml), mediaType(v), outcome, errors, result);

  // ---- shipments ----------------------------------------------------------------------------------------------------

  const all = () => [...shipments.values()];
  const byCode = (account: string, code: string) => all().find((s) => s.account === account && s.ozelKargoTakipNo === code.trim());
  const find = (key: string) => all().find((s) => s.ozelKargoTakipNo === key.trim()) ?? shipments.get(key.trim());
  const pickedUp = (s: SuratShipment) => s.movements.some((m) => m.kind === 'pickedUp');

  function credentials(cariKodu: unknown, password: unknown, which: 'sifre' | 'webSifre'): SuratAccount | undefined {
    return accounts.find((a) => a.cariKodu === cariKodu && a[which] === password);
  }

  // ---- GonderiyiKargoyaGonderYeniSiparisBarkodOlustur -----------------------------------------------------------

  /** The README's field table and our choices (SURAT-CONTRACT.md), first failure wins, in the WSDL's field order. */
  function createRules(g: SuratGonderi, account: SuratAccount): { field: string; message: string } | undefined {
    const refuse = (field: string, message: string) => ({ field, message });
    if (!has(g.KisiKurum)) return refuse('KisiKurum', SURAT_MESSAGES.receiverNameEmpty);
    if (!has(g.AliciAdresi)) return refuse('AliciAdresi', SURAT_MESSAGES.receiverAddressEmpty);
    if (!has(g.Il)) return refuse('Il', SURAT_MESSAGES.cityEmpty);
    const city = findCity(g.Il);
    if (!city) return refuse('Il', `${SURAT_MESSAGES.cityUnknown}: ${g.Il.trim()}`);
    if (!has(g.Ilce)) return refuse('Ilce', SURAT_MESSAGES.districtEmpty);
    if (!districtKnown(city, g.Ilce)) return refuse('Ilce', `${SURAT_MESSAGES.districtUnknown}: ${g.Ilce.trim()}`);
    for (const [field, max] of Object.entries(SURAT_MAX_LENGTHS)) {
      const v = g[field as keyof SuratGonderi];
      if (typeof v === 'string' && v.trim().length > max) return refuse(field, SURAT_MESSAGES.tooLong(field, max));
    }
    if (has(g.TelefonEv) && !isLandOrMobile(g.TelefonEv)) return refuse('TelefonEv', SURAT_MESSAGES.phoneFormat('TelefonEv'));
    if (has(g.TelefonIs) && !isLandOrMobile(g.TelefonIs)) return refuse('TelefonIs', SURAT_MESSAGES.phoneFormat('TelefonIs'));
    if (has(g.TelefonCep) && !isMobile(g.TelefonCep)) return refuse('TelefonCep', SURAT_MESSAGES.mobileFormat);
    if (has(g.Email) && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(g.Email.trim())) return refuse('Email', SURAT_MESSAGES.emailFormat);
    if (!SURAT_CARGO_TYPES[g.KargoTuru]) return refuse('KargoTuru', SURAT_MESSAGES.cargoType);
    if (!SURAT_PAYMENT_TYPES[g.OdemeTipi]) return refuse('OdemeTipi', SURAT_MESSAGES.paymentType);
    if (g.Adet < 1) return refuse('Adet', SURAT_MESSAGES.pieces);
    if (has(g.BirimDesi) && parseDecimal(g.BirimDesi) === undefined) return refuse('BirimDesi', SURAT_MESSAGES.desi);
    if (has(g.BirimKg) && parseDecimal(g.BirimKg) === undefined) return refuse('BirimKg', SURAT_MESSAGES.kg);

    const cod = g.KapidanOdemeTahsilatTipi;
    if (SURAT_COD_COLLECTION_TYPES[cod] === undefined) return refuse('KapidanOdemeTahsilatTipi', SURAT_MESSAGES.codType);
    if (cod === 0 && has(g.KapidanOdemeTutari) && parseDecimal(g.KapidanOdemeTutari) !== 0)
      return refuse('KapidanOdemeTutari', SURAT_MESSAGES.codAmountWithoutType);
    if (cod !== 0) {
      if (!account.cashOnDelivery) return refuse('KapidanOdemeTahsilatTipi', SURAT_MESSAGES.codNotAllowed);
      const amount = has(g.KapidanOdemeTutari) ? parseDecimal(g.KapidanOdemeTutari) : undefined;
      if (amount === undefined || amount <= 0) return refuse('KapidanOdemeTutari', SURAT_MESSAGES.codAmount);
      if (!has(g.IrsaliyeSeriNo) || !has(g.IrsaliyeSiraNo)) return refuse('IrsaliyeSeriNo|IrsaliyeSiraNo', SURAT_MESSAGES.codWaybill);
    }

    const services = (g.EkHizmetler ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    const unknownService = services.find((s) => !(SURAT_EXTRA_SERVICES as readonly string[]).includes(s));
    if (unknownService) return refuse('EkHizmetler', SURAT_MESSAGES.extraService(unknownService));
    if (services.includes('AliciyaSms') && !has(g.TelefonCep)) return refuse('TelefonCep', SURAT_MESSAGES.mobileRequiredForSms);

    // README: TeslimSekli is optional, so an absent one (bound to 0) means address delivery
    if (g.TeslimSekli !== 0 && g.TeslimSekli !== 1 && g.TeslimSekli !== 2) return refuse('TeslimSekli', SURAT_MESSAGES.deliveryMethod);
    if (g.TeslimSekli === 2 && !has(g.TeslimSubeKodu)) return refuse('TeslimSubeKodu', SURAT_MESSAGES.branchRequired);

    if (has(g.OzelKargoTakipNo) && byCode(account.cariKodu, g.OzelKargoTakipNo))
      return refuse('OzelKargoTakipNo', SURAT_MESSAGES.duplicateTrackingNo(g.OzelKargoTakipNo.trim()));
    return undefined;
  }

  function create(v: '1.1' | '1.2', p: Record<string, unknown>, raw: string, rec: SuratRecordedRequest): Answer {
    const op = 'GonderiyiKargoyaGonderYeniSiparisBarkodOlustur';
    const reply = (m: SuratMesajTipi, outcome: SuratRecordedRequest['outcome'], errors: string[] = []) => answer(v, op, m, mesajTipiXml(m), outcome, errors);
    const account = credentials(p.KullaniciAdi, p.Sifre, 'sifre');
    if (!account)
      return reply({ isError: true, Message: SURAT_MESSAGES.wrongCredentials, Barcode: '' }, 'unauthorized', [
        `KullaniciAdi|Sifre: ${SURAT_MESSAGES.wrongCredentials}`,
      ]);
    rec.account = account.cariKodu;
    const g = p.Gonderi as SuratGonderi | null;
    if (!g) return reply({ isError: true, Message: SURAT_MESSAGES.gonderiMissing, Barcode: '' }, 'refused', [`Gonderi: ${SURAT_MESSAGES.gonderiMissing}`]);
    const refusal = createRules(g, account);
    if (refusal) return reply({ isError: true, Message: refusal.message, Barcode: '' }, 'refused', [`${refusal.field}: ${refusal.message}`]);

    const barcode = (nextBarcode++).toString();
    shipments.set(barcode, {
      barcode,
      ozelKargoTakipNo: has(g.OzelKargoTakipNo) ? g.OzelKargoTakipNo.trim() : null,
      account: account.cariKodu,
      gonderi: g,
      rawRequest: raw,
      movements: [],
      createdAt: now(),
    });
    return reply({ isError: false, Message: SURAT_MESSAGES.success, Barcode: barcode }, 'ok');
  }

  // ---- KargoTakipHareketDetayliV2 -----------------------------------------------------------------------------------

  const trackingLines = (s: SuratShipment) => s.movements.map((m) => `${m.text}|${suratLocalTime(m.at)}|${m.location}`).join('\n');

  function track(v: '1.1' | '1.2', p: Record<string, unknown>, rec: SuratRecordedRequest): Answer {
    const op = 'KargoTakipHareketDetayliV2';
    const account = credentials(p.CariKodu, p.Sifre, 'webSifre');
    if (!account)
      return answer(v, op, SURAT_MESSAGES.trackingWrongCredentials, SURAT_MESSAGES.trackingWrongCredentials, 'unauthorized', [
        `CariKodu|Sifre: ${SURAT_MESSAGES.trackingWrongCredentials}`,
      ]);
    rec.account = account.cariKodu;
    const code = typeof p.WebSiparisKodu === 'string' ? p.WebSiparisKodu : '';
    const s = has(code) ? byCode(account.cariKodu, code) : undefined;
    // no record and no movement yet answer alike (an empty result): the contract gives no "not found" text
    if (!s) return answer(v, op, '', '', 'no-record');
    const text = trackingLines(s);
    return answer(v, op, text, text, 'ok');
  }

  // ---- GonderiGeriCek -----------------------------------------------------------------------------------------------

  function withdraw(v: '1.1' | '1.2', p: Record<string, unknown>, rec: SuratRecordedRequest): Answer {
    const op = 'GonderiGeriCek';
    const refuse = (field: string, message: string, outcome: SuratRecordedRequest['outcome'] = 'refused') =>
      answer(v, op, message, message, outcome, [`${field}: ${message}`]);
    const account = credentials(p.KullaniciAdi, p.Sifre, 'sifre');
    if (!account) return refuse('KullaniciAdi|Sifre', SURAT_MESSAGES.cancelWrongCredentials, 'unauthorized');
    rec.account = account.cariKodu;
    const code = p.OzelKargoTakipNo as string | null;
    const reason = p.IptalNeden as string | null;
    if (!has(code)) return refuse('OzelKargoTakipNo', SURAT_MESSAGES.cancelTrackingNoEmpty);
    if (!has(reason)) return refuse('IptalNeden', SURAT_MESSAGES.cancelReasonEmpty);
    const s = byCode(account.cariKodu, code);
    if (!s) return refuse('OzelKargoTakipNo', SURAT_MESSAGES.cancelNotFound);
    if (s.withdrawal) return refuse('OzelKargoTakipNo', SURAT_MESSAGES.cancelAlreadyWithdrawn);
    if (pickedUp(s)) return refuse('OzelKargoTakipNo', SURAT_MESSAGES.cancelAfterPickup);
    const at = now();
    s.withdrawal = { reason: reason.trim(), at };
    s.movements.push({ kind: 'withdrawn', text: SURAT_MOVEMENTS.withdrawn, at, location: originBranch });
    return answer(v, op, SURAT_MESSAGES.success, SURAT_MESSAGES.success, 'ok');
  }

  // ---- WebSiparisKodu -----------------------------------------------------------------------------------------------

  function lookup(v: '1.1' | '1.2', p: Record<string, unknown>, rec: SuratRecordedRequest): Answer {
    const op = 'WebSiparisKodu';
    const account = credentials(p.GonderenCariKodu, p.Sifre, 'webSifre');
    if (!account) {
      const rows = [{ Mesaj: SURAT_MESSAGES.queryWrongCredentials }];
      return answer(v, op, rows, dataSetXml(['Mesaj'], rows), 'unauthorized', [`GonderenCariKodu|Sifre: ${SURAT_MESSAGES.queryWrongCredentials}`]);
    }
    rec.account = account.cariKodu;
    const code = typeof p.WebSiparisKodu === 'string' ? p.WebSiparisKodu : '';
    const s = has(code) ? byCode(account.cariKodu, code) : undefined;
    if (!s) return answer(v, op, [], dataSetXml(WEB_SIPARIS_KODU_COLUMNS, []), 'no-record');
    const last = s.movements[s.movements.length - 1];
    const row: Record<(typeof WEB_SIPARIS_KODU_COLUMNS)[number], string> = {
      WebSiparisKodu: s.ozelKargoTakipNo ?? '',
      TakipNo: s.barcode,
      ReferansNo: s.gonderi.ReferansNo ?? '',
      KisiKurum: s.gonderi.KisiKurum ?? '',
      Il: s.gonderi.Il ?? '',
      Ilce: s.gonderi.Ilce ?? '',
      Adet: String(s.gonderi.Adet),
      GonderiTarihi: suratLocalTime(s.createdAt),
      SonDurum: last?.text ?? '',
      SonIslemTarihi: last ? suratLocalTime(last.at) : '',
    };
    return answer(v, op, [row], dataSetXml(WEB_SIPARIS_KODU_COLUMNS, [row]), 'ok');
  }

  // ---- one request --------------------------------------------------------------------------------------------------

  /** SOAP version and action from the headers; undefined version = not a SOAP request ASMX knows. */
  function protocol(headers: IncomingHttpHeaders): { version?: '1.1' | '1.2'; action?: string } {
    const ct = headers['content-type'] ?? '';
    const type = ct.split(';')[0].trim().toLowerCase();
    if (type === 'text/xml') {
      const h = headers.soapaction;
      return { version: '1.1', action: h === undefined ? undefined : stripQuotes(Array.isArray(h) ? h[0] : h) };
    }
    if (type === 'application/soap+xml') {
      const m = /;\s*action\s*=\s*("([^"]*)"|[^;\s]*)/i.exec(ct);
      return { version: '1.2', action: m ? (m[2] ?? m[1]) : undefined };
    }
    return {};
  }

  const operationOf = (action: string | undefined): SuratOperation | undefined => SURAT_OPERATIONS.find((op) => action === `${SURAT_NAMESPACE}${op}`);

  function handle(req: IncomingMessage, raw: string, rec: SuratRecordedRequest): Answer {
    const { version, action } = protocol(req.headers);
    if (!version) {
      const ct = req.headers['content-type'] ?? '';
      return new Answer(500, `System.InvalidOperationException: Request format is invalid: ${ct}.`, 'text/plain; charset=utf-8', 'unsupported-media-type', [
        `Content-Type: ${ct || '(none)'} is not text/xml (SOAP 1.1) or application/soap+xml (SOAP 1.2)`,
      ]);
    }
    let envelope;
    try {
      envelope = parseSoapEnvelope(raw);
    } catch (err) {
      if (err instanceof SoapReadError) return fault(version, err.faultCode, err.message);
      throw err;
    }
    if (envelope.version !== version) {
      const expected = version === '1.1' ? 'http://schemas.xmlsoap.org/soap/envelope/' : 'http://www.w3.org/2003/05/soap-envelope';
      const got = envelope.version === '1.1' ? 'http://schemas.xmlsoap.org/soap/envelope/' : 'http://www.w3.org/2003/05/soap-envelope';
      return fault(version, 'VersionMismatch', `Possible SOAP version mismatch: Envelope namespace ${got} was unexpected. Expecting ${expected}.`);
    }
    rec.unknownFields.push(...envelope.headerElements.map((h) => `soap:Header.${h.local}`));
    if (!action) {
      if (version === '1.2') return fault(version, 'Client', 'Unable to handle request without a valid action parameter. Please supply a valid soap action.');
      return fault(version, 'Client', 'Server did not recognize the value of HTTP Header SOAPAction: .');
    }
    const operation = operationOf(action);
    if (!operation) return fault(version, 'Client', `Server did not recognize the value of HTTP Header SOAPAction: ${action}.`);
    const e = envelope.operationElement;
    if (!e) return fault(version, 'Client', 'Server was unable to read request. ---> There is an error in XML document (1, 1). ---> Root element is missing.');
    if (e.local !== operation || e.ns !== SURAT_NAMESPACE)
      return fault(
        version,
        'Client',
        `Server was unable to read request. ---> There is an error in XML document (1, 1). ---> <${e.local} xmlns='${e.ns}'> was not expected.`,
      );
    let bound;
    try {
      bound = bindParameters(operation, e, raw);
    } catch (err) {
      if (err instanceof SoapReadError) return fault(version, err.faultCode, err.message);
      throw err;
    }
    rec.params = bound.value;
    rec.unknownFields.push(...bound.unknownFields);
    switch (operation) {
      case 'GonderiyiKargoyaGonderYeniSiparisBarkodOlustur':
        return create(version, bound.value, raw, rec);
      case 'KargoTakipHareketDetayliV2':
        return track(version, bound.value, rec);
      case 'GonderiGeriCek':
        return withdraw(version, bound.value, rec);
      case 'WebSiparisKodu':
        return lookup(version, bound.value, rec);
    }
  }

  function send(res: ServerResponse, a: Answer, rec: SuratRecordedRequest): void {
    rec.status = a.status;
    rec.outcome = a.outcome;
    rec.response = a.body;
    rec.result = a.result;
    rec.validationErrors.push(...a.validationErrors);
    res.writeHead(a.status, { 'content-type': a.contentType, 'cache-control': 'private' });
    res.end(a.body);
  }

  /** Records what a fault kept from the client (the booking happened all the same). */
  function keep(a: Answer, rec: SuratRecordedRequest): void {
    rec.outcome = a.outcome;
    rec.response = a.body;
    rec.result = a.result;
    rec.validationErrors.push(...a.validationErrors);
  }

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const url = new URL(req.url ?? '/', 'http://double.invalid');
      const { version, action } = protocol(req.headers);
      const rec: SuratRecordedRequest = {
        at: now(),
        method: (req.method ?? 'GET').toUpperCase(),
        path: url.pathname,
        query: Object.fromEntries(url.searchParams),
        headers: req.headers,
        rawBody: raw,
        soapVersion: version,
        action,
        operation: operationOf(action),
        outcome: 'ok',
        validationErrors: [],
        unknownFields: [],
      };
      requests.push(rec);

      if (url.pathname.toLowerCase() !== SURAT_SERVICE_PATH) {
        return send(
          res,
          new Answer(404, '<html><body><h2>404 - File or directory not found.</h2></body></html>', 'text/html; charset=utf-8', 'not-found'),
          rec,
        );
      }

      const f = rec.method === 'POST' ? faults.take(rec.operation) : undefined;
      if (f) rec.fault = f.kind;
      switch (f?.kind) {
        case 'hang':
          rec.outcome = 'fault';
          return; // never answered; close() tears the socket down
        case 'drop':
          rec.outcome = 'fault';
          req.socket.destroy();
          return;
        case 'status':
          return send(
            res,
            f.status === 500
              ? new Answer(
                  500,
                  soapFault(version ?? '1.1', 'Server', 'Server was unable to process request. ---> Timeout expired.'),
                  version === '1.2' ? 'application/soap+xml; charset=utf-8' : 'text/xml; charset=utf-8',
                  'fault',
                )
              : new Answer(f.status, `<html><body><h2>HTTP Error ${f.status}</h2></body></html>`, 'text/html; charset=utf-8', 'fault'),
            rec,
          );
        default:
          break;
      }

      let a: Answer;
      if (rec.method === 'GET') a = new Answer(200, helpPage(), 'text/html; charset=utf-8', 'ok');
      else if (rec.method !== 'POST') a = new Answer(405, '', 'text/plain; charset=utf-8', 'method-not-allowed');
      else {
        try {
          a = handle(req, raw, rec);
        } catch (err) {
          a = new Answer(500, soapFault(version ?? '1.1', 'Server', `test double failure: ${(err as Error).message}`), 'text/xml; charset=utf-8', 'soap-fault');
        }
      }

      if (f?.kind === 'applyThenDrop') {
        keep(a, rec);
        req.socket.destroy();
        return;
      }
      if (f?.kind === 'applyThenHang') {
        keep(a, rec);
        return; // the shipment exists; the answer never leaves
      }
      if (f?.kind === 'applyThenHold') {
        double.hold(req, f.ms, () => send(res, a, rec));
        return;
      }
      send(res, a, rec);
    });
  });

  const double = new DoubleServer(server);
  const port = await double.listen(options.port);

  function mustFind(key: string): SuratShipment {
    const s = find(key);
    if (!s) throw new Error(`surat double: no shipment with OzelKargoTakipNo or barcode ${key}`);
    return s;
  }

  function move(key: string, kind: Exclude<SuratMovementKind, 'withdrawn'>, opts: SuratMoveOptions = {}): SuratMovement {
    const s = mustFind(key);
    const last = s.movements[s.movements.length - 1];
    if (last && SURAT_FINAL_MOVEMENTS.has(last.kind)) throw new Error(`surat double: ${key} is final (${last.text}); no more movements`);
    if (kind !== 'pickedUp' && !pickedUp(s)) throw new Error(`surat double: ${key} has not been picked up yet (pickUp first)`);
    const receiverBranch = `${ascii(s.gonderi.Il ?? '')} ${ascii(s.gonderi.Ilce ?? '')} Sube`;
    const defaultLocation: Record<typeof kind, string> = {
      pickedUp: originBranch,
      inTransit: `${originBranch.split(' ')[0]} Aktarma Merkezi`,
      outForDelivery: receiverBranch,
      delivered: receiverBranch,
      returned: originBranch,
    };
    const m: SuratMovement = { kind, text: SURAT_MOVEMENTS[kind], at: opts.at ?? now(), location: opts.location ?? defaultLocation[kind] };
    s.movements.push(m);
    return m;
  }

  return {
    baseUrl: `http://127.0.0.1:${port}`,
    serviceUrl: `http://127.0.0.1:${port}${SURAT_SERVICE_PATH}`,
    requests,
    shipments,
    accounts,
    find,
    failNext(f, opts = {}) {
      faults.push(f, opts);
    },
    clearFaults() {
      faults.clear();
    },
    move,
    pickUp: (key, opts) => move(key, 'pickedUp', opts),
    inTransit: (key, opts) => move(key, 'inTransit', opts),
    outForDelivery: (key, opts) => move(key, 'outForDelivery', opts),
    deliver: (key, opts) => move(key, 'delivered', opts),
    returnToSender: (key, opts) => move(key, 'returned', opts),
    trackingText: (key) => trackingLines(mustFind(key)),
    close: () => double.close(),
  };
}
