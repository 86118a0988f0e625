import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { HEPSIBURADA_TEST_ACCOUNT, startHepsiburadaDouble, type HepsiburadaDouble } from '../support/marketplaces/hepsiburada-double';
import { TRENDYOL_TEST_SELLER, startTrendyolDouble, type TrendyolDouble, type TrendyolPackageRecord } from '../support/marketplaces/trendyol-double';
import { startTestService, type TestService } from '../support/test-service';
import { waitFor } from '../support/wait';

/**
 * A Trendyol order source through our HTTP API, its base_url pointing at the Trendyol test double written from
 * Trendyol's published seller API: packages pulled on the source's Temporal Schedule become drafts with the mapped
 * fields, a pull repeated makes nothing twice, a webhook notice (checked by the credential we generated) pulls at once
 * and a wrong one stores nothing, a changed address updates the draft, a cancelled package cancels it, processing
 * writes the tracking number back, and an outage is waited out without losing a package.
 */
let svc: TestService;
let ty: TrendyolDouble;
let hb: HepsiburadaDouble;
let key: string;
let sourceId: string;
let credential: string;

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

beforeAll(async () => {
  ty = await startTrendyolDouble();
  hb = await startHepsiburadaDouble();
  // The double listens on loopback: private targets allowed.
  svc = await startTestService({ WEBHOOK_ALLOW_PRIVATE: '1' });
  ({ apiKey: key } = await svc.customer('Trendyol seller'));
});
afterAll(async () => {
  await svc?.stop();
  await ty?.close();
  await hb?.close();
});

const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) => svc.request({ method, url: `/api/v1${url}`, apiKey: key, payload });
const notice = (headers: Record<string, string>) =>
  svc.request({
    method: 'POST',
    url: `/api/v1/order-sources/${sourceId}/push/notices`,
    headers: { 'content-type': 'application/json', ...headers },
    payload: '{}',
  });
const events = async () => (await call('GET', `/order-sources/${sourceId}/events?limit=100`)).json().data.results as Json[];
const eventsOf = async (pkg: TrendyolPackageRecord) => (await events()).filter((e) => e.order_id === String(pkg.json.shipmentPackageId));
const details = async (id: number) => (await call('GET', `/consignments/${id}/details`)).json().data as Json;
const place = () => ty.placeOrder({ lines: [{ barcode: '9900000000486', quantity: 2 }], whoPays: 'seller' });
/** The package's draft, once its create event made it. */
const draftOf = (pkg: TrendyolPackageRecord) =>
  waitFor(
    `draft of package ${pkg.json.shipmentPackageId}`,
    async () => (await eventsOf(pkg)).find((e) => e.action === 'create' && e.state === 'drafted')?.consignment as number | undefined,
    { timeoutMs: 60_000, intervalMs: 500 },
  );

