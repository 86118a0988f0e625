import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Page } from 'playwright-core';
import { startConsoleHarness, type ConsoleHarness } from '../support/console-browser';
import { readPdf } from '../support/pdf-tools';
import { waitFor } from '../support/wait';

/**
 * The console's imports pages in headless Chromium against the real service: a CSV uploaded through the form,
 * its progress followed live (htmx polling, no reload) to the end, the row to fix, the rows-to-fix CSV and the
 * import's merged labels read back by poppler; a large import stopped while it runs; refusals beside their
 * fields; another customer's import; screenshots of the list and the detail in English and Turkish.
 */
let harness: ConsoleHarness;
let merchant: { apiKey: string; customerId: number };
let other: { apiKey: string; customerId: number };
let dir: string;
/** The small import, processed (made in the first test, looked at by the later ones). */
let importId: string;

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const HEADER =
  'reference_no,consignee_name,consignee_phone,consignee_address,consignee_city,consignee_postal_code,consignee_country,package_weight,item_description,item_quantity,item_unit_price';
const order = (ref: string, name: string, i: number) => `${ref},${name},+905551112233,"Çiçek Sk. ${i}, D:1",Ankara,06690,TR,1.5,Kilim yastık,1,150`;

const api = async (url: string, apiKey = merchant.apiKey, lang?: string): Promise<{ statusCode: number; json: Json }> => {
  const res = await harness.svc.request({ method: 'GET', url, apiKey, lang });
  return { statusCode: res.statusCode, json: String(res.headers['content-type'] ?? '').includes('json') ? res.json() : {} };
};

const stateOf = (page: Page) => page.locator('#import-progress').getAttribute('data-state');
const count = async (page: Page, name: string) => Number(await page.locator(`#import-progress [data-count="${name}"]`).innerText());

async function fillSender(page: Page) {
  await page.locator('#imp-consignor-name').fill('Anadolu Butik');
  await page.locator('#imp-consignor-phone-number').fill('+902161234567');
  await page.locator('#imp-consignor-address').fill('Moda Cd. No:1');
  await page.locator('#imp-consignor-city').fill('İstanbul');
  await page.locator('#imp-consignor-postal-code').fill('34710');
  await page.locator('#imp-consignor-country').fill('TR');
}

/** Submits the upload form and waits for the import's page; its id. */
async function submitUpload(page: Page): Promise<string> {
  await Promise.all([page.waitForURL(/\/console\/imports\/[0-9a-f-]{36}\?done=started$/), page.locator('form.import-form button[type="submit"]').click()]);
  return /\/imports\/([0-9a-f-]{36})/.exec(page.url())![1];
}

