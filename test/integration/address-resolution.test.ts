import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ensureAddressData } from '../../src/address/address-data';
import { consignmentApi, draftBody, type ConsignmentApi } from '../support/consignments';
import { startTestService, type TestService } from '../support/test-service';
import { waitFor } from '../support/wait';

/**
 * Address resolution through processing: with `address_resolver_type` 1 the parties' state, city and postal
 * code are corrected from Turkey's address data when it names one place, each change a history entry; with 2
 * a party the data cannot place refuses processing with field errors; with 0 nothing changes.
 */
type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

let svc: TestService;
let key: string;
let api: ConsignmentApi;

const consignee = (fields: Json) => ({ name: 'Mehmet Kaya', country: 'TR', address: 'Kızılay Mah. Atatürk Blv. 1', phone_number: '+905559998877', ...fields });

beforeAll(async () => {
  svc = await startTestService();
  await ensureAddressData(svc.db, { countries: ['TR'] });
  ({ apiKey: key } = await svc.customer('Adres'));
  api = consignmentApi(svc, key);
}, 120_000);
afterAll(async () => svc?.stop());

describe('address_resolver_type', () => {
  it('1: corrects a misspelt district and fills in the province before processing, each change in the history', async () => {
    const done = await api.processed(draftBody({ address_resolver_type: 1, consignee: consignee({ city: 'Cankya', state: 'Ankara', postal_code: '06690' }) }));
    const detail = await api.details(done.id);
    expect(detail.consignee).toMatchObject({ city: 'Çankaya', state: 'Ankara', postal_code: '06690' });
    const entries = (detail.details as Json[]).map((h) => h.message as string);
    expect(entries).toContain('Address corrected from the address data: consignee city "Cankya" → "Çankaya"');
    // The corrections come before the processing entry, in the draft's status.
    const correction = (detail.details as Json[]).findIndex((h) => /consignee city/.test(h.message));
    expect((detail.details as Json[])[correction].status).toBe(24);
    expect(correction).toBeLessThan((detail.details as Json[]).findIndex((h) => /^Label created/.test(h.message)));

    // A province written as the city, with a postal code: the code's district in that province.
    const province = await api.processed(draftBody({ address_resolver_type: 1, consignee: consignee({ city: 'ankara', postal_code: '06690' }) }));
    expect((await api.details(province.id)).consignee).toMatchObject({ city: 'Çankaya', state: 'Ankara' });
  });

  it('1: leaves a party the data cannot place as it was, and processes it', async () => {
    const done = await api.processed(draftBody({ address_resolver_type: 1, consignee: consignee({ city: 'Merkez', postal_code: null }) }));
    const detail = await api.details(done.id);
    expect(detail.consignee.city).toBe('Merkez');
    expect((detail.details as Json[]).some((h) => /Address corrected from the address data: consignee/.test(h.message))).toBe(false);
    // The consignor's city is a province ("İstanbul"): its state is filled in, its district cannot be.
    expect((detail.details as Json[]).map((h) => h.message)).toContain('Address corrected from the address data: consignor state (empty) → "İstanbul"');
  });

  it('2: refuses processing with a field error for each party the data cannot place, and changes nothing', async () => {
    const { id } = await api.draft(
      draftBody({
        address_resolver_type: 2,
        consignor: { name: 'Depo', country: 'TR', city: 'Merkez', address: 'Sanayi Sitesi 4', phone_number: '+902161234567' },
        consignee: consignee({ city: 'Çankaya', postal_code: '34710' }),
      }),
    );
    const res = await api.process(id);
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual([
      {
        field: 'consignor.city',
        message: expect.stringMatching(/^This address matches several places: Merkez \(Adıyaman\), .*\. Give the state or the postal code\.$/),
      },
      { field: 'consignee.postal_code', message: 'The postal code 34710 belongs to Kadıköy (İstanbul), not to the city and state given.' },
    ]);
    const tr = await api.process(id, undefined, 'tr');
    expect(tr.json().errors[1].message).toBe('34710 posta kodu Kadıköy (İstanbul) yerine ait; verilen il ve ilçeye değil.');
    const detail = await api.details(id);
    expect(detail.status).toBe(24);
    expect(detail.consignee).toMatchObject({ city: 'Çankaya', postal_code: '34710' });

    // Corrected in the processing request itself, it goes through, with the corrections it still needs.
    const fixed = await api.process(id, { consignor: { city: 'Merkez', state: 'Amasya' }, consignee: { city: 'Kadikoy' } });
    expect(fixed.statusCode).toBe(200);
    expect((await api.details(id)).consignee).toMatchObject({ city: 'Kadıköy', state: 'İstanbul', postal_code: '34710' });
  });

  it('0 (the default) changes nothing', async () => {
    const done = await api.processed(draftBody({ consignee: consignee({ city: 'Cankya', state: 'Ankara' }) }));
    expect((await api.details(done.id)).consignee.city).toBe('Cankya');
  });
});