describe('a Trendyol order source', () => {
  it('is created with the seller API credentials (never shown again) and answers the webhook credential once', async () => {
    const res = await call('POST', '/order-sources', {
      platform: 'trendyol',
      name: 'Anadolu Butik (Trendyol)',
      credentials: { seller_id: TRENDYOL_TEST_SELLER.sellerId, api_key: TRENDYOL_TEST_SELLER.apiKey, api_secret: TRENDYOL_TEST_SELLER.apiSecret },
      settings: { base_url: ty.baseUrl, poll_interval: 60 },
      consignor: { name: 'Anadolu Butik', country: 'TR', city: 'Kadıköy', state: 'İstanbul', address: 'Moda Cad. No:12', phone_number: '+902165551122' },
      preference: 0,
      provider_id: 1,
      package: { weight: 1, length: 30, width: 20, height: 10 },
    });
    expect(res.statusCode).toBe(201);
    const data = res.json().data as Json;
    sourceId = data.id;
    credential = data.webhook_credential;
    expect(credential).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(JSON.stringify(data)).not.toContain(TRENDYOL_TEST_SELLER.apiSecret);
    expect(data.credentials_hint).toBe(`****${TRENDYOL_TEST_SELLER.apiSecret.slice(-4)}`);
    const shown = (await call('GET', `/order-sources/${sourceId}`)).json().data as Json;
    expect(shown.webhook_credential).toBeUndefined();
    // A shop's field on a marketplace, a marketplace without credentials: refused, naming them.
    const bad = await call('POST', '/order-sources', { platform: 'hepsiburada', name: 'x', secret: 'abcdefghij', consignor: { name: 'A' } });
    expect(bad.statusCode).toBe(400);
    expect((bad.json().errors as Json[]).map((e) => e.field)).toEqual(expect.arrayContaining(['secret', 'credentials', 'settings.user_agent']));
  });

  it('makes a draft of each package placed, with the mapped fields, within one pull; pulling again makes nothing twice', async () => {
    const placed = [place(), place(), place()];
    expect((await notice({ 'x-api-key': credential })).json().data.outcome).toBe('pull');
    const ids = await Promise.all(placed.map(draftOf));
    // The first pull registered our webhook at Trendyol: the source's delivery URL, our credential as its API key.
    const hooks = [...ty.webhooks.values()];
    expect(hooks).toEqual([
      expect.objectContaining({
        url: expect.stringMatching(new RegExp(`/api/v1/order-sources/${sourceId}/push/notices$`)),
        authenticationType: 'API_KEY',
        apiKey: credential,
      }),
    ]);
    expect((await call('GET', `/order-sources/${sourceId}`)).json().data.settings.webhook_id).toBe(hooks[0].id);
    const first = await details(ids[0]);
    const address = placed[0].json.shipmentAddress;
    expect(first).toMatchObject({
      status: 24,
      reference_no: `${placed[0].json.orderNumber}-${placed[0].json.shipmentPackageId}`,
      consignee: { name: `${address.firstName} ${address.lastName}`, city: address.district, country: 'Türkiye' },
    });
    expect(first.packages[0].items[0]).toMatchObject({ quantity: 2 });
    const before = (await events()).length;
    expect((await notice({ 'x-api-key': credential })).statusCode).toBe(200);
    await waitFor('the second pull', async () => ((await call('GET', `/order-sources/${sourceId}`)).json().data.last_pull?.events === 0 ? true : undefined), {
      timeoutMs: 30_000,
    });
    expect(await events()).toHaveLength(before);
  }, 120_000);

  it('refuses a notice without the credential with a 401, storing nothing', async () => {
    const before = (await events()).length;
    const wrong = await notice({ 'x-api-key': 'not-the-credential' });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json().status).toBe(false);
    expect((await notice({})).statusCode).toBe(401);
    // Basic auth with the credential as the password is Trendyol's other authentication.
    const basic = await notice({ authorization: `Basic ${Buffer.from(`consignflow:${credential}`).toString('base64')}` });
    expect(basic.statusCode).toBe(200);
    expect((await events()).length).toBe(before);
  });

  it('updates the draft when the package’s address is fixed, and cancels it when the package is cancelled', async () => {
    const pkg = place();
    await notice({ 'x-api-key': credential });
    const id = await draftOf(pkg);
    ty.changeAddress(pkg.json.shipmentPackageId, { address1: 'Büyükdere Caddesi No:185', district: 'Beşiktaş', districtId: 0 });
    await notice({ 'x-api-key': credential });
    await waitFor('the address fix', async () => ((await details(id)).consignee.city === 'Beşiktaş' ? true : undefined), { timeoutMs: 60_000 });
    expect((await eventsOf(pkg)).map((e) => [e.action, e.state])).toEqual(
      expect.arrayContaining([
        ['create', 'drafted'],
        ['update', 'drafted'],
      ]),
    );
    ty.cancel(pkg.json.shipmentPackageId);
    await notice({ 'x-api-key': credential });
    await waitFor('the cancellation', async () => ((await details(id)).status === 10 ? true : undefined), { timeoutMs: 60_000 });
  }, 150_000);

  it('writes the tracking number back once the draft is processed', async () => {
    const pkg = place();
    await notice({ 'x-api-key': credential });
    const id = await draftOf(pkg);
    const processed = await call('POST', `/consignments/draft/${id}/start-process`);
    expect(processed.statusCode).toBe(200);
    const trackingCode = processed.json().data.providerTrackingCode as string;
    await notice({ 'x-api-key': credential });
    await waitFor('the write-back', async () => ((await eventsOf(pkg)).find((e) => e.action === 'create')?.write_back?.state === 'done' ? true : undefined), {
      timeoutMs: 60_000,
    });
    expect(ty.packages.get(pkg.json.shipmentPackageId)!.trackingUpdates.map((u) => u.trackingNumber)).toEqual([trackingCode]);
  }, 120_000);

  it("labels a package Trendyol ships itself with Trendyol's common label, booking no other carrier and writing nothing back", async () => {
    const pkg = ty.placeOrder({ lines: [{ barcode: '9900000000486', quantity: 1 }], whoPays: 'trendyol', carrier: 'TEX' });
    await notice({ 'x-api-key': credential });
    const id = await draftOf(pkg);
    const source = (await call('GET', `/order-sources/${sourceId}`)).json().data as Json;
    const tracking = String(pkg.json.cargoTrackingNumber);
    // The draft goes to the marketplace's own carrier (the account made with the source), not to the source's default.
    expect((await details(id)).provider).toMatchObject({ id: source.settings.carrier_provider_id });
    const processed = await call('POST', `/consignments/draft/${id}/start-process`, { label_format: 'zpl' });
    expect(processed.statusCode).toBe(200);
    expect(processed.json().data.providerTrackingCode).toBe(tracking);
    const zpl = Buffer.from(processed.json().data.base64label, 'base64').toString('utf8');
    // Trendyol's own label, bytes as Trendyol made them.
    const made = ty.packages.get(pkg.json.shipmentPackageId)!.label!.labels;
    expect(made.length).toBeGreaterThan(0);
    for (const label of made) expect(zpl).toContain(label);
    expect(ty.packages.get(pkg.json.shipmentPackageId)!.trackingUpdates).toHaveLength(0);
    const event = (await eventsOf(pkg)).find((e) => e.action === 'create');
    expect(event?.write_back?.state).toBe('not-needed');
  }, 120_000);

  it('waits a marketplace outage out without losing a package', async () => {
    ty.outage(true);
    const pkg = place();
    await notice({ 'x-api-key': credential });
    await waitFor('the failed pull shown', async () => ((await call('GET', `/order-sources/${sourceId}`)).json().data.last_pull?.error ? true : undefined), {
      timeoutMs: 30_000,
    });
    ty.outage(false);
    expect(await draftOf(pkg)).toBeGreaterThan(0);
  }, 150_000);

  it('pauses the source’s schedule when it is disabled, and removes it when the source is deleted', async () => {
    const current = (await call('GET', `/order-sources/${sourceId}`)).json().data as Json;
    const replaced = await call('PUT', `/order-sources/${sourceId}`, {
      platform: 'trendyol',
      name: current.name,
      settings: current.settings,
      consignor: current.consignor,
      preference: 0,
      provider_id: 1,
      package: current.package,
      status: 0,
    });
    expect(replaced.statusCode).toBe(200);
    const handle = svc.runtime.client.schedule.getHandle(`order-source-pull:${sourceId}`);
    expect((await handle.describe()).state.paused).toBe(true);
    expect((await call('DELETE', `/order-sources/${sourceId}`)).statusCode).toBe(200);
    await expect(handle.describe()).rejects.toThrow();
  });
});

