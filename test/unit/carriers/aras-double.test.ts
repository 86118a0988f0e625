import { XMLParser } from 'fast-xml-parser';
import {
  ARAS_TEST_ORDER_CREDENTIALS,
  ARAS_TEST_QUERY_CREDENTIALS,
  startArasDouble,
  type ArasDouble,
  type ArasDoubleOptions,
} from '../../support/carriers/aras-double';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

interface Answer {
  status: number;
  contentType: string;
  text: string;
  /** the parsed envelope's Body, namespace prefixes removed */
  body: Json;
}

const SOAP11 = 'http://schemas.xmlsoap.org/soap/envelope/';
const SOAP12 = 'http://www.w3.org/2003/05/soap-envelope';
const reader = new XMLParser({
  removeNSPrefix: true,
  ignoreAttributes: true,
  parseTagValue: false,
  isArray: (name) => ['OrderResultInfo', 'Order', 'PieceDetail'].includes(name),
});

let double: ArasDouble;
let clock: Date;

async function post(url: string, body: string, headers: Record<string, string>, timeoutMs = 5000): Promise<Answer> {
  const res = await fetch(url, { method: 'POST', headers, body, signal: AbortSignal.timeout(timeoutMs) });
  const text = await res.text();
  let parsed: Json = {};
  try {
    parsed = (reader.parse(text) as Json).Envelope?.Body ?? {};
  } catch {
    parsed = {};
  }
  return { status: res.status, contentType: res.headers.get('content-type') ?? '', text, body: parsed };
}

