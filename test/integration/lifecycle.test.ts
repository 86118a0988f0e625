import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { isServiceBarcode } from '../../src/carriers/barcode';
import { consignmentWorkflowId } from '../../src/temporal/consignment.starter';
import { consignmentApi, draftBody, party, waitForStatus, type ConsignmentApi } from '../support/consignments';
import { startTestService, type TestService } from '../support/test-service';

let svc: TestService;
let key: string;
let consignments: ConsignmentApi;

const cancel = (value: string | number, lang?: string) =>
  svc.request({ method: 'POST', url: `/api/v1/consignments/${encodeURIComponent(String(value))}/cancel`, apiKey: key, lang });

/** Cancelling `value` is refused with 409, in either language with its message. */
async function expectCancelRefused(value: string | number, messages: { en: string; tr: string }) {
  for (const [lang, message] of Object.entries(messages)) {
    const res = await cancel(value, lang);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ status: false, errors: [{ message }] });
  }
}

beforeAll(async () => {
  svc = await startTestService();
  ({ apiKey: key } = await svc.customer('Lifecycle'));
  consignments = consignmentApi(svc, key);
});
afterAll(async () => svc?.stop());

describe('process draft (docs/api.md)', () => {
  it('books the cheapest carrier, returns the processing data with a PDF label, and moves to 2 or 3', async () => {
    const { id } = await consignments.draft(draftBody({ reference_no: 'LC-CHEAP' }));
    const res = await consignments.process(id);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.message).toBe('Draft consignment processed: the label was created and the consignment sent to the carrier.');
    expect(Object.keys(body.data).sort()).toEqual([
      'barcode',
      'base64label',
      'consignment',
      'contentType',
      'providerTrackingCode',
      'svcBarcode',
      'trackingUrl',
    ]);
    expect(body.data.consignment).toBe(id);
    expect(isServiceBarcode(body.data.barcode)).toBe(true);
    expect(body.data.svcBarcode).toBe(body.data.barcode);
    expect(body.data.contentType).toBe('application/pdf');
    expect(Buffer.from(body.data.base64label, 'base64').subarray(0, 5).toString()).toBe('%PDF-');
    const d = await consignments.details(id);
    // cheapest domestic carrier is provider 2 (drop-off → status 2)
    expect(d).toMatchObject({ status: 2, barcode: body.data.barcode, provider: { id: 2 } });
    expect(d.provider_base_cost).toBeGreaterThan(0);
    expect(d.total_cost).toBeCloseTo(d.provider_base_cost + d.service_fee + d.special_service_fee);
    expect(d.details.map((h: { status: number }) => h.status)).toEqual([24, 2]);
    expect(d.labels).toEqual([expect.objectContaining({ provider: 2, file_name: `${body.data.barcode}.pdf`, tracking_code: body.data.providerTrackingCode })]);
  });

  it('picks the fastest carrier for preference 2 (a pickup: status 3) and a ZPL label on request', async () => {
    const { id } = await consignments.draft(draftBody({ preference: 2 }));
    const res = await consignments.process(id, { label_format: 'zpl' });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.contentType).toBe('application/zpl');
    expect(Buffer.from(res.json().data.base64label, 'base64').toString()).toMatch(/^\^XA[\s\S]*\^XZ\s*$/);
    expect(await consignments.details(id)).toMatchObject({ status: 3, provider: { id: 1 } });
  });

  it('applies a body and processes in one request', async () => {
    const { id } = await consignments.draft({ consignor: party('İzmir', { name: 'A' }), consignee: { name: 'B' } });
    const res = await consignments.process(id, {
      preference: 0,
      provider_id: 1,
      consignee: party('Bursa', { name: 'Bora' }),
      packages: [{ weight: 1 }],
      reference_no: 'LC-BODY',
    });
    expect(res.statusCode).toBe(200);
    expect(await consignments.details(id)).toMatchObject({ reference_no: 'LC-BODY', provider: { id: 1 }, consignee: { city: 'Bursa' } });
  });

  it.each([
    ['en', 'This value should not be blank.'],
    ['tr', 'Bu değer boş bırakılmamalıdır.'],
  ])('lists every missing field and leaves the draft unchanged (%s)', async (lang, message) => {
    const { id } = await consignments.draft({ consignor: party('İzmir', { name: 'A' }), consignee: { name: 'B', country: 'TR' }, invoice_number: 'INV-0' });
    const res = await consignments.process(id, { invoice_number: 'INV-1' }, lang);
    expect(res.statusCode).toBe(400);
    const errors = res.json().errors as { field: string; message: string }[];
    expect(errors.map((e) => e.field).sort()).toEqual(['consignee.address', 'consignee.city', 'consignee.phone_number', 'packages', 'preference']);
    expect(errors[0].message).toBe(message);
    expect((await consignments.details(id)).status).toBe(24);
    const { rows } = await svc.db.query<{ invoice_number: string }>('SELECT invoice_number FROM consignments WHERE id = $1', [id]);
    expect(rows[0].invoice_number).toBe('INV-0');
  });

  it('requires customs data on every item across borders and state_code in the US', async () => {
    const { id } = await consignments.draft(
      draftBody({
        consignee: { ...party('Austin', { name: 'John', country: 'US' }) },
        packages: [{ weight: 1, items: [{ description: 'Tea', quantity: 1 }] }],
      }),
    );
    const res = await consignments.process(id);
    expect(res.statusCode).toBe(400);
    expect(
      res
        .json()
        .errors.map((e: { field: string }) => e.field)
        .sort(),
    ).toEqual(
      [
        'consignee.state_code',
        'packages.0.items.0.currency_code',
        'packages.0.items.0.gtip',
        'packages.0.items.0.origin',
        'packages.0.items.0.unit_price',
      ].sort(),
    );
  });

  it('refuses a shipment no carrier can take', async () => {
    const { id } = await consignments.draft(draftBody({ packages: [{ weight: 500 }] }));
    const res = await consignments.process(id);
    expect(res.statusCode).toBe(400);
    expect(res.json().errors[0].field).toBe('provider_id');
    expect((await consignments.details(id)).status).toBe(24);
  });

  it.each([
    ['en', 'Consignment not found or not in draft status.'],
    ['tr', 'Gönderi bulunamadı veya taslak durumunda değil.'],
  ])('answers a missing or processed draft with the draft-status error (%s)', async (lang, message) => {
    const missing = await consignments.process(99999999, undefined, lang);
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ status: false, errors: [{ message }] });
    const done = await consignments.processed(draftBody());
    const again = await consignments.process(done.id, undefined, lang);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ status: false, errors: [{ message }] });
    const update = await svc.request({ method: 'PUT', url: `/api/v1/consignments/draft/${done.id}`, apiKey: key, lang, payload: { invoice_number: 'x' } });
    expect(update.statusCode).toBe(409);
    expect(update.json().errors[0].message).toBe(message);
  });

  it('refuses a used reference in the process body', async () => {
    await consignments.draft(draftBody({ reference_no: 'LC-USED' }));
    const { id } = await consignments.draft(draftBody());
    const res = await consignments.process(id, { reference_no: 'LC-USED' });
    expect(res.statusCode).toBe(409);
    expect(res.json().errors[0].message.startsWith('reference_no:')).toBe(true);
  });

  it('books once per consignment even when processing is asked for twice at the same time', async () => {
    const { id, uuid } = await consignments.draft(draftBody());
    const results = await Promise.all(Array.from({ length: 6 }, () => consignments.process(id)));
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409, 409, 409, 409, 409]);
    const bookings = await svc.db.query<{ n: number }>('SELECT count(*)::int AS n FROM carrier_bookings WHERE booking_key = $1', [uuid]);
    const labels = await svc.db.query<{ n: number }>('SELECT count(*)::int AS n FROM labels WHERE consignment_id = $1', [id]);
    expect([bookings.rows[0].n, labels.rows[0].n]).toEqual([1, 1]);
  });

  it('shows status and barcode as search attributes', async () => {
    const done = await consignments.processed(draftBody());
    const { uuid } = await consignments.details(done.id);
    const attrs = (await svc.runtime.client.workflow.getHandle(consignmentWorkflowId(uuid)).describe()).typedSearchAttributes.getAll();
    expect(attrs.map((p) => [p.key.name, p.value])).toEqual(
      expect.arrayContaining([
        ['ConsignmentStatus', 'LABEL_CREATED'],
        ['Barcode', done.barcode],
        ['ProviderId', 2],
      ]),
    );
  });
});