describe('a Hepsiburada order source', () => {
  let hbSource: string;
  let hbCredential: string;
  const hbEvents = async () => (await call('GET', `/order-sources/${hbSource}/events?limit=100`)).json().data.results as Json[];

  it('pulls an order shipped with the merchant’s own carrier into a draft, and writes the tracking number back once it is processed', async () => {
    const created = await call('POST', '/order-sources', {
      platform: 'hepsiburada',
      name: 'Anadolu Butik (Hepsiburada)',
      credentials: { merchant_id: HEPSIBURADA_TEST_ACCOUNT.merchantId, service_key: HEPSIBURADA_TEST_ACCOUNT.serviceKey },
      // The sandbox carrier (provider 1) is written back as Yurtiçi Kargo: Hepsiburada knows carriers by its own codes.
      settings: { base_url: hb.baseUrl, user_agent: HEPSIBURADA_TEST_ACCOUNT.userAgent, carrier_codes: { '1': 'YK' } },
      consignor: { name: 'Anadolu Butik', country: 'TR', city: 'Kadıköy', state: 'İstanbul', address: 'Moda Cad. No:12', phone_number: '+902165551122' },
      preference: 0,
      provider_id: 1,
      package: { weight: 1, length: 30, width: 20, height: 10 },
    });
    expect(created.statusCode).toBe(201);
    hbSource = created.json().data.id;
    hbCredential = created.json().data.webhook_credential;
    const order = hb.placeOrder({ cargoCompany: 'MP' });
    // Hepsiburada's push (unsigned, Basic auth with the credential we gave) to a path under the source's URL.
    const push = await svc.request({
      method: 'POST',
      url: `/api/v1/order-sources/${hbSource}/push/notices/orders`,
      headers: { 'content-type': 'application/json', authorization: `Basic ${Buffer.from(`hepsiburada:${hbCredential}`).toString('base64')}` },
      payload: JSON.stringify({ orderNumber: order.orderNumber }),
    });
    expect(push.json().data.outcome).toBe('pull');
    const id = await waitFor(
      'the draft of the order',
      async () => (await hbEvents()).find((e) => e.order_id === order.orderNumber && e.state === 'drafted')?.consignment as number | undefined,
      { timeoutMs: 60_000, intervalMs: 500 },
    );
    expect((await details(id)).reference_no).toBe(`${order.orderNumber}-${order.orderNumber}`);
    const processed = await call('POST', `/consignments/draft/${id}/start-process`);
    expect(processed.statusCode).toBe(200);
    const notice = await svc.request({
      method: 'PUT',
      url: `/api/v1/order-sources/${hbSource}/push/notices/packages/x/intransit`,
      headers: { authorization: `Basic ${Buffer.from(`hepsiburada:${hbCredential}`).toString('base64')}` },
    });
    expect(notice.statusCode).toBe(200);
    await waitFor('the write-back', async () => ((await hbEvents()).find((e) => e.action === 'create')?.write_back?.state === 'done' ? true : undefined), {
      timeoutMs: 60_000,
    });
    const intransit = hb.writeBacks.find((w) => w.operation === 'intransit')!;
    expect(JSON.stringify(intransit.body)).toContain(processed.json().data.providerTrackingCode);
  }, 150_000);
});