/** A SOAP 1.1 call of the .asmx order service, the operation element in tempuri's default namespace (or under `tem:`). */
function order(operation: string, inner: string, opts: { action?: string; prefixed?: boolean; timeoutMs?: number } = {}): Promise<Answer> {
  const op = opts.prefixed ? `tem:${operation}` : operation;
  const xml =
    `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="${SOAP11}" xmlns:tem="http://tempuri.org/"><soap:Body>` +
    `<${op}${opts.prefixed ? '' : ' xmlns="http://tempuri.org/"'}>${inner}</${op}></soap:Body></soap:Envelope>`;
  return post(
    double.orderServiceUrl,
    xml,
    { 'content-type': 'text/xml; charset=utf-8', soapaction: `"${opts.action ?? `http://tempuri.org/${operation}`}"` },
    opts.timeoutMs,
  );
}

const creds = (userName: string = ARAS_TEST_ORDER_CREDENTIALS.userName, password: string = ARAS_TEST_ORDER_CREDENTIALS.password) =>
  `<userName>${userName}</userName><password>${password}</password>`;

/** An Order element; `fields` override or (undefined) remove the defaults, `pieces` replace the piece details. */
function orderXml(fields: Record<string, string | undefined> = {}, pieces?: Record<string, string>[], prefix = ''): string {
  const all: Record<string, string | undefined> = {
    UserName: ARAS_TEST_ORDER_CREDENTIALS.userName,
    Password: ARAS_TEST_ORDER_CREDENTIALS.password,
    TradingWaybillNumber: 'C164436',
    InvoiceNumber: 'FC164436',
    IntegrationCode: 'CF100001',
    ReceiverName: 'Ayşe Yılmaz',
    ReceiverAddress: 'Rüzgarlıbahçe Mah. Yavuzsultanselim Cad. No:2 Kavacık',
    ReceiverPhone1: '05321112233',
    ReceiverCityName: 'İSTANBUL',
    ReceiverTownName: 'BEYKOZ',
    PieceCount: '2',
    PayorTypeCode: '1',
    IsWorldWide: '0',
    ...fields,
  };
  const el = (name: string, value: string) => `<${prefix}${name}>${value}</${prefix}${name}>`;
  const details = (pieces ?? [{ BarcodeNumber: `${all.IntegrationCode ?? 'X'}01` }, { BarcodeNumber: `${all.IntegrationCode ?? 'X'}02` }])
    .map((p) =>
      el(
        'PieceDetail',
        Object.entries(p)
          .map(([k, v]) => el(k, v))
          .join(''),
      ),
    )
    .join('');
  const scalars = Object.entries(all).flatMap(([k, v]) => (v === undefined ? [] : [el(k, v)]));
  return el('Order', `${scalars.join('')}${el('PieceDetails', details)}`);
}

const setOrder = (orders: string | string[], opts: { userName?: string; password?: string } = {}) =>
  order('SetOrder', `<orderInfo>${([] as string[]).concat(orders).join('')}</orderInfo>${creds(opts.userName, opts.password)}`);
const results = (a: Answer): Json[] => a.body.SetOrderResponse.SetOrderResult.OrderResultInfo;
const result = (a: Answer): Json => results(a)[0];
const lookup = (code: string, opts: { userName?: string; password?: string } = {}) =>
  order('GetOrderWithIntegrationCode', `${creds(opts.userName, opts.password)}<integrationCode>${code}</integrationCode>`);
const lookedUp = (a: Answer): Json[] => a.body.GetOrderWithIntegrationCodeResponse.GetOrderWithIntegrationCodeResult?.Order ?? [];
const cancel = (code: string, opts: { userName?: string; password?: string } = {}) =>
  order('CancelDispatch', `${creds(opts.userName, opts.password)}<integrationCode>${code}</integrationCode>`);
const cancelResult = (a: Answer): Json => a.body.CancelDispatchResponse.CancelDispatchResult;

/** A GetQueryJSON/GetQueryXML call of the WCF query service with its own LoginInfo (escaped XML strings, as the documents show). */
function query(
  queryInfo: Record<string, string>,
  opts: { operation?: 'GetQueryJSON' | 'GetQueryXML'; login?: { userName?: string; password?: string; customerCode?: string } } = {},
): Promise<Answer> {
  const l = { ...ARAS_TEST_QUERY_CREDENTIALS, ...opts.login };
  const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  const login = `<LoginInfo><UserName>${l.userName}</UserName><Password>${l.password}</Password><CustomerCode>${l.customerCode}</CustomerCode></LoginInfo>`;
  const info = `<QueryInfo>${Object.entries(queryInfo)
    .map(([k, v]) => `<${k}>${v}</${k}>`)
    .join('')}</QueryInfo>`;
  const op = opts.operation ?? 'GetQueryJSON';
  const xml = `<s:Envelope xmlns:s="${SOAP11}"><s:Body><${op} xmlns="http://tempuri.org/"><loginInfo>${esc(login)}</loginInfo><queryInfo>${esc(info)}</queryInfo></${op}></s:Body></s:Envelope>`;
  return post(double.queryServiceUrl, xml, {
    'content-type': 'text/xml; charset=utf-8',
    soapaction: `"http://tempuri.org/IArasCargoIntegrationService/${op}"`,
  });
}
const queryResult = (a: Answer): Json => JSON.parse(a.body.GetQueryJSONResponse.GetQueryJSONResult as string) as Json;

async function withDouble(options: ArasDoubleOptions, fn: () => Promise<void>): Promise<void> {
  const saved = double;
  double = await startArasDouble({ now: () => clock, ...options });
  try {
    await fn();
  } finally {
    await double.close();
    double = saved;
  }
}

beforeEach(async () => {
  clock = new Date('2025-03-10T07:30:00Z'); // 10:30 in Türkiye
  double = await startArasDouble({ now: () => clock });
});
afterEach(async () => {
  await double.close();
});

describe('Aras double: SetOrder', () => {
  it("accepts the document's own SOAP 1.2 example and stores the order with its piece barcodes", async () => {
    const xml = `<soap:Envelope xmlns:soap="${SOAP12}" xmlns:tem="http://tempuri.org/"><soap:Header/><soap:Body><SetOrder xmlns="http://tempuri.org/"><orderInfo><Order>
      <UserName>neodyum</UserName><Password>nd2580</Password><TradingWaybillNumber>9423012</TradingWaybillNumber><InvoiceNumber>6902001888</InvoiceNumber>
      <ReceiverName>NEDİM DEMİRCİ</ReceiverName><ReceiverAddress>xxxxx CAD. yyyyy SOK. NO:7</ReceiverAddress><ReceiverPhone1>02121111111</ReceiverPhone1>
      <ReceiverCityName>İSTANBUL</ReceiverCityName><ReceiverTownName>GAZİOSMANPAŞA</ReceiverTownName><VolumetricWeight>1</VolumetricWeight><PieceCount>1</PieceCount>
      <IntegrationCode>6154197713</IntegrationCode><PayorTypeCode>1</PayorTypeCode><PieceDetails><PieceDetail><VolumetricWeight>3</VolumetricWeight><Weight>2</Weight>
      <BarcodeNumber>79792027121</BarcodeNumber><ProductNumber /><Description /></PieceDetail></PieceDetails><SenderAccountAddressId /></Order></orderInfo>
      <userName>neodyum</userName><password>nd2580</password></SetOrder></soap:Body></soap:Envelope>`;
    const res = await post(double.orderServiceUrl, xml, { 'content-type': 'application/soap+xml; charset=utf-8; action="http://tempuri.org/SetOrder"' });
    expect(res.status).toBe(200);
    expect(res.contentType).toMatch(/^application\/soap\+xml/);
    expect(res.text).toContain(SOAP12);
    expect(result(res)).toEqual({ ResultCode: '0', ResultMessage: 'Başarılı', InvoiceKey: '6902001888', OrgReceiverCustId: '6154197713' });
    const stored = double.orders.get('6154197713')!;
    expect(stored.pieces.map((p) => p.BarcodeNumber)).toEqual(['79792027121']);
    expect(stored.fields.ReceiverTownName).toBe('GAZİOSMANPAŞA');
    expect(double.requests[0]).toMatchObject({ operation: 'SetOrder', soapVersion: '1.2', outcome: 'ok', resultCodes: [0], unknownFields: [] });
  });

  it('accepts SOAP 1.1 with a `tem:` prefix on every element, and answers one OrderResultInfo per order', async () => {
    const inner = `<tem:orderInfo>${orderXml({}, undefined, 'tem:')}${orderXml({ IntegrationCode: 'CF100002' }, undefined, 'tem:')}</tem:orderInfo>`;
    const res = await order('SetOrder', `${inner}<tem:userName>neodyum</tem:userName><tem:password>nd2580</tem:password>`, { prefixed: true });
    expect(res.status).toBe(200);
    expect(res.contentType).toMatch(/^text\/xml/);
    expect(results(res).map((r) => r.ResultCode)).toEqual(['0', '0']);
    expect([...double.orders.keys()]).toEqual(['CF100001', 'CF100002']);
  });

  it("refuses with the documents' codes and messages, in a normal 200 answer", async () => {
    const cases: [Record<string, string | undefined>, string, string][] = [
      [{ IntegrationCode: undefined }, '937', 'Sipariş Numarasını Girmeniz Gerekmektedir'],
      [{ ReceiverAddress: '' }, '938', 'Alıcı Adresini Girmeniz Gerekmektedir'],
      [{ ReceiverName: undefined }, '939', 'Alıcı Adını Girmeniz Gerekmektedir'],
      [{ ReceiverCityName: 'GOTHAM' }, '940', 'Şehir Adını Girmeniz Gerekmektedir'],
      [{ ReceiverTownName: 'ÇANKAYA' }, '941', 'İlçe Adını Girmeniz Gerekmektedir'],
      [{ ReceiverPhone1: '+90 532 111 22 33' }, '935', 'ReceiverPhone1 (Telefon 1) alanı sadece sayılardan oluşmalıdır.'],
      [{ ReceiverAddress: 'x'.repeat(251) }, '70018', 'ReceiverAddress alanı en fazla 250 karakter olabilir'],
      [{ InvoiceNumber: 'F'.repeat(21) }, '70019', 'InvoiceKey alanı en fazla 20 karakter olabilir'],
      [{ PayorTypeCode: '3' }, '70032', 'Ödeme Tipi (PayorTypeCode) sadece 1 veya 2 olabilir. Farklı bir değer göndermemeniz gerekmektedir.'],
      [{ IsCod: 'E' }, '70034', '(IsCod) sadece 0 veya 1 olabilir. Farklı bir değer göndermemeniz gerekmektedir.'],
      [
        { IsCod: '1', CodAmount: '150', CodCollectionType: '2' },
        '70033',
        'Tahsilat Tipi (CodCollectionType) sadece 0 veya 1 olabilir. Farklı bir değer göndermemeniz gerekmektedir.',
      ],
      [{ IsCod: '1', CodAmount: '150', PayorTypeCode: '2' }, '942', 'Alıcı Ödemeli Tahsilatlı Kargo Gönderisi Yapılamamaktadır'],
      [{ IsCod: '1', CodAmount: '0' }, '936', 'Güncelleme hatası'],
      [{ PieceCount: '3' }, '70020', 'Toplam parça sayısı ile gönderilen parça sayısı eşit değil'],
      [{ PieceCount: undefined }, '70021', 'Toplam parça sayısını göndermeniz gerekmektedir'],
      [{ TradingWaybillNumber: undefined }, '936', 'Güncelleme hatası'],
      [{ TradingWaybillNumber: 'T'.repeat(17) }, '936', 'Güncelleme hatası'],
      [{ VolumetricWeight: '1,5' }, '70026', 'Volume değeri decimal bir alan olmalıdır'],
    ];
    for (const [fields, code, message] of cases) {
      const res = await setOrder(orderXml(fields));
      expect(res.status).toBe(200);
      expect({ fields, ...result(res) }).toEqual({ fields, ResultCode: code, ResultMessage: message });
    }
    expect(double.orders.size).toBe(0);
    expect(double.requests.every((r) => r.outcome === 'refused' && r.validationErrors.length === 1)).toBe(true);
  });

  it('checks the piece details: barcode present, unique in the order, not used by another order, decimal weights', async () => {
    const cases: [Record<string, string>[], string, string][] = [
      [[{ BarcodeNumber: 'B1' }, { Weight: '1' }], '70022', 'CF100001 Sipariş Numaralı gönderinin parça bilgilerinde barcode bilgisi eksik'],
      [[{ BarcodeNumber: 'B1' }, { BarcodeNumber: 'B1' }], '70030', 'Parçaların barkod numaraları aynı olamaz'],
      [[{ BarcodeNumber: 'B1', Weight: '1,2' }, { BarcodeNumber: 'B2' }], '70028', 'Kg değeri decimal bir alan olmalıdır'],
    ];
    for (const [pieces, code, message] of cases) expect(result(await setOrder(orderXml({}, pieces)))).toEqual({ ResultCode: code, ResultMessage: message });
    expect(result(await setOrder(orderXml({ IntegrationCode: 'OTHER-1' }, [{ BarcodeNumber: 'B1' }, { BarcodeNumber: 'B2' }]))).ResultCode).toBe('0');
    const reused = await setOrder(orderXml({}, [{ BarcodeNumber: 'B2' }, { BarcodeNumber: 'B3' }]));
    expect(result(reused)).toEqual({ ResultCode: '70027', ResultMessage: 'Bu barkod daha önce gönderilmiş' });
  });

  it('refuses wrong credentials (call or order) with 1000 and an empty orderInfo with 60021', async () => {
    expect(result(await setOrder(orderXml(), { password: 'wrong' }))).toEqual({ ResultCode: '1000', ResultMessage: 'Kullanıcı Adı ve Şifreniz Yanlıştır' });
    expect(result(await setOrder(orderXml({ Password: 'wrong' }))).ResultCode).toBe('1000');
    expect(result(await setOrder(orderXml({ UserName: undefined }))).ResultCode).toBe('1000');
    expect(result(await setOrder([]))).toEqual({ ResultCode: '60021', ResultMessage: 'En az bir adet sipariş bilgisi göndermeniz gerekmektedir' });
    expect(double.orders.size).toBe(0);
  });

  it('ignores elements outside tempuri or with another casing, and records them (here the credentials go missing: 1000)', async () => {
    const res = await order(
      'SetOrder',
      `<orderInfo>${orderXml({ ReceiverEmail: 'a@b.c' })}</orderInfo><username xmlns="">neodyum</username><password>nd2580</password>`,
    );
    expect(result(res).ResultCode).toBe('1000');
    expect(double.requests[0].unknownFields).toEqual(['username', 'orderInfo.Order[0].ReceiverEmail']);
  });
});

describe('Aras double: the same IntegrationCode again', () => {
  it('updates the order until the waybill is cut, then refuses 60020; the 21st send is refused 70035', async () => {
    expect(result(await setOrder(orderXml())).ResultCode).toBe('0');
    const again = await setOrder(orderXml({ ReceiverName: 'Ayşe Demir' }));
    expect(result(again)).toMatchObject({ ResultCode: '0', OrgReceiverCustId: 'CF100001' });
    expect(double.orders.size).toBe(1);
    expect(lookedUp(await lookup('CF100001'))[0].ReceiverName).toBe('Ayşe Demir');

    for (let i = 3; i <= 20; i++) expect(result(await setOrder(orderXml())).ResultCode).toBe('0');
    expect(result(await setOrder(orderXml()))).toEqual({
      ResultCode: '70035',
      ResultMessage: 'Bir siparişe ait bilgileri en fazla 20 kez gönderebilirsiniz. Bu siparişe ait yeni bir bilgi gönderemezsiniz.',
    });

    expect(result(await setOrder(orderXml({ IntegrationCode: 'CF100009' }))).ResultCode).toBe('0');
    double.advance('CF100009', 'received');
    expect(result(await setOrder(orderXml({ IntegrationCode: 'CF100009' })))).toEqual({
      ResultCode: '60020',
      ResultMessage: 'CF100009 Sipariş Numaralı gönderinin irsaliyesi kesildiği için bilgilerini güncelleyemezsiniz',
    });
  });
});

describe('Aras double: GetOrderWithIntegrationCode and GetOrder', () => {
  it('answers what is held under the code (none when nothing), without the credentials', async () => {
    await setOrder(orderXml({ IsCod: '1', CodAmount: '149.90', CodCollectionType: '1' }));
    const found = lookedUp(await lookup('CF100001'));
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ IntegrationCode: 'CF100001', ReceiverCityName: 'İSTANBUL', PieceCount: '2', IsCod: '1', CodAmount: '149.90' });
    expect(found[0].PieceDetails.PieceDetail.map((p: Json) => p.BarcodeNumber)).toEqual(['CF10000101', 'CF10000102']);
    expect(found[0].UserName).toBeUndefined();
    expect(found[0].Password).toBeUndefined();

    const none = await lookup('NOPE');
    expect(none.status).toBe(200);
    expect(lookedUp(none)).toEqual([]);
  });

  it('faults wrong credentials (Order[] has no room for a result code)', async () => {
    const res = await lookup('CF100001', { password: 'x' });
    expect(res.status).toBe(500);
    expect(res.body.Fault).toMatchObject({ faultcode: 'soap:Server', faultstring: expect.stringContaining('Kullanıcı Adı ve Şifreniz Yanlıştır') });
  });

  it("GetOrder answers the orders sent on a Turkish day (dd.MM.yyyy, also with ',' or '/')", async () => {
    await setOrder(orderXml());
    clock = new Date('2025-03-10T21:30:00Z'); // already 11.03 in Türkiye
    await setOrder(orderXml({ IntegrationCode: 'CF100002' }));
    const day = async (date: string) =>
      (await order('GetOrder', `${creds()}<date>${date}</date>`)).body.GetOrderResponse.GetOrderResult?.Order?.map((o: Json) => o.IntegrationCode) ?? [];
    expect(await day('10.03.2025')).toEqual(['CF100001']);
    expect(await day('11/03/2025')).toEqual(['CF100002']);
    expect(await day('12,03,2025')).toEqual([]);
  });
});

