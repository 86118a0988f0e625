import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { setTimeout as sleep } from 'node:timers/promises';
import { consignmentWorkflowId } from '../../src/temporal/consignment.starter';
import { startTestService, type TestService } from '../support/test-service';

let svc: TestService;
let key: string;
let customerCode: string;

const minimal = (extra: Record<string, unknown> = {}) => ({
  consignor: { name: 'Ayşe Yılmaz', country: 'TR', city: 'İstanbul' },
  consignee: { name: 'Mehmet Öz', country: 'TR', city: 'Ankara' },
  ...extra,
});

const createDraft = (body: unknown, headers: Record<string, string> = {}, lang?: string) =>
  svc.request({ method: 'POST', url: '/api/v1/consignments/draft', apiKey: key, lang, headers, payload: body as object });

beforeAll(async () => {
  svc = await startTestService();
  ({ apiKey: key, customerCode } = await svc.customer('Draft tests'));
});
afterAll(async () => svc?.stop());

describe('create draft (docs/api.md)', () => {
  it('creates a draft with status 24, weights, desi and the draft shape', async () => {
    const res = await createDraft(
      minimal({
        reference_no: 'REF-SHAPE',
        preference: 1,
        consignor: { name: 'Ayşe', attention_name: 'Depo', country: 'tur', city: 'İstanbul', phone_number: '+905551112233', email: 'a@example.com' },
        consignee: { name: 'Hans', country: 'DE', city: 'Berlin' },
        packages: [
          {
            package_type: 1,
            post_type: 4,
            weight: 1.25,
            length: 30,
            width: 20,
            height: 10,
            items: [{ description: 'Mug', currency_code: 'eur', unit_price: 9.5, quantity: 2, gtip: '691200' }],
          },
          { package_type: 2, weight: 0.5, length: 10, width: 10, height: 10 },
        ],
      }),
    );
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body.status).toBe(true);
    expect(body.message).toBe('Draft consignment created successfully.');
    const d = body.data;
    expect(d).toMatchObject({
      status: 24,
      status_message: 'New draft',
      barcode: null,
      reference_no: 'REF-SHAPE',
      preference: 1,
      provider_id: null,
      weight: 1.75,
      desi: 2.33,
      consignment_type: 2,
      incoterms_type: 2,
    });
    expect(d.packages[0]).toMatchObject({
      package_type: 1,
      post_type: 4,
      weight: 1.25,
      desi: 2,
      items: [{ description: 'Mug', currency: 'EUR', unit_price: 9.5, quantity: 2, gtip: '691200' }],
    });
    expect(d.packages[1].desi).toBe(0.33);
    expect(d.consignor).toEqual({
      name: 'Ayşe',
      attention_name: 'Depo',
      country: 'Türkiye',
      country_iso3: 'TUR',
      state: null,
      city: 'İstanbul',
      address: null,
      postal_code: null,
      phone: '+905551112233',
      email: 'a@example.com',
    });
    expect(d.created_at).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    expect(typeof d.id).toBe('number');
    expect(d.uuid).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('creates a draft with no packages: empty list, weight and desi 0, domestic', async () => {
    const res = await createDraft(minimal());
    expect(res.statusCode).toBe(201);
    expect(res.json().data).toMatchObject({ packages: [], weight: 0, desi: 0, consignment_type: 1, documents: [], special_services: [] });
  });

  it.each([
    ['en', 'This value should not be blank.'],
    ['tr', 'Bu değer boş bırakılmamalıdır.'],
  ])('requires consignor and consignee (%s)', async (lang, message) => {
    const res = await createDraft({ consignor: { name: 'x' } }, {}, lang);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ status: false, errors: [{ message, field: 'consignee' }] });
    expect(res.headers['content-language']).toBe(lang);
  });

  it('names nested fields in error paths and reports every issue', async () => {
    const res = await createDraft(
      minimal({
        consignee: { name: 'x'.repeat(256), country: 'ZZ' },
        packages: [{ items: [{ description: 'ok' }, { gtip: '1'.repeat(17) }] }],
      }),
    );
    expect(res.statusCode).toBe(400);
    const fields = res
      .json()
      .errors.map((e: { field: string }) => e.field)
      .sort();
    expect(fields).toEqual(['consignee.country', 'consignee.name', 'packages.0.items.1.gtip']);
    const gtip = res.json().errors.find((e: { field: string }) => e.field === 'packages.0.items.1.gtip');
    expect(gtip.message).toBe('This value is too long. It should have 16 characters or less.');
  });

  it.each([
    ['en', 'When preference is specific, provider_id must not be null'],
    ['tr', 'Tercih belirli olduğunda provider_id boş olmamalıdır'],
  ])('applies the preference rule (%s)', async (lang, message) => {
    const res = await createDraft(minimal({ preference: 0 }), {}, lang);
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual([{ message, field: 'provider_id' }]);
  });

  it('refuses an unknown provider_id', async () => {
    const res = await createDraft(minimal({ preference: 0, provider_id: 999 }));
    expect(res.statusCode).toBe(400);
    expect(res.json().errors[0].field).toBe('provider_id');
  });

  it.each([
    ['en', 'reference_no: This reference number is already used. Please use a unique reference number.'],
    ['tr', 'reference_no: Bu referans numarası zaten kullanılıyor. Lütfen benzersiz bir referans numarası kullanın.'],
  ])('refuses a used reference_no (%s)', async (lang, message) => {
    const ref = `REF-DUP-${lang}`;
    expect((await createDraft(minimal({ reference_no: ref }))).statusCode).toBe(201);
    const res = await createDraft(minimal({ reference_no: ref }), {}, lang);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ status: false, errors: [{ message, field: 'reference_no' }] });
  });

  it('keeps reference_no unique per customer under concurrent requests', async () => {
    const results = await Promise.all(Array.from({ length: 12 }, () => createDraft(minimal({ reference_no: 'REF-RACE' }))));
    const codes = results.map((r) => r.statusCode).sort();
    expect(codes.filter((c) => c === 201)).toHaveLength(1);
    expect(codes.filter((c) => c === 409)).toHaveLength(11);
    const { rows } = await svc.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM consignments WHERE reference_no = 'REF-RACE'`);
    expect(rows[0].n).toBe(1);
  });

  it('lets another customer use the same reference_no', async () => {
    const other = await svc.customer('Other');
    expect((await createDraft(minimal({ reference_no: 'REF-SHARED' }))).statusCode).toBe(201);
    const res = await svc.request({
      method: 'POST',
      url: '/api/v1/consignments/draft',
      apiKey: other.apiKey,
      payload: minimal({ reference_no: 'REF-SHARED' }),
    });
    expect(res.statusCode).toBe(201);
  });

  it('runs each draft as a lifecycle workflow with search attributes, started by the outbox relay', async () => {
    const res = await createDraft(minimal({ reference_no: 'REF-TEMPORAL' }));
    const { id, uuid } = res.json().data;
    // The answer came from the read model; the relay starts the workflow right after.
    await svc.runtime.relay!.drained();
    const handle = svc.runtime.client.workflow.getHandle(consignmentWorkflowId(uuid));
    const description = await handle.describe();
    expect(description.status.name).toBe('RUNNING');
    const attrs = description.typedSearchAttributes;
    expect(attrs.getAll().map((p) => [p.key.name, p.value])).toEqual(
      expect.arrayContaining([
        ['ConsignmentId', id],
        ['ReferenceNo', 'REF-TEMPORAL'],
        ['ConsignmentStatus', 'NEW_DRAFT'],
        ['CustomerCode', customerCode],
      ]),
    );
    // Operators find it by reference in the UI's query language (visibility is eventually consistent).
    let found: string[] = [];
    for (let i = 0; i < 50 && found.length === 0; i++) {
      found = [];
      for await (const wf of svc.runtime.client.workflow.list({ query: `ReferenceNo = "REF-TEMPORAL" AND CustomerCode = "${customerCode}"` }))
        found.push(wf.workflowId);
      if (found.length === 0) await sleep(200);
    }
    expect(found).toEqual([consignmentWorkflowId(uuid)]);
  });
});

describe('idempotent creation', () => {
  it('replays the first response for the same key and body', async () => {
    const body = minimal({ reference_no: 'REF-IDEM-1' });
    const first = await createDraft(body, { 'idempotency-key': 'idem-1' });
    const second = await createDraft(body, { 'idempotency-key': 'idem-1' });
    expect(first.statusCode).toBe(201);
    expect(second.statusCode).toBe(201);
    expect(second.json()).toEqual(first.json());
    expect(second.headers['idempotent-replayed']).toBe('true');
  });

  it('refuses the same key with a different body (422)', async () => {
    await createDraft(minimal({ reference_no: 'REF-IDEM-2' }), { 'idempotency-key': 'idem-2' });
    const res = await createDraft(minimal({ reference_no: 'REF-IDEM-2b' }), { 'idempotency-key': 'idem-2' }, 'tr');
    expect(res.statusCode).toBe(422);
    expect(res.json().errors[0].message).toBe('Bu Idempotency-Key farklı bir istek gövdesiyle zaten kullanıldı.');
  });

  it('produces one record for concurrent duplicates', async () => {
    const body = minimal({ reference_no: 'REF-IDEM-3' });
    const results = await Promise.all(Array.from({ length: 10 }, () => createDraft(body, { 'idempotency-key': 'idem-3' })));
    expect(results.map((r) => r.statusCode)).toEqual(Array(10).fill(201));
    expect(new Set(results.map((r) => r.json().data.id)).size).toBe(1);
    const { rows } = await svc.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM consignments WHERE reference_no = 'REF-IDEM-3'`);
    expect(rows[0].n).toBe(1);
  });

  it('scopes keys to the customer', async () => {
    const other = await svc.customer('Idem other');
    const a = await createDraft(minimal(), { 'idempotency-key': 'idem-shared' });
    const b = await svc.request({
      method: 'POST',
      url: '/api/v1/consignments/draft',
      apiKey: other.apiKey,
      headers: { 'idempotency-key': 'idem-shared' },
      payload: minimal(),
    });
    expect(b.statusCode).toBe(201);
    expect(b.json().data.id).not.toBe(a.json().data.id);
  });

  it('does not remember validation failures', async () => {
    expect((await createDraft({ consignor: {} }, { 'idempotency-key': 'idem-4' })).statusCode).toBe(400);
    expect((await createDraft(minimal(), { 'idempotency-key': 'idem-4' })).statusCode).toBe(201);
  });
});

