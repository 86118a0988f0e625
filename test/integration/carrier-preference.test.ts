import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { consignmentApi, draftBody, internationalDraftBody, type ConsignmentApi } from '../support/consignments';
import { DEFAULT_PRODUCTS, startMyDhlDouble, type MyDhlDouble } from '../support/carriers/mydhl-double';
import { startKolayGelsinDouble, type KolayGelsinDouble } from '../support/carriers/kolay-gelsin-double';
import { startTestService, type TestService } from '../support/test-service';

/**
 * Preference 1 (cheapest) and 2 (fastest) across every provider a customer can use: the sandbox carriers, a
 * Kolay Gelsin account priced by its rate table and a DHL Express account rated by the MyDHL double. The choice
 * and every quote considered are in the consignment's history; other customers' and disabled accounts are
 * never asked.
 */
let svc: TestService;
let dhl: MyDhlDouble;
let kg: KolayGelsinDouble;
let api: ConsignmentApi;
let key: string;
const ids: Record<'sendeo' | 'dhl' | 'disabled', number> = { sendeo: 0, dhl: 0, disabled: 0 };

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const sendeoAccount = (description: string, price: number, status = 1) => ({
  carrier: 'kolay_gelsin',
  description,
  status,
  credentials: { token: kg.token, customer_id: 20, address_id: 28 },
  settings: { base_url: kg.baseUrl, rates: { transit_days: 2, bands: [{ up_to: 10, price }], per_unit_above: 3, max: 50 } },
});

beforeAll(async () => {
  // DHL bills this account in TRY; its domestic product is dearer than in the default catalogue.
  dhl = await startMyDhlDouble({ currency: 'TRY', products: DEFAULT_PRODUCTS.map((p) => (p.productCode === 'N' ? { ...p, basePrice: 100 } : p)) });
  kg = await startKolayGelsinDouble();
  svc = await startTestService({ WEBHOOK_ALLOW_PRIVATE: '1' });
  ({ apiKey: key } = await svc.customer('Shops with three carriers'));
  api = consignmentApi(svc, key);
  const add = async (apiKey: string, body: object) => {
    const res = await svc.request({ method: 'POST', url: '/api/v1/carrier-accounts', apiKey, payload: body });
    expect(res.statusCode).toBe(201);
    return res.json().data.provider_id as number;
  };
  ids.sendeo = await add(key, sendeoAccount('Sendeo', 30));
  ids.dhl = await add(key, {
    carrier: 'dhl_express',
    description: 'DHL Express',
    credentials: { username: dhl.username, password: dhl.password, account_number: '123456789' },
    settings: { base_url: dhl.baseUrl },
  });
  // Cheaper, but disabled; and another customer's, cheaper still: neither may be asked.
  ids.disabled = await add(key, sendeoAccount('Sendeo (disabled)', 5, 0));
  await add((await svc.customer('Someone else')).apiKey, sendeoAccount('Other customer’s Sendeo', 1));
});
afterAll(async () => {
  await svc?.stop();
  await dhl?.close();
  await kg?.close();
});

/** The choice, as the processing entry of the history tells it (one entry per status change). */
const choiceIn = (details: Json) => {
  const processed = (details.details as Json[]).filter((d) => d.status === 2 || d.status === 3);
  expect(processed).toHaveLength(1);
  return (processed[0].message as string).split('. ').slice(1).join('. ');
};

describe('cheapest and fastest across carrier accounts', () => {
  it('cheapest: the Sendeo rate table beats the sandbox carriers and DHL; the history lists every quote', async () => {
    const done = await api.processed(draftBody({ preference: 1, reference_no: 'PREF-1' }));
    const details = await api.details(done.id);
    expect(details.provider.id ?? details.provider_id).toBe(ids.sendeo);
    const choice = choiceIn(details)!;
    expect(choice).toMatch(/^Carrier chosen: Sendeo \(#\d+\), the cheapest of 4 asked/);
    expect(choice).toContain('Sendeo (#' + ids.sendeo + '): 30.00 TRY, 2 days');
    expect(choice).toContain('DHL Express (#' + ids.dhl + '): ');
    expect(choice).not.toContain('disabled');
    expect(choice).not.toContain('Other customer');
    // DHL was asked through its rating operation, within its contract.
    const rated = dhl.requests.filter((r) => r.operation === 'rates.post');
    expect(rated.length).toBeGreaterThan(0);
    for (const r of rated) expect(r.validationErrors).toEqual([]);
  });

  it('fastest: a one-day tie goes to the cheaper of DHL Express Domestic and Sandbox Express', async () => {
    const done = await api.processed(draftBody({ preference: 2, reference_no: 'PREF-2' }));
    const details = await api.details(done.id);
    // DHL N: 100 + 2.5 × 3 kg = 107.50 TRY, 1 day; Sandbox Express: 135 TRY, 1 day; Sendeo: 2 days.
    expect(details.provider.id ?? details.provider_id).toBe(ids.dhl);
    expect(choiceIn(details)).toMatch(/^Carrier chosen: DHL Express \(#\d+\), the fastest of 4 asked/);
    expect(dhl.requests.filter((r) => r.operation === 'shipments.create').at(-1)!.body).toMatchObject({ productCode: 'N' });
  });

  it('international: Sendeo does not take it and says so; DHL Express is the cheapest', async () => {
    const done = await api.processed(
      internationalDraftBody([{ description: 'Kilim', gtip: '570210', origin: 'TR', currency_code: 'EUR', unit_price: 40, quantity: 1 }], {
        preference: 1,
        reference_no: 'PREF-3',
        invoice_number: 'INV-PREF-3',
      }),
    );
    const details = await api.details(done.id);
    expect(details.provider.id ?? details.provider_id).toBe(ids.dhl);
    expect(choiceIn(details)).toContain(`Sendeo (#${ids.sendeo}): does not take this shipment`);
  });

  it('a carrier that cannot be asked is left out with its reason, the rest still compared', async () => {
    dhl.failNext({ kind: 'status', status: 503 }, { operation: 'rates.post' });
    const done = await api.processed(draftBody({ preference: 1, reference_no: 'PREF-4' }));
    const details = await api.details(done.id);
    expect(details.provider.id ?? details.provider_id).toBe(ids.sendeo);
    expect(choiceIn(details)).toMatch(/DHL Express \(#\d+\): .*503/);
  });
});
