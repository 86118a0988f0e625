import { describe, expect, it } from '@jest/globals';
import { XMLParser } from 'fast-xml-parser';
import { CarrierRefusedError } from '../../../src/carriers/carrier';
import { RemoteUnavailableError } from '../../../src/carriers/carrier-http';
import { callSoap, readSoapAnswer, soapEnvelope, soapList, soapText, type SoapOperation } from '../../../src/carriers/soap';
import { OutboundHttpError, type OutboundHttp, type OutboundRequest } from '../../../src/http/outbound';

const JAX_WS: SoapOperation = {
  version: '1.1',
  namespace: 'http://yurticikargo.com.tr/ShippingOrderDispatcherServices',
  name: 'createShipment',
  qualifiedChildren: false,
};
const ASMX: SoapOperation = {
  version: '1.1',
  namespace: 'http://tempuri.org/',
  name: 'SetOrder',
  action: 'http://tempuri.org/SetOrder',
  qualifiedChildren: true,
};

/** Parsed with namespaces kept, as a strict server reads it. */
const strict = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@', parseTagValue: false });

describe('soapEnvelope', () => {
  it('prefixes only the operation element for an unqualified (JAX-WS) schema, and repeats list elements', () => {
    const xml = soapEnvelope(JAX_WS, { wsUserName: 'YKTEST', ShippingOrderVO: [{ cargoKey: 'K1' }, { cargoKey: 'K2' }] });
    const doc = strict.parse(xml);
    const body = doc['soap:Envelope']['soap:Body'];
    expect(doc['soap:Envelope']['@xmlns:soap']).toBe('http://schemas.xmlsoap.org/soap/envelope/');
    expect(body['op:createShipment']['@xmlns:op']).toBe(JAX_WS.namespace);
    expect(body['op:createShipment'].wsUserName).toBe('YKTEST');
    expect(body['op:createShipment'].ShippingOrderVO).toEqual([{ cargoKey: 'K1' }, { cargoKey: 'K2' }]);
  });

  it('declares the namespace as the default on the operation for a qualified (.asmx) schema', () => {
    const doc = strict.parse(soapEnvelope(ASMX, { orderInfo: { Order: { IntegrationCode: 'CF1' } } }));
    const op = doc['soap:Envelope']['soap:Body'].SetOrder;
    expect(op['@xmlns']).toBe('http://tempuri.org/');
    expect(op.orderInfo.Order.IntegrationCode).toBe('CF1');
  });

  it('escapes markup in text, keeps Turkish letters, writes numbers and booleans as text and leaves out absent elements', () => {
    const xml = soapEnvelope(ASMX, { ReceiverName: 'Ayşe & Çağrı <Öz>', Address: 'İğdır Şişli', PieceCount: 2, IsCod: false, Note: undefined, Phone: null });
    expect(xml.startsWith('<?xml version="1.0" encoding="utf-8"?>')).toBe(true);
    expect(xml).toContain('<ReceiverName>Ayşe &amp; Çağrı &lt;Öz&gt;</ReceiverName>');
    expect(xml).toContain('<Address>İğdır Şişli</Address>');
    expect(xml).toContain('<PieceCount>2</PieceCount>');
    expect(xml).toContain('<IsCod>false</IsCod>');
    expect(xml).not.toContain('Note');
    expect(xml).not.toContain('Phone');
    expect(strict.parse(xml)['soap:Envelope']['soap:Body'].SetOrder.ReceiverName).toBe('Ayşe & Çağrı <Öz>');
  });

  it('uses the SOAP 1.2 envelope namespace for 1.2 operations', () => {
    expect(soapEnvelope({ ...ASMX, version: '1.2' }, {})).toContain('xmlns:soap="http://www.w3.org/2003/05/soap-envelope"');
  });
});

describe('readSoapAnswer', () => {
  it('reads the body whatever the prefixes, keeping every value as text (leading zeros, 14 digits)', () => {
    const answer = readSoapAnswer(
      `<?xml version="1.0"?><S:Envelope xmlns:S="http://schemas.xmlsoap.org/soap/envelope/"><S:Body><ns2:createShipmentResponse xmlns:ns2="urn:x">` +
        `<ShippingOrderResultVO><outFlag>0</outFlag><jobId>00123</jobId><barcode>12345678901234</barcode><name>Ayşe &amp; Co</name></ShippingOrderResultVO>` +
        `</ns2:createShipmentResponse></S:Body></S:Envelope>`,
    );
    expect(answer).toEqual({
      body: { createShipmentResponse: { ShippingOrderResultVO: { outFlag: '0', jobId: '00123', barcode: '12345678901234', name: 'Ayşe & Co' } } },
    });
  });

  it('reads SOAP 1.1 and 1.2 faults, the request’s fault as the client’s', () => {
    expect(
      readSoapAnswer(
        '<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body><soap:Fault><faultcode>soap:Client</faultcode><faultstring>Server did not recognize the value of HTTP Header SOAPAction: x.</faultstring></soap:Fault></soap:Body></soap:Envelope>',
      ),
    ).toEqual({ fault: { side: 'client', code: 'Client', message: 'Server did not recognize the value of HTTP Header SOAPAction: x.' } });
    expect(
      readSoapAnswer(
        '<soap:Envelope xmlns:soap="http://www.w3.org/2003/05/soap-envelope"><soap:Body><soap:Fault><soap:Code><soap:Value>soap:Receiver</soap:Value></soap:Code><soap:Reason><soap:Text xml:lang="en">Object reference not set</soap:Text></soap:Reason></soap:Fault></soap:Body></soap:Envelope>',
      ),
    ).toEqual({ fault: { side: 'server', code: 'Receiver', message: 'Object reference not set' } });
  });

  it('refuses what is not a SOAP envelope, and any document type declaration (entity expansion)', () => {
    expect(() => readSoapAnswer('<html><body>Bad gateway</body></html>')).toThrow('not a SOAP envelope');
    expect(() => readSoapAnswer('<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "aaaa">]><Envelope><Body>&a;</Body></Envelope>')).toThrow(
      'document type declaration',
    );
  });

  it('soapList and soapText read the shapes the parser gives', () => {
    expect(soapList(undefined)).toEqual([]);
    expect(soapList({ a: '1' })).toEqual([{ a: '1' }]);
    expect(soapList([{ a: '1' }, { a: '2' }])).toHaveLength(2);
    expect(soapText('x')).toBe('x');
    expect(soapText({ '#text': 'y' })).toBe('y');
    expect(soapText(undefined)).toBeUndefined();
  });
});