describe('imports with address_resolver_type', () => {
  it('corrects each order before its draft is created and reports the corrections per row; 2 fails at processing the orders it cannot place', async () => {
    const csv = [
      'reference_no,consignee_name,consignee_phone,consignee_address,consignee_city,consignee_state,consignee_postal_code,consignee_country,package_weight',
      'ADR-1,Müşteri Bir,+905551112233,Atatürk Blv. 1,Cankya,Ankara,06690,TR,1',
      'ADR-2,Müşteri İki,+905551112233,Moda Cd. 2,Kadıköy,,34710,TR,1',
      'ADR-3,Müşteri Üç,+905551112233,Cumhuriyet Cd. 3,Merkez,,,TR,1',
    ].join('\n');
    const consignor = {
      name: 'Depo',
      country: 'TR',
      city: 'Kadıköy',
      state: 'İstanbul',
      postal_code: '34710',
      address: 'Moda Cd. 1',
      phone_number: '+902161234567',
    };
    const started = await svc.request({
      method: 'POST',
      url: '/api/v1/imports',
      apiKey: key,
      payload: { preset: 'generic', process: true, provider_id: 1, address_resolver_type: 2, consignor, csv },
    });
    expect(started.statusCode).toBe(202);
    const id = started.json().data.id as string;
    const done = await waitFor(
      'the import to finish',
      async () => {
        const res = (await svc.request({ method: 'GET', url: `/api/v1/imports/${id}`, apiKey: key })).json().data;
        return res.state === 'completed' && res;
      },
      { timeoutMs: 60_000 },
    );
    expect(done.counts).toMatchObject({ orders: 3, processed: 2, failed: 1 });

    const corrections = (await svc.request({ method: 'GET', url: `/api/v1/imports/${id}/corrections`, apiKey: key })).json().data;
    expect(corrections.results).toEqual([
      { row: 2, order: 'ADR-1', field: 'consignee.city', from: 'Cankya', to: 'Çankaya' },
      { row: 3, order: 'ADR-2', field: 'consignee.state', from: null, to: 'İstanbul' },
    ]);
    expect(corrections.total).toBe(2);
    const errors = (await svc.request({ method: 'GET', url: `/api/v1/imports/${id}/errors`, apiKey: key })).json().data.results;
    expect(errors).toEqual([
      expect.objectContaining({ row: 4, order: 'ADR-3', message: expect.stringMatching(/^This address matches several places: Merkez/) }),
    ]);

    const first = (await svc.request({ method: 'GET', url: '/api/v1/consignments/find/reference_no/ADR-1', apiKey: key })).json().data;
    expect(first.consignee.city).toBe('Çankaya');
    expect((first.details as Json[]).map((h) => h.message)).toContain('Address corrected from the address data: consignee city "Cankya" → "Çankaya"');
    expect((await svc.request({ method: 'GET', url: `/api/v1/imports/${id}/corrections`, apiKey: (await svc.customer('Başka')).apiKey })).statusCode).toBe(404);
  });

  it('refuses an address_resolver_type other than 0, 1 or 2', async () => {
    const res = await svc.request({
      method: 'POST',
      url: '/api/v1/imports',
      apiKey: key,
      payload: { preset: 'generic', address_resolver_type: 3, csv: 'reference_no\nX\n' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual([{ field: 'address_resolver_type', message: expect.any(String) }]);
  });
});