describe('update draft (docs/api.md)', () => {
  it('changes only the sent fields, keeps status 24 and moves updated_at', async () => {
    const created = (
      await createDraft(minimal({ reference_no: 'REF-UPD', invoice_number: 'INV-1', packages: [{ weight: 2, length: 10, width: 10, height: 30 }] }))
    ).json().data;
    await sleep(1100);
    const res = await svc.request({
      method: 'PUT',
      url: `/api/v1/consignments/draft/${created.id}`,
      apiKey: key,
      lang: 'tr',
      payload: { consignee: { city: 'İzmir' }, invoice_number: 'INV-2' },
    });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.message).toBe('Taslak gönderi başarıyla güncellendi.');
    expect(body.data).toMatchObject({
      id: created.id,
      status: 24,
      status_message: 'Yeni taslak',
      invoice_number: 'INV-2',
      reference_no: 'REF-UPD',
      weight: 2,
      desi: 1,
    });
    expect(body.data.consignee).toMatchObject({ name: 'Mehmet Öz', city: 'İzmir', country: 'Türkiye' });
    expect(body.data.consignee).not.toHaveProperty('attention_name');
    expect(body.data.packages.map((p: { id: number }) => p.id)).toEqual(created.packages.map((p: { id: number }) => p.id));
    expect(body.data.updated_at > created.updated_at).toBe(true);
  });

  it('replaces packages when they are sent', async () => {
    const created = (await createDraft(minimal({ packages: [{ weight: 1 }] }))).json().data;
    const res = await svc.request({
      method: 'PUT',
      url: `/api/v1/consignments/draft/${created.id}`,
      apiKey: key,
      payload: { packages: [{ weight: 3 }, { weight: 4 }] },
    });
    expect(res.json().data.weight).toBe(7);
    expect(res.json().data.packages).toHaveLength(2);
  });

  it('keeps each item with its package and both in the order sent, created and replaced, in the answer and as stored', async () => {
    const shape = (packages: { weight: number; items: { description: string }[] }[]) =>
      packages.map((p) => ({ weight: p.weight, items: p.items.map((i) => i.description) }));
    // The detail form has no package weights: its items tell the packages apart.
    const items = (packages: { items: { description: string }[] }[]) => packages.map((p) => p.items.map((i) => i.description));
    const stored = async (id: number) =>
      items((await svc.request({ method: 'GET', url: `/api/v1/consignments/${id}/details`, apiKey: key })).json().data.packages);
    const packages = [
      { weight: 2, items: [{ description: 'Çaydanlık' }, { description: 'Bardak' }, { description: 'Tabak' }] },
      { weight: 1, items: [] },
      { weight: 5, items: [{ description: 'Halı' }] },
    ];
    const created = (await createDraft(minimal({ packages }))).json().data;
    expect(shape(created.packages)).toEqual(shape(packages));
    expect(await stored(created.id)).toEqual(items(packages));

    const replaced = [
      { weight: 3, items: [{ description: 'Kilim' }] },
      { weight: 4, items: [{ description: 'Yastık' }, { description: 'Yorgan' }] },
    ];
    const res = await svc.request({ method: 'PUT', url: `/api/v1/consignments/draft/${created.id}`, apiKey: key, payload: { packages: replaced } });
    expect(shape(res.json().data.packages)).toEqual(shape(replaced));
    expect(await stored(created.id)).toEqual(items(replaced));
    const ids = (await svc.request({ method: 'GET', url: `/api/v1/consignments/${created.id}/details`, apiKey: key }))
      .json()
      .data.packages.map((p: { id: number }) => p.id);
    expect(ids.some((id: number) => created.packages.some((p: { id: number }) => p.id === id))).toBe(false);
  });

  it.each([
    ['en', 'Consignment not found.'],
    ['tr', 'Gönderi bulunamadı.'],
  ])('answers a missing draft with not found (%s)', async (lang, message) => {
    const res = await svc.request({ method: 'PUT', url: '/api/v1/consignments/draft/987654321', apiKey: key, lang, payload: { invoice_number: 'x' } });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ status: false, errors: [{ message }] });
  });

  it("treats another customer's draft as not found", async () => {
    const created = (await createDraft(minimal())).json().data;
    const other = await svc.customer('Intruder');
    const res = await svc.request({ method: 'PUT', url: `/api/v1/consignments/draft/${created.id}`, apiKey: other.apiKey, payload: { invoice_number: 'x' } });
    expect(res.statusCode).toBe(404);
  });

  it('refuses a reference used by another record', async () => {
    await createDraft(minimal({ reference_no: 'REF-TAKEN' }));
    const created = (await createDraft(minimal({ reference_no: 'REF-MINE' }))).json().data;
    const res = await svc.request({ method: 'PUT', url: `/api/v1/consignments/draft/${created.id}`, apiKey: key, payload: { reference_no: 'REF-TAKEN' } });
    expect(res.statusCode).toBe(409);
    expect(res.json().errors[0]).toMatchObject({ field: 'reference_no' });
    expect(res.json().errors[0].message.startsWith('reference_no:')).toBe(true);
    // re-sending its own reference is not a conflict
    const same = await svc.request({ method: 'PUT', url: `/api/v1/consignments/draft/${created.id}`, apiKey: key, payload: { reference_no: 'REF-MINE' } });
    expect(same.statusCode).toBe(200);
  });

  it.each([
    ['en', 'Consignment not found or not in draft status.'],
    ['tr', 'Gönderi bulunamadı veya taslak durumunda değil.'],
  ])('refuses a record that is no longer a draft (%s)', async (lang, message) => {
    const created = (await createDraft(minimal())).json().data;
    // Processing arrives with the lifecycle work; here the read model alone says the record left status 24.
    await svc.db.query('UPDATE consignments SET status = 1 WHERE id = $1', [created.id]);
    const res = await svc.request({ method: 'PUT', url: `/api/v1/consignments/draft/${created.id}`, apiKey: key, lang, payload: { invoice_number: 'x' } });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ status: false, errors: [{ message }] });
    const { rows } = await svc.db.query<{ invoice_number: string | null }>('SELECT invoice_number FROM consignments WHERE id = $1', [created.id]);
    expect(rows[0].invoice_number).toBeNull();
  });

  it('validates the patch with field paths and rejects a bad id', async () => {
    const created = (await createDraft(minimal())).json().data;
    const bad = await svc.request({
      method: 'PUT',
      url: `/api/v1/consignments/draft/${created.id}`,
      apiKey: key,
      payload: { consignor: { phone_number: '1'.repeat(21) } },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors).toEqual([{ message: 'This value is too long. It should have 20 characters or less.', field: 'consignor.phone_number' }]);
    const badId = await svc.request({ method: 'PUT', url: '/api/v1/consignments/draft/abc', apiKey: key, payload: {} });
    expect(badId.statusCode).toBe(400);
    expect(badId.json().errors[0].field).toBe('draft_consignment_id');
  });
});

