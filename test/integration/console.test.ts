import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startConsoleHarness, type ConsoleHarness } from '../support/console-browser';
import { consignmentApi, draftBody } from '../support/consignments';
import { readPdf } from '../support/pdf-tools';
import { useRecordingServer } from '../support/recording-server';
import { waitFor } from '../support/wait';

/**
 * The console in headless Chromium against the real service: sign-in, the consignment list and detail, processing
 * with its label, bulk-printed labels read back by poppler, another customer's consignment, a forged form and
 * sign-out. Screenshots of the pages in both languages go to `.artifacts/console/`.
 */
let harness: ConsoleHarness;
let merchant: { apiKey: string; customerId: number };
let other: { apiKey: string; customerId: number };
let drafts: { id: number }[] = [];
let othersDraft: { id: number };
const receiver = useRecordingServer();
const TEMPORAL_UI = 'http://temporal-ui.example:8080';

beforeAll(async () => {
  harness = await startConsoleHarness({ WEBHOOK_ALLOW_PRIVATE: '1', WEBHOOK_RETRY_INITIAL_MS: '200', TEMPORAL_UI_URL: TEMPORAL_UI });
  merchant = await harness.svc.customer('Anadolu Tekstil');
  other = await harness.svc.customer('Başka Firma');
  const api = consignmentApi(harness.svc, merchant.apiKey);
  drafts = [];
  for (const [i, city] of ['Ankara', 'İzmir', 'Bursa'].entries()) {
    drafts.push(
      await api.draft(
        draftBody({
          reference_no: `WEB-${i + 1}`,
          consignee: { name: 'Şükrü Öztürk', country: 'TR', city, address: `${city} Cad. 1`, phone_number: '+905551112244' },
        }),
      ),
    );
  }
  othersDraft = await consignmentApi(harness.svc, other.apiKey).draft(draftBody({ reference_no: 'OTHER-1' }));
  // The merchant's webhook, so that processing causes deliveries the consignment's page lists.
  const hook = await harness.svc.request({
    method: 'POST',
    url: '/api/v1/webhooks',
    apiKey: merchant.apiKey,
    payload: {
      description: 'shop',
      endpoint: `${receiver.origin}/hooks/shop`,
      subscribedEvent: 'consignment.status.updated',
      securityType: 'header',
      dataType: 'JSON',
      data: '',
      securityData: [{ headerKey: 'X-Shop-Token', headerValue: 'shop-secret-123' }],
      status: 1,
    },
  });
  expect(hook.statusCode).toBe(201);
}, 180_000);
afterAll(async () => harness?.stop());