describe('Aras double: the query service (Müşteri Bilgi Sorgulama)', () => {
  it('has nothing before the branch receives the cargo, then its status, tracking number and movements in Turkish time', async () => {
    await setOrder(orderXml());
    expect(queryResult(await query({ QueryType: '1', IntegrationCode: 'CF100001' }))).toEqual({ QueryResult: null });

    const at = (iso: string) => ({ at: new Date(iso) });
    double.advance('CF100001', 'received', at('2025-03-10T12:05:00Z'));
    double.advance('CF100001', 'inTransit', at('2025-03-10T16:40:00Z'));
    double.advance('CF100001', 'atDeliveryBranch', at('2025-03-11T05:10:00Z'));
    double.advance('CF100001', 'outForDelivery', at('2025-03-11T06:30:00Z'));
    let cargo = queryResult(await query({ QueryType: '1', IntegrationCode: 'CF100001' })).QueryResult.Cargo;
    expect(cargo).toMatchObject({ MUSTERI_OZEL_KODU: 'CF100001', DURUM_KODU: '4', DURUMU: 'TESLİMATTA', TIP_KODU: '1', CIKIS_TARIH: '10.03.2025', ADET: '2' });
    expect(cargo.KARGO_TAKIP_NO).toMatch(/^\d{13}$/);
    expect(cargo.TESLIM_ALAN).toBeUndefined();

    double.advance('CF100001', 'delivered', at('2025-03-11T11:47:00Z'));
    cargo = queryResult(await query({ QueryType: '1', IntegrationCode: 'CF100001' })).QueryResult.Cargo;
    expect(cargo).toMatchObject({
      DURUM_KODU: '6',
      DURUMU: 'TESLİM EDİLDİ',
      DURUM_EN: 'DELIVERED',
      TESLIM_ALAN: 'Ayşe Yılmaz',
      TESLIM_TARIHI: '11.03.2025',
      TESLIM_SAATI: '14:47',
    });

    const moves = queryResult(await query({ QueryType: '9', IntegrationCode: 'CF100001' })).QueryResult.CargoTransaction as Json[];
    expect(moves.map((m) => [m.ISLEM_TARIHI, m.ISLEM])).toEqual([
      ['10.03.2025 15:05:00', 'Kargo kabul'],
      ['10.03.2025 19:40:00', 'Şubede araç yükleme'],
      ['11.03.2025 08:10:00', 'Şubede araç indirme'],
      ['11.03.2025 09:30:00', 'Dağıtıma çıkış'],
      ['11.03.2025 14:47:00', 'Teslimat'],
    ]);
    expect(moves[0].BIRIM).toBe('KAVACIK');
    expect(moves[4].BIRIM).toBe('BEYKOZ');
  });

  it('shows a return (TİP KODU 3, İADE SEBEBİ) and a failed delivery (DEVİR KODU); GetQueryXML gives the same rows as XML', async () => {
    await setOrder(orderXml());
    double.advance('CF100001', 'received');
    double.advance('CF100001', 'notDelivered', { devirCode: 'AA' });
    expect(queryResult(await query({ QueryType: '1', IntegrationCode: 'CF100001' })).QueryResult.Cargo).toMatchObject({ DURUM_KODU: '3', DEVIR_KODU: 'AA' });
    double.advance('CF100001', 'returned', { reason: 'ALICI ADRESTE TANINMIYOR' });
    const xml = await query({ QueryType: '1', IntegrationCode: 'CF100001' }, { operation: 'GetQueryXML' });
    const cargo = reader.parse(xml.body.GetQueryXMLResponse.GetQueryXMLResult as string).QueryResult.Cargo;
    expect(cargo).toMatchObject({ TIP_KODU: '3', IADE_SEBEBI: 'ALICI ADRESTE TANINMIYOR' });
  });

  it('answers several codes (QueryType 11) as an array, and one row as an array with jsonRowShape "array"', async () => {
    await setOrder([orderXml(), orderXml({ IntegrationCode: 'CF100002' })]);
    double.advance('CF100001', 'received');
    double.advance('CF100002', 'received');
    const both = queryResult(await query({ QueryType: '11', IntegrationCode: 'CF100001,CF100002' })).QueryResult.Cargo as Json[];
    expect(both.map((c) => c.MUSTERI_OZEL_KODU)).toEqual(['CF100001', 'CF100002']);
    await withDouble({ jsonRowShape: 'array' }, async () => {
      await setOrder(orderXml());
      double.advance('CF100001', 'received');
      expect(queryResult(await query({ QueryType: '1', IntegrationCode: 'CF100001' })).QueryResult.Cargo).toHaveLength(1);
    });
  });

  it('needs its own LoginInfo with the CustomerCode; refuses an unknown action, SOAP 1.2 and an unemulated QueryType', async () => {
    const wrong = await query({ QueryType: '1', IntegrationCode: 'X' }, { login: { customerCode: '1' } });
    expect(wrong.status).toBe(500);
    expect(wrong.body.Fault.faultstring).toBe('Kullanıcı Adı ve Şifreniz Yanlıştır');

    const action = await post(double.queryServiceUrl, `<s:Envelope xmlns:s="${SOAP11}"><s:Body/></s:Envelope>`, {
      'content-type': 'text/xml',
      soapaction: 'http://tempuri.org/GetQueryJSON',
    });
    expect(action.status).toBe(500);
    expect(action.text).toContain('a:ActionNotSupported');

    const v12 = await post(double.queryServiceUrl, `<s:Envelope xmlns:s="${SOAP12}"/>`, { 'content-type': 'application/soap+xml' });
    expect(v12.status).toBe(415);
    expect((await query({ QueryType: '41' })).body.Fault.faultstring).toContain('not emulated');
  });
});

