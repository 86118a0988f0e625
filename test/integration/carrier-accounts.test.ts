import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createCredentialsVault, loadCredentialsKey } from '../../src/carriers/credentials-vault';
import { createCarrierAccountService } from '../../src/services/carrier-accounts.service';
import { draftBody } from '../support/consignments';
import { startTestService, type TestService } from '../support/test-service';

let svc: TestService;
let key: string;
let other: string;

const API_KEY = 'remote-secret-key-7c4f9a21';
const body = (overrides: Record<string, unknown> = {}) => ({
  carrier: 'consignment_api',
  description: 'Our shipping service',
  credentials: { base_url: 'http://127.0.0.1:9/', api_key: API_KEY },
  settings: { preference: 1 },
  ...overrides,
});

beforeAll(async () => {
  svc = await startTestService();
  ({ apiKey: key } = await svc.customer('Accounts'));
  ({ apiKey: other } = await svc.customer('Someone else'));
});
afterAll(async () => svc?.stop());

const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, options: { payload?: object; apiKey?: string; lang?: string } = {}) =>
  svc.request({ method, url: `/api/v1${url}`, apiKey: options.apiKey ?? key, payload: options.payload, lang: options.lang });

describe('carrier accounts', () => {
  it('creates an account with a provider id of its own and never shows the credentials', async () => {
    const res = await call('POST', '/carrier-accounts', { payload: body() });
    expect(res.statusCode).toBe(201);
    const { data, message } = res.json();
    expect(message).toBe('Carrier account created successfully.');
    expect(data).toEqual({
      provider_id: expect.any(Number),
      carrier: 'consignment_api',
      description: 'Our shipping service',
      credentials_hint: '****9a21',
      settings: { preference: 1 },
      status: 1,
      // The remote at 127.0.0.1 is a private address (WEBHOOK_ALLOW_PRIVATE is off here): no status webhook,
      // and the reason names no host (the base_url is part of the credentials).
      status_webhook: {
        registered: false,
        error: 'the remote resolves to a private, loopback or link-local address (allowed only with WEBHOOK_ALLOW_PRIVATE=1)',
      },
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/),
      updated_at: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/),
    });
    expect(data.provider_id).toBeGreaterThan(1000);
    expect(res.body).not.toContain(API_KEY);
    expect(res.body).not.toContain('127.0.0.1');

    // At rest: sealed, not readable in the database.
    const { rows } = await svc.db.query<{ credentials: Uint8Array; credentials_hint: string }>(
      'SELECT credentials, credentials_hint FROM carrier_accounts WHERE provider_id = $1',
      [data.provider_id],
    );
    expect(rows[0].credentials_hint).toBe('****9a21');
    expect(Buffer.from(rows[0].credentials).includes(Buffer.from(API_KEY))).toBe(false);
    expect(Buffer.from(rows[0].credentials).includes(Buffer.from('base_url'))).toBe(false);

    for (const url of ['/carrier-accounts', `/carrier-accounts/${data.provider_id}`]) {
      const read = await call('GET', url);
      expect(read.statusCode).toBe(200);
      expect(read.body).not.toContain(API_KEY);
    }
    expect((await call('GET', `/carrier-accounts/${data.provider_id}`)).json().data).toEqual(data);
  });

  it('gives every account its own provider id and lists the customer’s own only', async () => {
    const a = (await call('POST', '/carrier-accounts', { payload: body({ description: 'A' }) })).json().data.provider_id;
    const b = (await call('POST', '/carrier-accounts', { payload: body({ description: 'B' }), apiKey: other })).json().data.provider_id;
    expect(b).not.toBe(a);
    const mine = (await call('GET', '/carrier-accounts?limit=100')).json().data;
    expect(mine.results.map((r: { provider_id: number }) => r.provider_id)).toContain(a);
    expect(mine.results.map((r: { provider_id: number }) => r.provider_id)).not.toContain(b);
    expect(mine).toMatchObject({ page: 1, limit: 100, total: mine.results.length });
  });

  it.each([
    ['en', 'Carrier account not found.'],
    ['tr', 'Kargo hesabı bulunamadı.'],
  ])('answers another customer’s account as not found (%s)', async (lang, message) => {
    const id = (await call('POST', '/carrier-accounts', { payload: body() })).json().data.provider_id;
    for (const [method, payload] of [['GET'], ['PUT', body()], ['DELETE']] as const) {
      const res = await call(method, `/carrier-accounts/${id}`, { apiKey: other, lang, payload });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ status: false, errors: [{ message }] });
    }
    expect((await call('GET', `/carrier-accounts/${id}`)).statusCode).toBe(200);
  });

  it('replaces the fields, keeping the stored credentials unless new ones are sent', async () => {
    const id = (await call('POST', '/carrier-accounts', { payload: body() })).json().data.provider_id;
    const kept = await call('PUT', `/carrier-accounts/${id}`, { payload: { carrier: 'consignment_api', description: 'Renamed', status: 0 } });
    expect(kept.statusCode).toBe(200);
    expect(kept.json().data).toMatchObject({ provider_id: id, description: 'Renamed', status: 0, settings: {}, credentials_hint: '****9a21' });
    const sealedBefore = (await svc.db.query<{ credentials: Uint8Array }>('SELECT credentials FROM carrier_accounts WHERE provider_id = $1', [id])).rows[0]
      .credentials;

    const rotated = await call('PUT', `/carrier-accounts/${id}`, {
      payload: body({ credentials: { base_url: 'https://ship.example.com', api_key: 'rotated-key-000042' } }),
    });
    expect(rotated.json().data).toMatchObject({ credentials_hint: '****0042', status: 1 });
    const sealedAfter = (await svc.db.query<{ credentials: Uint8Array }>('SELECT credentials FROM carrier_accounts WHERE provider_id = $1', [id])).rows[0]
      .credentials;
    expect(Buffer.from(sealedAfter).equals(Buffer.from(sealedBefore))).toBe(false);
  });

  it('opens the sealed credentials for the service’s own use, bound to their account', async () => {
    const id = (await call('POST', '/carrier-accounts', { payload: body() })).json().data.provider_id;
    // The row moved to another account would not open: the sealing is bound to the provider id.
    const { rows } = await svc.db.query<{ credentials: Uint8Array }>('SELECT credentials FROM carrier_accounts WHERE provider_id = $1', [id]);
    const target = (
      await call('POST', '/carrier-accounts', { payload: body({ credentials: { base_url: 'https://b.example.com', api_key: 'another-key-1111' } }) })
    ).json().data.provider_id;
    await svc.db.query('UPDATE carrier_accounts SET credentials = $2 WHERE provider_id = $1', [target, Buffer.from(rows[0].credentials)]);
    const { key: vaultKey } = await loadCredentialsKey(svc.runtime.config.credentialsKey, `${svc.runtime.config.dataDir}/credentials.key`);
    const accounts = createCarrierAccountService({ db: svc.db, vault: createCredentialsVault(vaultKey) });
    expect(await accounts.credentialsOf(id)).toEqual({ base_url: 'http://127.0.0.1:9/', api_key: API_KEY });
    await expect(accounts.credentialsOf(target)).rejects.toThrow();
  });

  it('refuses bad input with the envelope, naming each field, in the caller’s language', async () => {
    const res = await call('POST', '/carrier-accounts', {
      payload: { carrier: 'consignment_api', credentials: { base_url: 'not a url', api_key: '' }, status: 7 },
      lang: 'tr',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      status: false,
      errors: [{ field: 'status', message: 'Seçtiğiniz değer geçerli bir seçenek değil.' }],
    });
    const nested = await call('POST', '/carrier-accounts', { payload: body({ credentials: { base_url: 'not a url', api_key: '' } }), lang: 'tr' });
    expect(nested.json().errors).toEqual([
      { field: 'credentials.base_url', message: 'Seçtiğiniz değer geçerli bir seçenek değil.' },
      { field: 'credentials.api_key', message: 'Bu değer boş bırakılmamalıdır.' },
    ]);
    expect((await call('GET', '/carrier-accounts/abc')).statusCode).toBe(400);
  });

  it('deletes an account: gone from the customer’s view, the row kept for consignments booked with it', async () => {
    const id = (await call('POST', '/carrier-accounts', { payload: body() })).json().data.provider_id;
    const res = await call('DELETE', `/carrier-accounts/${id}`, { lang: 'tr' });
    expect(res.json()).toEqual({ status: true, message: 'Kargo hesabı başarıyla silindi.', data: { provider_id: id } });
    expect((await call('GET', `/carrier-accounts/${id}`)).statusCode).toBe(404);
    expect((await call('DELETE', `/carrier-accounts/${id}`)).statusCode).toBe(404);
    const { rows } = await svc.db.query<{ deleted: boolean }>('SELECT deleted_at IS NOT NULL AS deleted FROM carrier_accounts WHERE provider_id = $1', [id]);
    expect(rows).toEqual([{ deleted: true }]);
  });

  it('shows its current name in the lookups of a consignment drafted with it, in each caller’s language, the same answer again while nothing changed', async () => {
    const id = (await call('POST', '/carrier-accounts', { payload: body({ description: 'Merkez kargo' }) })).json().data.provider_id;
    const draft = await call('POST', '/consignments/draft', { payload: draftBody({ provider_id: id }) });
    expect(draft.statusCode).toBe(201);
    const lookup = (lang = 'en') => call('GET', `/consignments/${draft.json().data.id}/details`, { lang });

    const first = await lookup();
    expect(first.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(first.json().data).toMatchObject({ status: 24, status_message: 'New draft', provider: { id, name: 'Merkez kargo' } });
    // Answered from the read cache (PGlite) or read again (PostgreSQL): the same text either way.
    expect((await lookup()).body).toBe(first.body);
    expect((await lookup('tr')).json().data).toMatchObject({ status_message: 'Yeni taslak', provider: { name: 'Merkez kargo' } });
    expect((await call('GET', `/consignments/${draft.json().data.id}/details`, { apiKey: other })).statusCode).toBe(404);

    // A rename changes another table than the consignment's: its lookups still show the new name.
    expect((await call('PUT', `/carrier-accounts/${id}`, { payload: body({ description: 'Anadolu kargo' }) })).statusCode).toBe(200);
    expect((await lookup()).json().data.provider).toMatchObject({ id, name: 'Anadolu kargo' });
    expect((await lookup('tr')).json().data).toMatchObject({ status_message: 'Yeni taslak', provider: { name: 'Anadolu kargo' } });
  });
});