beforeAll(async () => {
  harness = await startConsoleHarness();
  merchant = await harness.svc.customer('Anadolu Butik');
  other = await harness.svc.customer('Başka Firma');
  dir = mkdtempSync(join(tmpdir(), 'console-imports-'));
}, 180_000);
afterAll(async () => {
  await harness?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('the imports pages', () => {
  it('uploads a CSV, follows its progress live to the end, and shows the row to fix as the API words it', async () => {
    const file = join(dir, 'orders.csv');
    writeFileSync(
      file,
      [HEADER, order('CIMP-1', 'Müşteri Bir', 1), order('CIMP-2', 'Müşteri İki', 2), order('CIMP-3', 'Müşteri Üç', 3), order('CIMP-4', '', 4)].join('\n') +
        '\n',
    );
    const { context, page } = await harness.open({ apiKey: merchant.apiKey });
    try {
      await page.goto(`${harness.base}/console/imports`);
      expect(await page.locator('h1').innerText()).toBe('Imports');
      expect(await page.locator('.empty').innerText()).toBe('No imports yet.');
      // The template link answers the API's template.
      const template = await context.request.get(`${harness.base}/console/imports/template.csv`);
      expect(template.status()).toBe(200);
      expect(await template.text()).toBe((await harness.svc.request({ method: 'GET', url: '/api/v1/imports/template.csv', apiKey: merchant.apiKey })).body);

      await page.locator('#imp-file').setInputFiles(file);
      await page.locator('#imp-preset').selectOption('generic');
      await page.locator('#imp-choice').selectOption('1');
      await page.locator('#imp-process').check();
      await fillSender(page);
      importId = await submitUpload(page);
      expect(await page.locator('.notice.info').innerText()).toBe('Import accepted: the orders are being created.');

      // The page is not reloaded from here on: the mark set in it must survive the progress reaching the end.
      await page.evaluate('window.stillThisPage = true');
      const initial = await stateOf(page);
      if (initial === 'queued' || initial === 'running') expect(await page.locator('#import-progress').getAttribute('hx-trigger')).toBe('every 1s');
      await page.locator('#import-progress[data-state="completed"]').waitFor({ timeout: 120_000 });
      expect(await page.evaluate('window.stillThisPage === true')).toBe(true);
      expect(await page.locator('#import-progress').getAttribute('hx-trigger')).toBeNull();
      expect(await page.locator('#import-progress .import-state').innerText()).toContain('Completed');
      expect(await page.locator('#imp-bar-orders').getAttribute('value')).toBe('4');
      expect(await page.locator('#imp-bar-orders').getAttribute('max')).toBe('4');
      expect(await page.locator('label[for="imp-bar-rows"]').innerText()).toBe('Rows read: 4 of 4');
      expect(await page.locator('label[for="imp-bar-orders"]').innerText()).toBe('Orders done: 4 of 4');
      expect({ created: await count(page, 'created'), processed: await count(page, 'processed'), failed: await count(page, 'failed') }).toEqual({
        created: 3,
        processed: 3,
        failed: 1,
      });
      // The rows to fix and the actions of a finished import came with the last poll: no stop button any more.
      await page.locator('#import-errors table').waitFor();
      const rows = await page.locator('#import-errors tbody tr').allInnerTexts();
      expect(rows.map((r) => r.split('\t').map((c) => c.trim()))).toEqual([['5', 'CIMP-4', 'consignee_name', 'This value should not be blank.']]);
      expect(await page.locator(`form[action="/console/imports/${importId}/cancel"]`).count()).toBe(0);
      expect(await page.locator('#import-facts dd').nth(7).innerText()).not.toBe('—');

      // The API agrees.
      const answer = await api(`/api/v1/imports/${importId}`);
      expect(answer.json.data).toMatchObject({
        state: 'completed',
        preset: 'generic',
        process: true,
        file_name: 'orders.csv',
        counts: { orders: 4, created: 3, processed: 3, failed: 1 },
        progress: { rows_total: 4, rows_done: 4, percent: 100 },
      });
      expect((await api(`/api/v1/imports/${importId}/errors`)).json.data.results).toEqual([
        { row: 5, order: 'CIMP-4', field: 'consignee_name', path: 'consignee.name', message: 'This value should not be blank.' },
      ]);
      await harness.screenshot(page, 'imports-detail-en');
    } finally {
      await context.close();
    }
  }, 180_000);

  it('downloads the rows to fix as the API’s CSV, and all labels of the import as one PDF', async () => {
    const { context, page } = await harness.open({ apiKey: merchant.apiKey });
    try {
      await page.goto(`${harness.base}/console/imports/${importId}`);
      const [csv] = await Promise.all([page.waitForEvent('download'), page.locator('#import-errors a[download]').click()]);
      expect(csv.suggestedFilename()).toBe(`import-${importId}-errors.csv`);
      const text = readFileSync((await csv.path())!, 'utf8');
      expect(text.startsWith('\uFEFF')).toBe(true);
      expect(text).toBe((await harness.svc.request({ method: 'GET', url: `/api/v1/imports/${importId}/errors?format=csv`, apiKey: merchant.apiKey })).body);
      expect(text.slice(1).trim().split('\r\n')).toEqual(['row,order,field,message', '5,CIMP-4,consignee_name,This value should not be blank.']);

      await page.locator('#imp-print').selectOption('pdf-label');
      const [labels] = await Promise.all([page.waitForEvent('download'), page.locator('#import-actions button[type="submit"]').first().click()]);
      expect(labels.suggestedFilename()).toBe(`labels-${importId}.pdf`);
      const pdf = readPdf(readFileSync((await labels.path())!));
      // One 100 × 150 mm page per consignment of the import (the failed order made none), and no notes page.
      expect(pdf.pages).toBe(3);
      for (const [width, height] of pdf.sizes) {
        expect(Math.round(width)).toBe(283);
        expect(Math.round(height)).toBe(425);
      }
      const viaApi = await harness.svc.request({ method: 'GET', url: `/api/v1/imports/${importId}/labels`, apiKey: merchant.apiKey });
      expect(viaApi.statusCode).toBe(200);
      expect(readPdf(viaApi.rawPayload).pages).toBe(3);
      const barcodes: string[] = [];
      for (const ref of ['CIMP-1', 'CIMP-2', 'CIMP-3']) barcodes.push((await api(`/api/v1/consignments/find/reference_no/${ref}`)).json.data.barcode);
      for (const barcode of barcodes) expect(pdf.text.join('\n')).toContain(barcode);
    } finally {
      await context.close();
    }
  }, 120_000);

  it('shows a large import moving without a reload, stops it, and answers its labels as the API does (drafts only: 409)', async () => {
    const file = join(dir, 'big.csv');
    const lines = [HEADER];
    for (let i = 0; i < 5000; i++) lines.push(order(`BIG-${String(i).padStart(4, '0')}`, `Müşteri ${i}`, i));
    writeFileSync(file, lines.join('\n') + '\n');
    const { context, page } = await harness.open({ apiKey: merchant.apiKey });
    try {
      await page.goto(`${harness.base}/console/imports`);
      await page.locator('#imp-file').setInputFiles(file);
      await fillSender(page);
      const id = await submitUpload(page);
      await page.evaluate('window.stillThisPage = true');
      expect(['queued', 'running']).toContain(await stateOf(page));
      expect(await page.locator('#import-progress').getAttribute('hx-trigger')).toBe('every 1s');
      expect(await page.locator(`form[action="/console/imports/${id}/cancel"]`).count()).toBe(1);
      // The numbers move in the page as the drafts are made.
      await waitFor('drafts to be counted in the page', async () => (await count(page, 'created')) > 0, { timeoutMs: 60_000, intervalMs: 250 });
      expect(await page.evaluate('window.stillThisPage === true')).toBe(true);
      expect(await stateOf(page)).toBe('running');
      await harness.screenshot(page, 'imports-detail-running-en');

      await Promise.all([
        page.waitForURL(new RegExp(`/console/imports/${id}\\?done=cancelled$`)),
        page.locator(`form[action="/console/imports/${id}/cancel"] button`).click(),
      ]);
      expect(await page.locator('.notice.info').innerText()).toBe('Import cancelled: no further orders will be created.');
      expect(await stateOf(page)).toBe('cancelled');
      expect(await page.locator('#import-progress').getAttribute('hx-trigger')).toBeNull();
      const counts = (await api(`/api/v1/imports/${id}`)).json.data.counts;
      expect((await api(`/api/v1/imports/${id}`)).json.data.state).toBe('cancelled');
      expect(counts.created).toBeLessThan(5000);
      expect(await count(page, 'created')).toBe(counts.created);
      expect(await count(page, 'cancelled')).toBe(counts.cancelled);

      // Drafts have no labels: the API's 409, in the page.
      const [response] = await Promise.all([
        page.waitForResponse((r) => r.url().includes(`/console/imports/${id}/labels`)),
        page.locator('#import-actions button[type="submit"]').first().click(),
      ]);
      expect(response.status()).toBe(409);
      await page.waitForLoadState();
      expect(await page.locator('main ul.errors').innerText()).toBe('None of these consignments has a label to print.');
      expect((await harness.svc.request({ method: 'GET', url: `/api/v1/imports/${id}/labels`, apiKey: merchant.apiKey })).statusCode).toBe(409);
    } finally {
      await context.close();
    }
  }, 180_000);

  it('refuses an upload beside the field at fault, in the page’s language, keeping what was typed', async () => {
    const fixture = join(__dirname, '../fixtures/imports/shopify-orders.csv');
    const before = (await api('/api/v1/imports')).json.data.total;
    const { context, page } = await harness.open({ apiKey: merchant.apiKey, locale: 'tr' });
    try {
      await page.goto(`${harness.base}/console/imports`);
      await page.locator('#imp-file').setInputFiles(fixture);
      await page.locator('#imp-preset').selectOption('shopify');
      await page.locator('#imp-choice').selectOption('cheapest');
      await page.locator('#imp-package-weight').fill('1,2');
      const [refused] = await Promise.all([
        page.waitForResponse((r) => r.url().endsWith('/console/imports') && r.request().method() === 'POST'),
        page.locator('form.import-form button[type="submit"]').click(),
      ]);
      expect(refused.status()).toBe(400);
      await page.waitForLoadState();
      expect(await page.locator('.notice.error').first().innerText()).toBe('Bazı alanlar düzeltilmeli:');
      expect(await page.locator('#imp-consignor .field-error').innerText()).toBe(
        'shopify ön ayarı göndericiyi gerektirir: içe aktarma seçeneklerinde consignor belirtin.',
      );
      expect(await page.locator('#imp-consignor').getAttribute('aria-invalid')).toBe('true');
      expect(await page.locator('#imp-preset').inputValue()).toBe('shopify');
      expect(await page.locator('#imp-choice').inputValue()).toBe('cheapest');
      expect(await page.locator('#imp-package-weight').inputValue()).toBe('1,2');

      // Options the JSON box spoils are refused beside it, as the API refuses a malformed `options` part.
      await page.locator('#imp-file').setInputFiles(fixture);
      await fillSender(page);
      await page.locator('form.import-form summary').click();
      await page.locator('#imp-options').fill('{"mapping": ');
      await page.locator('form.import-form button[type="submit"]').click();
      await page.locator('#err-options').waitFor();
      expect(await page.locator('#err-options').innerText()).toBe('İstek gövdesi geçerli bir JSON değil.');
      expect(await page.locator('#imp-options').inputValue()).toBe('{"mapping": ');
      await harness.screenshot(page, 'imports-list-refused-tr');
      expect((await api('/api/v1/imports')).json.data.total).toBe(before);

      // A multipart form is checked for its security token (its first part) before the file is taken.
      const forged = await context.request.post(`${harness.base}/console/imports`, {
        multipart: {
          _csrf: 'not-the-token',
          preset: 'generic',
          file: { name: 'x.csv', mimeType: 'text/csv', buffer: Buffer.from(`${HEADER}\nX-1,a,b,c,d,e,TR,1,x,1,1\n`) },
        },
        maxRedirects: 0,
      });
      expect(forged.status()).toBe(403);
      const tokenless = await context.request.post(`${harness.base}/console/imports`, {
        multipart: { preset: 'generic', file: { name: 'x.csv', mimeType: 'text/csv', buffer: Buffer.from(`${HEADER}\nX-1,a,b,c,d,e,TR,1,x,1,1\n`) } },
        maxRedirects: 0,
      });
      expect(tokenless.status()).toBe(403);
      expect((await api('/api/v1/imports')).json.data.total).toBe(before);
    } finally {
      await context.close();
    }
  }, 120_000);

  it('lists the imports newest first with their states and counts, in English and Turkish', async () => {
    const listed = (await api('/api/v1/imports')).json.data.results as Json[];
    for (const locale of ['en', 'tr'] as const) {
      const { context, page } = await harness.open({ apiKey: merchant.apiKey, locale });
      try {
        await page.goto(`${harness.base}/console/imports`);
        expect(await page.locator('h1').innerText()).toBe(locale === 'tr' ? 'İçe aktarmalar' : 'Imports');
        const rows = page.locator('table.imports tbody tr');
        expect(await rows.count()).toBe(listed.length);
        expect(await rows.locator('th a').evaluateAll((links) => links.map((a) => a.getAttribute('href')))).toEqual(
          listed.map((i) => `/console/imports/${i.id}`),
        );
        const small = rows.filter({ has: page.locator(`a[href="/console/imports/${importId}"]`) });
        const cells = (await small.locator('td').allInnerTexts()).map((c) => c.trim());
        expect(cells[1]).toBe(locale === 'tr' ? 'Tamamlandı' : 'Completed');
        expect(cells.slice(3, 8)).toEqual(['4', '3', '3', '1', '0']);
        await harness.screenshot(page, `imports-list-${locale}`);
        if (locale === 'tr') {
          await page.goto(`${harness.base}/console/imports/${importId}`);
          expect(await page.locator('#imp-errors-h').innerText()).toBe('Düzeltilecek satırlar');
          expect(await page.locator('#import-errors tbody td').last().innerText()).toBe('Bu değer boş bırakılmamalıdır.');
          expect(await page.locator('#import-progress .import-state').innerText()).toContain('Tamamlandı');
          await harness.screenshot(page, 'imports-detail-tr');
        }
      } finally {
        await context.close();
      }
    }
  }, 120_000);

  it('answers another customer with “not found” for the import and everything under it', async () => {
    const { context, page } = await harness.open({ apiKey: other.apiKey });
    try {
      const res = await page.goto(`${harness.base}/console/imports/${importId}`);
      expect(res?.status()).toBe(404);
      expect(await page.locator('h1').innerText()).toBe('Not found');
      for (const path of ['progress', 'errors.csv', 'labels']) {
        expect((await context.request.get(`${harness.base}/console/imports/${importId}/${path}`)).status()).toBe(404);
      }
      const token = await page.locator('input[name="_csrf"]').first().inputValue();
      const cancel = await context.request.post(`${harness.base}/console/imports/${importId}/cancel`, { form: { _csrf: token }, maxRedirects: 0 });
      expect(cancel.status()).toBe(404);
      await page.goto(`${harness.base}/console/imports`);
      expect(await page.locator('.empty').innerText()).toBe('No imports yet.');
    } finally {
      await context.close();
    }
  }, 60_000);
});