describe('the console', () => {
  it('asks for an API key, refuses a wrong one, and signs in with a right one', async () => {
    const { context, page } = await harness.open();
    try {
      await page.goto(`${harness.base}/`);
      expect(page.url()).toMatch(/\/console\/sign-in/);
      await page.locator('#api_key').fill('cf_not_a_key');
      await page.locator('form[action="/console/sign-in"] button[type="submit"]').click();
      expect(await page.locator('.notice.error').innerText()).toContain('unknown or revoked');
      await page.locator('#api_key').fill(merchant.apiKey);
      await Promise.all([page.waitForURL(/\/console\/consignments$/), page.locator('form[action="/console/sign-in"] button[type="submit"]').click()]);
      const cookie = (await context.cookies()).find((c) => c.name === 'cf_console')!;
      expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/console' });
      expect(cookie.value).not.toContain(merchant.apiKey);
    } finally {
      await context.close();
    }
  }, 120_000);

  it('lists the consignments newest first with status tabs and filters, in English and Turkish', async () => {
    for (const locale of ['en', 'tr'] as const) {
      const { context, page } = await harness.open({ apiKey: merchant.apiKey, locale });
      try {
        const response = await page.goto(`${harness.base}/console/consignments`);
        expect(response!.headers()['content-language']).toBe(locale);
        const rows = page.locator('table.list tbody tr');
        expect(await rows.count()).toBe(3);
        // Newest first: the last draft created comes first.
        expect(await rows.first().locator('td').nth(2).innerText()).toBe('WEB-3');
        const tab = page.locator('.tabs a', { hasText: locale === 'tr' ? 'Yeni taslak' : 'New draft' });
        expect(await tab.locator('.count').innerText()).toBe('3');
        await page.locator('#f-reference').fill('WEB-2');
        await page.locator('.filters button[type="submit"]').click();
        await page.waitForURL(/reference_no=WEB-2/);
        expect(await rows.count()).toBe(1);
        await page.goto(`${harness.base}/console/consignments`);
        await harness.screenshot(page, `consignments-list-${locale}`);
      } finally {
        await context.close();
      }
    }
  }, 120_000);

  it('shows a refused filter as the API words it', async () => {
    const { context, page } = await harness.open({ apiKey: merchant.apiKey });
    try {
      await page.goto(`${harness.base}/console/consignments?created_from=2026-02-30`);
      const notice = await page.locator('.notice.error').innerText();
      expect(notice).toMatch(/^created_from: /);
      const api = await harness.svc.request({ method: 'GET', url: '/api/v1/consignments?created_from=2026-02-30', apiKey: merchant.apiKey });
      expect(notice).toBe(`created_from: ${api.json().errors[0].message}`);
    } finally {
      await context.close();
    }
  }, 60_000);

  it('processes a draft from its page, with the quotes shown, and downloads its label', async () => {
    const { context, page } = await harness.open({ apiKey: merchant.apiKey });
    try {
      const id = drafts[0].id;
      await page.goto(`${harness.base}/console/consignments/${id}`);
      expect(await page.locator('table.quotes tbody tr').count()).toBeGreaterThanOrEqual(2);
      await harness.screenshot(page, 'consignment-draft-en');
      await page.locator('#choice').selectOption('cheapest');
      await Promise.all([page.waitForURL(/done=processed/), page.locator(`form[action="/console/consignments/${id}/process"] button[type="submit"]`).click()]);
      const details = (await harness.svc.request({ method: 'GET', url: `/api/v1/consignments/${id}/details`, apiKey: merchant.apiKey })).json().data;
      expect([2, 3]).toContain(details.status);
      expect(await page.locator('dl.facts').innerText()).toContain(details.barcode);
      const [download] = await Promise.all([page.waitForEvent('download'), page.locator('section.card a[download]', { hasText: '.pdf' }).first().click()]);
      const pdf = readFileSync((await download.path())!);
      expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
      expect(readPdf(pdf).text.join(' ')).toContain(details.barcode);
      // Its status event reached the webhook, and the page lists that delivery with the receiver's answer.
      await waitFor('the delivery of its status event', () => receiver.received.some((r) => r.body.includes(details.barcode)), { timeoutMs: 60_000 });
      await waitFor('the delivery on the page', async () => {
        await page.goto(`${harness.base}/console/consignments/${id}`);
        return (await page.locator('section.card', { hasText: 'Webhook deliveries' }).locator('tbody tr.ok').count()) > 0;
      });
      expect(await page.locator('section.card', { hasText: 'Webhook deliveries' }).innerText()).toContain(`${receiver.origin}/hooks/shop`);
      expect(await page.locator('a', { hasText: 'Temporal UI' }).getAttribute('href')).toBe(
        `${TEMPORAL_UI}/namespaces/default/workflows/${encodeURIComponent(`consignment:${details.uuid}`)}`,
      );
      await harness.screenshot(page, 'consignment-processed-en');
      const tr = await harness.open({ apiKey: merchant.apiKey, locale: 'tr' });
      await tr.page.goto(`${harness.base}/console/consignments/${id}`);
      expect(await tr.page.locator('h1').innerText()).toBe(`Gönderi ${id}`);
      await harness.screenshot(tr.page, 'consignment-processed-tr');
      await tr.context.close();
    } finally {
      await context.close();
    }
  }, 180_000);

  it('processes the other two at once and prints both labels as one PDF', async () => {
    const { context, page } = await harness.open({ apiKey: merchant.apiKey });
    try {
      await page.goto(`${harness.base}/console/consignments?status=24`);
      for (const draft of drafts.slice(1)) await page.locator(`input[name="id"][value="${draft.id}"]`).check();
      await page.locator('#bulk-choice').selectOption('cheapest');
      await Promise.all([page.waitForURL(/\/console\/consignments\/bulk$/), page.locator('button[name="action"][value="process"]').click()]);
      expect(await page.locator('tr.ok').count()).toBe(2);
      await page.goto(`${harness.base}/console/consignments`);
      for (const draft of drafts.slice(1)) await page.locator(`input[name="id"][value="${draft.id}"]`).check();
      await page.locator('#print').selectOption('pdf-label');
      const [download] = await Promise.all([page.waitForEvent('download'), page.locator('#bulk button[type="submit"]:not([name])').click()]);
      const reading = readPdf(readFileSync((await download.path())!));
      expect(reading.pages).toBe(2);
      for (const draft of drafts.slice(1)) {
        const { barcode } = (await harness.svc.request({ method: 'GET', url: `/api/v1/consignments/${draft.id}/details`, apiKey: merchant.apiKey })).json()
          .data;
        expect(reading.text.join(' ')).toContain(barcode);
      }
    } finally {
      await context.close();
    }
  }, 180_000);

  it('cancels selected consignments at once, each with its own result', async () => {
    const api = consignmentApi(harness.svc, merchant.apiKey);
    const first = await api.draft(draftBody({ reference_no: 'BULK-CANCEL-1' }));
    const second = await api.draft(draftBody({ reference_no: 'BULK-CANCEL-2' }));
    expect((await harness.svc.request({ method: 'POST', url: `/api/v1/consignments/${second.id}/cancel`, apiKey: merchant.apiKey })).statusCode).toBe(200);
    const { context, page } = await harness.open({ apiKey: merchant.apiKey });
    try {
      await page.goto(`${harness.base}/console/consignments?reference_no=BULK-CANCEL-`);
      await page.locator('input[data-select-all="id"]').check();
      await Promise.all([page.waitForURL(/\/console\/consignments\/bulk$/), page.locator('button[name="action"][value="cancel"]').click()]);
      expect(await page.locator('tr.ok td a').innerText()).toBe(String(first.id));
      // The one cancelled before answers what the API answers for it.
      const again = await harness.svc.request({ method: 'POST', url: `/api/v1/consignments/${second.id}/cancel`, apiKey: merchant.apiKey });
      expect(await page.locator('tr.failed').innerText()).toContain(again.json().errors[0].message);
      expect((await api.details(first.id)).status).toBe(10);
    } finally {
      await context.close();
    }
  }, 60_000);

  it('exports the filtered list as CSV, as the API lists it', async () => {
    const { context, page } = await harness.open({ apiKey: merchant.apiKey });
    try {
      await page.goto(`${harness.base}/console/consignments?reference_no=WEB-`);
      const [download] = await Promise.all([page.waitForEvent('download'), page.locator('a', { hasText: 'Export this list as CSV' }).click()]);
      const csv = readFileSync((await download.path())!, 'utf8');
      const [header, ...lines] = csv
        .replace(/^\ufeff/, '')
        .trim()
        .split(/\r?\n/);
      expect(header.split(',').slice(0, 3)).toEqual(['id', 'reference_no', 'status']);
      const listed = (await harness.svc.request({ method: 'GET', url: '/api/v1/consignments?reference_no=WEB-', apiKey: merchant.apiKey })).json().data;
      expect(lines.map((l) => Number(l.split(',')[0]))).toEqual(listed.results.map((c: { id: number }) => c.id));
      expect(csv).toContain('Şükrü Öztürk');
    } finally {
      await context.close();
    }
  }, 60_000);

  it("answers another customer's consignment as not found", async () => {
    const { context, page } = await harness.open({ apiKey: merchant.apiKey });
    try {
      const response = await page.goto(`${harness.base}/console/consignments/${othersDraft.id}`);
      expect(response!.status()).toBe(404);
      expect(await page.locator('main').innerText()).toContain('not yours');
      expect(await page.content()).not.toContain('OTHER-1');
    } finally {
      await context.close();
    }
  }, 60_000);

  it('refuses a form posted without the session token (CSRF), even with the session cookie', async () => {
    const { context, page } = await harness.open({ apiKey: merchant.apiKey });
    try {
      const draft = await consignmentApi(harness.svc, merchant.apiKey).draft(draftBody({ reference_no: 'CSRF-1' }));
      // What a forged cross-site form would send: the browser's cookie, no token (SameSite=Strict would even keep
      // the cookie from a real cross-site post; the token is the second lock).
      const forged = await page.request.post(`${harness.base}/console/consignments/${draft.id}/delete`, { form: { confirm: '1' } });
      expect(forged.status()).toBe(403);
      const wrong = await page.request.post(`${harness.base}/console/consignments/${draft.id}/delete`, { form: { _csrf: 'x'.repeat(32) } });
      expect(wrong.status()).toBe(403);
      const still = await harness.svc.request({ method: 'GET', url: `/api/v1/consignments/${draft.id}/details`, apiKey: merchant.apiKey });
      expect(still.statusCode).toBe(200);
      // The real form, with its token, deletes it.
      await page.goto(`${harness.base}/console/consignments/${draft.id}`);
      await Promise.all([page.waitForURL(/done=deleted/), page.locator(`form[action="/console/consignments/${draft.id}/delete"] button`).click()]);
      const gone = await harness.svc.request({ method: 'GET', url: `/api/v1/consignments/${draft.id}/details`, apiKey: merchant.apiKey });
      expect(gone.statusCode).toBe(404);
    } finally {
      await context.close();
    }
  }, 60_000);

  it('signs out: the session no longer opens a page', async () => {
    const { context, page } = await harness.open({ apiKey: merchant.apiKey });
    try {
      const cookie = (await context.cookies()).find((c) => c.name === 'cf_console')!;
      await Promise.all([page.waitForURL(/\/console\/sign-in\?out=1/), page.locator('form[action="/console/sign-out"] button').click()]);
      expect(await page.locator('.notice').innerText()).toContain('signed out');
      // The old token, replayed, is a session that no longer exists.
      const replay = await harness.svc.request({ method: 'GET', url: '/console/consignments', headers: { cookie: `cf_console=${cookie.value}` } });
      expect(replay.statusCode).toBe(303);
      expect(replay.headers.location).toMatch(/^\/console\/sign-in/);
    } finally {
      await context.close();
    }
  }, 60_000);

  it('serves a first page under 200 kB, with nothing from another host', async () => {
    const { context, page } = await harness.open({ apiKey: merchant.apiKey });
    try {
      let bytes = 0;
      const hosts = new Set<string>();
      page.on('response', async (response) => {
        hosts.add(new URL(response.url()).host);
        bytes += (await response.body().catch(() => Buffer.alloc(0))).length;
      });
      await page.goto(`${harness.base}/console/consignments`, { waitUntil: 'networkidle' });
      expect([...hosts]).toEqual([new URL(harness.base).host]);
      expect(bytes).toBeLessThan(200 * 1024);
      // The files go gzipped to a browser that takes it, as they are to one that does not.
      const htmx = readFileSync(require.resolve('htmx.org/dist/htmx.min.js'));
      const zipped = await harness.svc.request({ method: 'GET', url: '/console/assets/htmx.min.js', headers: { 'accept-encoding': 'gzip, br' } });
      expect(zipped.headers['content-encoding']).toBe('gzip');
      expect(zipped.rawPayload.length).toBeLessThan(htmx.length / 2);
      expect(gunzipSync(zipped.rawPayload).equals(htmx)).toBe(true);
      const plain = await harness.svc.request({ method: 'GET', url: '/console/assets/htmx.min.js' });
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.rawPayload.equals(htmx)).toBe(true);
    } finally {
      await context.close();
    }
  }, 60_000);
});
