import { XMLBuilder, XMLParser } from 'fast-xml-parser';
import type { OutboundHttp } from '../http/outbound';
import { CarrierRefusedError } from './carrier';
import { carrierCallFault, checkCarrierAnswer, RemoteUnavailableError } from './carrier-http';

/**
 * SOAP for the carriers that speak it (docs/carriers.md): one envelope builder and one reader of answers and
 * faults, on fast-xml-parser, so that adapters deal in plain objects and no adapter writes XML by hand. Element
 * text is escaped by the builder (`&`, `<`, `>`); Turkish letters go as UTF-8, which the envelope declares.
 */

export type SoapVersion = '1.1' | '1.2';

const ENVELOPE_NAMESPACES: Record<SoapVersion, string> = {
  '1.1': 'http://schemas.xmlsoap.org/soap/envelope/',
  '1.2': 'http://www.w3.org/2003/05/soap-envelope',
};

/** An operation as its WSDL describes it. */
export interface SoapOperation {
  version: SoapVersion;
  /** the operation element's namespace (the WSDL's target namespace) */
  namespace: string;
  /** the operation element, e.g. `createShipment`, `SetOrder` */
  name: string;
  /** the SOAPAction (1.1 header, 1.2 content-type parameter); absent: none sent */
  action?: string;
  /**
   * Whether the elements inside the operation are in its namespace: ASP.NET `.asmx` services (document/literal,
   * qualified) expect them there, so the operation declares it as the default namespace; JAX-WS services
   * generated from unqualified schemas expect them in no namespace, so only the operation element is prefixed.
   */
  qualifiedChildren: boolean;
}

/** An element's content: text (numbers and booleans written as text), child elements, or a list repeating the element. */
export type SoapValue = string | number | boolean | null | undefined | SoapElement | SoapValue[];
export interface SoapElement {
  [name: string]: SoapValue;
}

/** Elements whose value is null or undefined are left out: a WSDL's optional element is absent, not empty. */
function withoutEmpty(value: SoapValue): SoapValue {
  if (Array.isArray(value)) return value.filter((v) => v !== null && v !== undefined).map(withoutEmpty);
  if (value === null || value === undefined || typeof value !== 'object') return value;
  const out: SoapElement = {};
  for (const [key, child] of Object.entries(value)) if (child !== null && child !== undefined) out[key] = withoutEmpty(child);
  return out;
}

const builder = new XMLBuilder({ ignoreAttributes: false, attributeNamePrefix: '@_', suppressEmptyNode: false, processEntities: true });

/** A number as the services' decimal text: an invariant dot (never a decimal comma), at most `scale` decimals. */
export const soapDecimal = (value: number, scale = 2): string => String(Math.round(value * 10 ** scale) / 10 ** scale);

/** An XML document of its own (no declaration), for services that take XML inside a string parameter. */
export function xmlText(element: SoapElement): string {
  return builder.build(withoutEmpty(element));
}

/** The request envelope of one operation call, with `body` as the operation element's content. */
export function soapEnvelope(operation: SoapOperation, body: SoapElement): string {
  const content = withoutEmpty(body) as SoapElement;
  const element = operation.qualifiedChildren
    ? { [operation.name]: { '@_xmlns': operation.namespace, ...content } }
    : { [`op:${operation.name}`]: { '@_xmlns:op': operation.namespace, ...content } };
  return (
    '<?xml version="1.0" encoding="utf-8"?>' +
    builder.build({ 'soap:Envelope': { '@_xmlns:soap': ENVELOPE_NAMESPACES[operation.version], 'soap:Body': element } })
  );
}

/**
 * Answers are read without namespace prefixes and with every value as text: tracking codes and barcodes keep
 * their leading zeros and their digits (a 14-digit barcode is not a number).
 */
const parser = new XMLParser({
  ignoreAttributes: true,
  removeNSPrefix: true,
  parseTagValue: false,
  trimValues: true,
  processEntities: true,
});

/** A SOAP fault: `client` when the request was at fault (SOAP 1.1 Client, 1.2 Sender), `server` otherwise. */
export interface SoapFault {
  side: 'client' | 'server';
  code: string;
  message: string;
}

export type SoapAnswer = { fault: SoapFault } | { body: Record<string, unknown> };

/** A text a value holds, whatever shape the parser gave it. */
export function soapText(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'object') return '#text' in value ? soapText((value as Record<string, unknown>)['#text']) : undefined;
  return String(value);
}