describe('labels', () => {
  it('downloads the signed label and refuses a wrong hash', async () => {
    const done = await consignments.processed(draftBody());
    const [label] = (await consignments.details(done.id)).labels;
    const url = new URL(label.file_url);
    expect(url.origin).toBe('http://consignflow.test');
    const ok = await svc.app.inject({ method: 'GET', url: url.pathname + url.search });
    expect(ok.statusCode).toBe(200);
    expect(ok.headers['content-type']).toBe('application/pdf');
    expect(ok.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    const zpl = await svc.app.inject({ method: 'GET', url: url.pathname.replace(/\.pdf$/, '.zpl') + url.search });
    expect(zpl.statusCode).toBe(403); // the hash signs the file name too
    const bad = await svc.app.inject({ method: 'GET', url: `${url.pathname}?hash=${'A'.repeat(32)}` });
    expect(bad.statusCode).toBe(403);
    expect(bad.json()).toEqual({ status: false, errors: [{ message: 'This label link is not valid.' }] });
    expect((await svc.app.inject({ method: 'GET', url: url.pathname })).statusCode).toBe(403);
  });
});

describe('carrier events and history', () => {
  it('moves through PICKED_UP, IN_TRANSIT, DELIVERED; duplicates and late events change nothing; delivered cannot be cancelled', async () => {
    const done = await consignments.processed(draftBody({ reference_no: 'LC-TRACK' }));
    expect((await consignments.sandboxEvent(done.id, { event: 'PICKED_UP', location: 'İstanbul Hub', event_id: 'e1' })).statusCode).toBe(202);
    await waitForStatus(consignments, done.id, 4);
    await consignments.sandboxEvent(done.id, { event: 'PICKED_UP', event_id: 'e1' }); // redelivered
    await consignments.sandboxEvent(done.id, { event: 'IN_TRANSIT', location: 'Ankara Aktarma', message: 'Arrived at hub', event_id: 'e2' });
    await waitForStatus(consignments, done.id, 5);
    await consignments.sandboxEvent(done.id, { event: 'DELIVERED', location: 'Ankara', event_id: 'e3' });
    const d = await waitForStatus(consignments, done.id, 7);
    await consignments.sandboxEvent(done.id, { event: 'IN_TRANSIT', event_id: 'e4' }); // late
    // The single writer has finished: nothing can change the consignment after this.
    await svc.runtime.client.workflow.getHandle(consignmentWorkflowId(done.uuid)).result();
    const after = await consignments.details(done.id);
    expect(after.status).toBe(7);
    expect(after.details.map((h: { status_name: string }) => h.status_name)).toEqual(['NEW_DRAFT', 'LABEL_CREATED', 'PICKED_UP', 'IN_TRANSIT', 'DELIVERED']);
    expect(d.details[3]).toMatchObject({ status: 5, location: 'Ankara Aktarma', message: 'Arrived at hub', status_description: 'In transit' });
    await expectCancelRefused('LC-TRACK', { en: 'Shipment already delivered', tr: 'Gönderi zaten teslim edildi' });
    const events = await svc.db.query<{ status: number; previous: number }>(
      `SELECT (payload->'data'->>'status')::int AS status, (payload->'data'->>'previous_status')::int AS previous FROM consignment_events WHERE consignment_id = $1 ORDER BY seq`,
      [done.id],
    );
    expect(events.rows).toEqual([
      { status: 2, previous: 24 },
      { status: 4, previous: 2 },
      { status: 5, previous: 4 },
      { status: 7, previous: 5 },
    ]);
  });

  it('refuses sandbox events for drafts and bad event names', async () => {
    const { id } = await consignments.draft(draftBody());
    expect((await consignments.sandboxEvent(id, { event: 'PICKED_UP' })).statusCode).toBe(409);
    const done = await consignments.processed(draftBody());
    const bad = await consignments.sandboxEvent(done.id, { event: 'TELEPORTED' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors[0].field).toBe('event');
  });
});

describe('cancel (docs/api.md)', () => {
  it('cancels before pickup by barcode, voids the label, and refuses a second cancel', async () => {
    const done = await consignments.processed(draftBody());
    const label = (await consignments.details(done.id)).labels[0];
    const res = await cancel(done.barcode);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: true, message: 'Consignment cancelled successfully.', data: { consignment: done.id } });
    expect((await consignments.details(done.id)).status).toBe(10);
    const url = new URL(label.file_url);
    expect((await svc.app.inject({ method: 'GET', url: url.pathname + url.search })).statusCode).toBe(410);
    await expectCancelRefused(done.id, { en: 'Shipment already cancelled', tr: 'Gönderi zaten iptal edildi' });
  });

  it('lets the carrier decide in transit: provider 2 refuses, provider 1 accepts', async () => {
    const economy = await consignments.processed(draftBody({ preference: 0, provider_id: 2, reference_no: 'LC-ECO' }));
    await consignments.sandboxEvent(economy.id, { event: 'PICKED_UP' });
    await waitForStatus(consignments, economy.id, 4);
    await expectCancelRefused('LC-ECO', {
      en: 'Consignment cancel failed: carrier does not cancel shipments in transit',
      tr: 'Gönderi iptali başarısız: carrier does not cancel shipments in transit',
    });
    expect((await consignments.details(economy.id)).status).toBe(4);

    const express = await consignments.processed(draftBody({ preference: 0, provider_id: 1 }));
    await consignments.sandboxEvent(express.id, { event: 'PICKED_UP' });
    await waitForStatus(consignments, express.id, 4);
    expect((await cancel(express.id)).statusCode).toBe(200);
    expect((await consignments.details(express.id)).status).toBe(10);
  });

  it('cancels a draft without a carrier', async () => {
    const { id } = await consignments.draft(draftBody({ reference_no: '12345' }));
    expect((await cancel('12345')).statusCode).toBe(200); // no consignment has id 12345: the reference matches
    expect((await consignments.details(id)).status).toBe(10);
  });

  it.each([
    ['en', 'Consignment not found.'],
    ['tr', 'Gönderi bulunamadı.'],
  ])('answers an unknown or foreign consignment with not found (%s)', async (lang, message) => {
    const done = await consignments.processed(draftBody());
    const other = await svc.customer('Other');
    for (const [value, apiKey] of [
      ['NO-SUCH-REF', key],
      [String(done.id), other.apiKey],
      [done.barcode, other.apiKey],
    ]) {
      const res = await svc.request({ method: 'POST', url: `/api/v1/consignments/${value}/cancel`, apiKey, lang });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ status: false, errors: [{ message }] });
    }
  });
});