describe('Aras double: CancelDispatch', () => {
  it('deletes an order before pickup (ResultCode 1, "<code> Başarılı bir şekilde silindi."); then it is gone', async () => {
    await setOrder(orderXml());
    const res = await cancel('CF100001');
    expect(cancelResult(res)).toEqual({ ResultCode: '1', ResultMessage: 'CF100001 Başarılı bir şekilde silindi.' });
    expect(double.orders.has('CF100001')).toBe(false);
    expect(double.cancelled.map((o) => o.integrationCode)).toEqual(['CF100001']);
    expect(lookedUp(await lookup('CF100001'))).toEqual([]);
    expect(cancelResult(await cancel('CF100001'))).toEqual({ ResultCode: '-1', ResultMessage: 'Kayıt bulunamadı' });
  });

  it('refuses 999 once the branch received the cargo, and -2 for wrong credentials', async () => {
    await setOrder(orderXml());
    expect(cancelResult(await cancel('CF100001', { password: 'x' }))).toEqual({ ResultCode: '-2', ResultMessage: 'Kullanıcı adı ve Şifreniz hatalıdır.' });
    double.advance('CF100001', 'received');
    expect(cancelResult(await cancel('CF100001'))).toEqual({ ResultCode: '999', ResultMessage: 'İrsaliyesi Kesilmiş Sipariş İptal Edilemez.' });
    expect(double.orders.has('CF100001')).toBe(true);
    expect(double.requests.at(-1)).toMatchObject({ outcome: 'refused', resultCodes: [999] });
  });

  it('answers ResultCode 0 "Başarılı" with cancelSuccess "success"', async () => {
    await withDouble({ cancelSuccess: 'success' }, async () => {
      await setOrder(orderXml());
      expect(cancelResult(await cancel('CF100001'))).toEqual({ ResultCode: '0', ResultMessage: 'Başarılı' });
    });
  });
});