/** A repeated element as a list: the parser gives one occurrence as itself and several as an array. */
export function soapList<T = unknown>(value: unknown): T[] {
  if (value === undefined || value === null || value === '') return [];
  return (Array.isArray(value) ? value : [value]) as T[];
}

function faultOf(fault: Record<string, unknown>): SoapFault {
  // 1.1: faultcode / faultstring; 1.2: Code/Value and Reason/Text.
  const code = soapText(fault.faultcode) ?? soapText((fault.Code as Record<string, unknown> | undefined)?.Value) ?? '';
  const reason = fault.Reason as Record<string, unknown> | undefined;
  const message = soapText(fault.faultstring) ?? soapText(reason?.Text) ?? (Array.isArray(reason?.Text) ? soapText(reason.Text[0]) : undefined) ?? '';
  const local = code.replace(/^.*:/, '');
  return { side: local === 'Client' || local === 'Sender' ? 'client' : 'server', code: local, message };
}

/** Reads an answer envelope: its body, or its fault. Throws on what is not a SOAP envelope (or carries a DTD, which SOAP forbids). */
export function readSoapAnswer(xml: string): SoapAnswer {
  if (/<!DOCTYPE/i.test(xml)) throw new Error('the answer carries a document type declaration, which SOAP forbids');
  let parsed: Record<string, unknown>;
  try {
    parsed = parser.parse(xml) as Record<string, unknown>;
  } catch (error) {
    throw new Error(`the answer is not XML (${(error as Error).message.slice(0, 200)})`);
  }
  const envelope = parsed.Envelope as Record<string, unknown> | undefined;
  const body = envelope?.Body;
  if (!body || typeof body !== 'object') throw new Error('the answer is not a SOAP envelope');
  const fault = (body as Record<string, unknown>).Fault;
  return fault && typeof fault === 'object' ? { fault: faultOf(fault as Record<string, unknown>) } : { body: body as Record<string, unknown> };
}

export interface SoapCallOptions {
  http: OutboundHttp;
  url: string;
  /** the carrier account's provider id, for the errors */
  carrierId: number;
  /** the carrier's name and what its credentials are called, for the errors ("Yurtiçi", "user name and password") */
  who: { name: string; secret: string };
  timeoutMs?: number;
}

/**
 * Calls one operation and answers its response element (`<name>Response`, or the body's only element). A fault the
 * request caused is the carrier's refusal (CarrierRefusedError with the fault's text); a server fault, an HTTP
 * status a retry can fix or an unreadable answer is RemoteUnavailableError; 401/403 refuse the credentials.
 */
export async function callSoap(options: SoapCallOptions, operation: SoapOperation, body: SoapElement): Promise<Record<string, unknown>> {
  const { http, url, carrierId, who } = options;
  const headers: Record<string, string> =
    operation.version === '1.1'
      ? { 'content-type': 'text/xml; charset=utf-8', accept: 'text/xml', ...(operation.action !== undefined ? { soapaction: `"${operation.action}"` } : {}) }
      : {
          'content-type': `application/soap+xml; charset=utf-8${operation.action !== undefined ? `; action="${operation.action}"` : ''}`,
          accept: 'application/soap+xml',
        };
  let res;
  try {
    res = await http.request({ method: 'POST', url, headers, body: soapEnvelope(operation, body), timeoutMs: options.timeoutMs });
  } catch (error) {
    throw carrierCallFault(carrierId, error);
  }
  const text = res.body.toString('utf8');
  let answer: SoapAnswer | undefined;
  try {
    answer = readSoapAnswer(text);
  } catch (error) {
    // Not an envelope: the HTTP status says what it was (a proxy's 502, a login page's 403), else it is unusable.
    checkCarrierAnswer(carrierId, res, who);
    throw new RemoteUnavailableError(carrierId, `${who.name}'s answer (HTTP ${res.status}) was not usable: ${(error as Error).message}`);
  }
  if ('fault' in answer) {
    const { fault } = answer;
    const text = `${who.name} answered a SOAP fault${fault.code ? ` (${fault.code})` : ''}: ${fault.message || 'no reason given'}`;
    if (fault.side === 'client') throw new CarrierRefusedError(carrierId, text.slice(0, 500));
    throw new RemoteUnavailableError(carrierId, text.slice(0, 500));
  }
  checkCarrierAnswer(carrierId, res, who);
  if (res.status < 200 || res.status >= 300) throw new RemoteUnavailableError(carrierId, `${who.name} answered HTTP ${res.status}`);
  const response = answer.body[`${operation.name}Response`] ?? Object.values(answer.body)[0];
  return response && typeof response === 'object' ? (response as Record<string, unknown>) : {};
}