/** An OutboundHttp answering one canned response, recording the request. */
function fakeHttp(status: number, body: string, headers: Record<string, string> = {}) {
  const sent: OutboundRequest[] = [];
  const http: OutboundHttp = {
    request: async (request) => {
      sent.push(request);
      return { status, headers, body: Buffer.from(body, 'utf8'), truncated: false };
    },
    json: async () => {
      throw new Error('not used');
    },
    close: async () => undefined,
  };
  return { http, sent };
}
const WHO = { name: 'Aras', secret: 'user name and password' };
const envelope = (inner: string) => `<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body>${inner}</soap:Body></soap:Envelope>`;

describe('callSoap', () => {
  it('posts the envelope with SOAP 1.1 headers and answers the response element', async () => {
    const { http, sent } = fakeHttp(
      200,
      envelope('<SetOrderResponse xmlns="http://tempuri.org/"><SetOrderResult><ResultCode>0</ResultCode></SetOrderResult></SetOrderResponse>'),
    );
    const answer = await callSoap({ http, url: 'http://aras.test/service.asmx', carrierId: 7, who: WHO }, ASMX, {
      orderInfo: { Order: { IntegrationCode: 'CF1' } },
    });
    expect(answer).toEqual({ SetOrderResult: { ResultCode: '0' } });
    expect(sent[0].method).toBe('POST');
    expect(sent[0].headers).toMatchObject({ 'content-type': 'text/xml; charset=utf-8', soapaction: '"http://tempuri.org/SetOrder"' });
    expect(String(sent[0].body)).toContain('<IntegrationCode>CF1</IntegrationCode>');
  });

  it('sends the action in the content type for SOAP 1.2', async () => {
    const { http, sent } = fakeHttp(200, envelope('<SetOrderResponse/>'));
    await callSoap({ http, url: 'http://aras.test/', carrierId: 7, who: WHO }, { ...ASMX, version: '1.2' }, {});
    expect(sent[0].headers?.['content-type']).toBe('application/soap+xml; charset=utf-8; action="http://tempuri.org/SetOrder"');
  });

  it('a client fault (HTTP 500, as ASP.NET sends it) is the carrier’s refusal with its text; a server fault is a fault to retry', async () => {
    const client = fakeHttp(500, envelope('<soap:Fault><faultcode>soap:Client</faultcode><faultstring>Invalid IntegrationCode</faultstring></soap:Fault>'));
    const refused = await callSoap({ http: client.http, url: 'http://a/', carrierId: 7, who: WHO }, ASMX, {}).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(CarrierRefusedError);
    expect((refused as CarrierRefusedError).reason).toBe('Aras answered a SOAP fault (Client): Invalid IntegrationCode');

    const server = fakeHttp(500, envelope('<soap:Fault><faultcode>soap:Server</faultcode><faultstring>Timeout expired</faultstring></soap:Fault>'));
    await expect(callSoap({ http: server.http, url: 'http://a/', carrierId: 7, who: WHO }, ASMX, {})).rejects.toBeInstanceOf(RemoteUnavailableError);
  });

  it('an answer that is not an envelope: a status a retry can fix, refused credentials, or unusable', async () => {
    const call = (status: number, body: string, headers?: Record<string, string>) =>
      callSoap({ http: fakeHttp(status, body, headers).http, url: 'http://a/', carrierId: 7, who: WHO }, ASMX, {}).catch((e: unknown) => e);
    expect(await call(502, '<html>Bad Gateway</html>')).toBeInstanceOf(RemoteUnavailableError);
    const denied = await call(403, 'Forbidden');
    expect(denied).toBeInstanceOf(CarrierRefusedError);
    expect((denied as CarrierRefusedError).reason).toContain("refused the account's user name and password");
    const unusable = await call(200, 'not xml at all <');
    expect(unusable).toBeInstanceOf(RemoteUnavailableError);
    expect((unusable as Error).message).toContain('was not usable');
  });

  it('a call that never got an answer is a fault to retry, named without the host', async () => {
    const http: OutboundHttp = {
      request: async () => {
        throw new OutboundHttpError('TIMEOUT', 'headers timeout', { timeout: 'headers' });
      },
      json: async () => {
        throw new Error('not used');
      },
      close: async () => undefined,
    };
    const error = await callSoap({ http, url: 'http://secret-host.example/', carrierId: 7, who: WHO }, ASMX, {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RemoteUnavailableError);
    expect((error as Error).message).not.toContain('secret-host');
  });
});