describe('Aras double: SOAP handling', () => {
  it('faults (HTTP 500) an unknown SOAPAction, malformed XML, the wrong body element and a SOAP version mismatch', async () => {
    const unknown = await order('Frobnicate', '');
    expect([unknown.status, unknown.body.Fault.faultcode]).toEqual([500, 'soap:Client']);
    expect(unknown.body.Fault.faultstring).toBe('Server did not recognize the value of HTTP Header SOAPAction: http://tempuri.org/Frobnicate.');

    const broken = await post(double.orderServiceUrl, '<soap:Envelope xmlns:soap="x"><soap:Body>', {
      'content-type': 'text/xml',
      soapaction: 'http://tempuri.org/SetOrder',
    });
    expect(broken.status).toBe(500);
    expect(broken.body.Fault.faultstring).toMatch(/^Server was unable to read request\. ---> There is an error in XML document/);

    const mismatch = await order('SetOrder', '', { action: 'http://tempuri.org/CancelDispatch' });
    expect(mismatch.body.Fault.faultstring).toContain("<SetOrder xmlns='http://tempuri.org/'> was not expected.");

    const v12in11 = await post(double.orderServiceUrl, `<soap:Envelope xmlns:soap="${SOAP12}"><soap:Body/></soap:Envelope>`, {
      'content-type': 'text/xml',
      soapaction: 'http://tempuri.org/SetOrder',
    });
    expect(v12in11.body.Fault.faultstring).toContain('Possible SOAP version mismatch');
    expect(double.requests.every((r) => r.outcome === 'fault' && r.status === 500)).toBe(true);
  });

  it('answers a non-SOAP media type with ASP.NET\'s "Request format is invalid", an unknown path with 404', async () => {
    const json = await post(double.orderServiceUrl, '{}', { 'content-type': 'application/json' });
    expect([json.status, json.text]).toEqual([500, 'System.InvalidOperationException: Request format is invalid: application/json.']);
    const missing = await post(`${double.baseUrl}/nothing.asmx`, '<x/>', { 'content-type': 'text/xml' });
    expect(missing.status).toBe(404);
  });

  it('advance() refuses an unknown order, a step before "received" and anything after delivery', async () => {
    await setOrder(orderXml());
    expect(() => double.advance('NOPE', 'received')).toThrow(/no order/);
    expect(() => double.advance('CF100001', 'inTransit')).toThrow(/not been received/);
    double.advance('CF100001', 'received');
    double.advance('CF100001', 'delivered');
    expect(() => double.advance('CF100001', 'returned')).toThrow(/already delivered/);
    expect(() => double.advance('CF100001', 'notDelivered', { devirCode: 'ZZ' })).toThrow();
  });
});