describe('lookups (docs/api.md) on drafts', () => {
  it('finds a draft by reference and by id in the detail form', async () => {
    const created = (
      await createDraft(minimal({ reference_no: 'REF/LOOK UP', preference: 0, provider_id: 1, packages: [{ weight: 1, items: [{ category: 'Kitchen' }] }] }))
    ).json().data;
    const byRef = await svc.request({ method: 'GET', url: `/api/v1/consignments/find/reference_no/${encodeURIComponent('REF/LOOK UP')}`, apiKey: key });
    expect(byRef.statusCode).toBe(200);
    const byId = await svc.request({ method: 'GET', url: `/api/v1/consignments/${created.id}/details`, headers: { authorization: `APIKEY ${key}` } });
    expect(byId.statusCode).toBe(200);
    expect(byId.json()).toEqual(byRef.json());
    const d = byId.json().data;
    expect(byId.json().message).toBeNull();
    expect(d).toMatchObject({
      id: created.id,
      parent: null,
      type: 'NORMAL',
      labels: [],
      consignmentType: 1,
      status: 24,
      warehouse_id: null,
      consignee_id: null,
    });
    expect(d.consignor).toMatchObject({ countryIso3: 'TUR', attention_name: null });
    expect(d.packages[0]).toMatchObject({ quantity: 1, items: [{ category: 'Kitchen' }] });
    expect(d.details).toEqual([expect.objectContaining({ status: 24, status_name: 'NEW_DRAFT', status_description: 'New draft', location: null })]);
    expect(d.provider).toMatchObject({ id: 1, logo: expect.stringMatching(/^http:\/\//) });
    expect(d.customer).toMatchObject({ customer_code: customerCode });
    expect(d.permissions).toHaveProperty('can_create_cn22', false);
  });

  it.each([
    ['en', 'Consignment not found.'],
    ['tr', 'Gönderi bulunamadı.'],
  ])('answers unknown and foreign records with not found (%s)', async (lang, message) => {
    const created = (await createDraft(minimal({ reference_no: `REF-FOREIGN-${lang}` }))).json().data;
    const other = await svc.customer('Foreign');
    for (const url of ['/api/v1/consignments/find/reference_no/NOPE', '/api/v1/consignments/99999999/details']) {
      const res = await svc.request({ method: 'GET', url, apiKey: key, lang });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ status: false, errors: [{ message }] });
    }
    for (const url of [`/api/v1/consignments/find/reference_no/REF-FOREIGN-${lang}`, `/api/v1/consignments/${created.id}/details`]) {
      const res = await svc.request({ method: 'GET', url, apiKey: other.apiKey, lang });
      expect(res.statusCode).toBe(404);
      expect(res.json().errors[0].message).toBe(message);
    }
  });
});