describe('Aras double: fault switches', () => {
  it('status: answers the HTTP status with an HTML page, without storing, for the chosen operation and times', async () => {
    double.failNext({ kind: 'status', status: 500 }, { operation: 'SetOrder', times: 2 });
    expect((await lookup('CF100001')).status).toBe(200);
    for (let i = 0; i < 2; i++) {
      const res = await setOrder(orderXml());
      expect(res.status).toBe(500);
      expect(res.contentType).toMatch(/^text\/html/);
    }
    expect(double.orders.size).toBe(0);
    expect(result(await setOrder(orderXml())).ResultCode).toBe('0');
  });

  it('soapFault: answers HTTP 500 soap:Server without storing', async () => {
    double.failNext({ kind: 'soapFault' });
    const res = await setOrder(orderXml());
    expect([res.status, res.body.Fault.faultcode]).toEqual([500, 'soap:Server']);
    expect(double.orders.size).toBe(0);
  });

  it('delay: a slow answer the caller gives up on; the order is stored all the same', async () => {
    double.failNext({ kind: 'delay', ms: 400 });
    await expect(order('SetOrder', `<orderInfo>${orderXml()}</orderInfo>${creds()}`, { timeoutMs: 100 })).rejects.toThrow();
    expect(double.orders.size).toBe(0);
    await new Promise((r) => setTimeout(r, 500));
    expect(double.orders.has('CF100001')).toBe(true);
    double.failNext({ kind: 'delay', ms: 150 });
    const started = Date.now();
    expect((await lookup('CF100001')).status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
  });

  it('applyThenHold: books and holds the answer while the caller gives up; a resend of the same code is an update', async () => {
    double.failNext({ kind: 'applyThenHold', ms: 2000 }, { operation: 'SetOrder' });
    await expect(order('SetOrder', `<orderInfo>${orderXml()}</orderInfo>${creds()}`, { timeoutMs: 150 })).rejects.toThrow();
    expect(double.orders.get('CF100001')?.sends).toBe(1);
    expect(lookedUp(await lookup('CF100001'))).toHaveLength(1);
    expect(result(await setOrder(orderXml())).ResultCode).toBe('0');
    expect(double.orders.get('CF100001')?.sends).toBe(2);
  });

  it('applyThenDrop: the order is stored though the caller sees a connection error', async () => {
    double.failNext({ kind: 'applyThenDrop' });
    await expect(setOrder(orderXml())).rejects.toThrow();
    expect(double.orders.has('CF100001')).toBe(true);
    expect(double.requests[0]).toMatchObject({ fault: 'applyThenDrop', outcome: 'ok', resultCodes: [0] });
    expect(double.requests[0].status).toBeUndefined();
  });

  it('drop and hang: nothing is done; clearFaults() removes queued faults', async () => {
    double.failNext({ kind: 'drop' });
    await expect(setOrder(orderXml())).rejects.toThrow();
    double.failNext({ kind: 'hang' });
    await expect(order('SetOrder', `<orderInfo>${orderXml()}</orderInfo>${creds()}`, { timeoutMs: 150 })).rejects.toThrow();
    expect(double.orders.size).toBe(0);
    double.failNext({ kind: 'status', status: 503 });
    double.clearFaults();
    expect(result(await setOrder(orderXml())).ResultCode).toBe('0');
  });
});
