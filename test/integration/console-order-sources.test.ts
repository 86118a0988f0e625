import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createHmac, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { startConsoleHarness, type ConsoleHarness } from '../support/console-browser';
import { waitFor } from '../support/wait';

/**
 * The console's order sources in headless Chromium against the real service: a refused form with the API's
 * wording next to its fields, a Shopify source created (its delivery URL to copy, the secret never in the page),
 * one signed Shopify order delivered to that URL as the shop would, the event log showing it become a draft,
 * disabling (the URL then answers 404), deleting, and another customer's source. Screenshots in en and tr.
 */
type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const SHOPIFY_ORDER = readFileSync(join(__dirname, '../fixtures/order-feeds/shopify-orders-create.json'), 'utf8');
const SECRET = 'shpss_console_5e6f70819aa2b3c4d5e6f7081';

let harness: ConsoleHarness;
let merchant: { apiKey: string };
let othersSource: Json;
/** the source the first test creates through the form, which the later tests use */
let sourceId: string;

beforeAll(async () => {
  harness = await startConsoleHarness();
  merchant = await harness.svc.customer('Anadolu Butik');
  const other = await harness.svc.customer('Başka Mağaza');
  const res = await harness.svc.request({
    method: 'POST',
    url: '/api/v1/order-sources',
    apiKey: other.apiKey,
    payload: { platform: 'shopify', name: 'Başka Mağaza', secret: 'another-secret-123456', consignor: { name: 'Başka Mağaza', country: 'TR', city: 'Ankara' } },
  });
  expect(res.statusCode).toBe(201);
  othersSource = res.json().data;
}, 180_000);
afterAll(async () => harness?.stop());

const api = (method: 'GET' | 'DELETE', url: string) => harness.svc.request({ method, url, apiKey: merchant.apiKey });

/** POSTs the fixture order to a delivery URL as Shopify does (test/integration/order-feeds.test.ts): signed with the secret. */
function deliverShopifyOrder(deliveryUrl: string, body: string) {
  return harness.svc.request({
    method: 'POST',
    url: new URL(deliveryUrl).pathname,
    headers: {
      'content-type': 'application/json',
      'x-shopify-topic': 'orders/create',
      'x-shopify-shop-domain': 'anadolu-butik.myshopify.com',
      'x-shopify-event-id': randomUUID(),
      'x-shopify-triggered-at': '2025-03-14T07:21:05.123Z',
      'x-shopify-api-version': '2025-01',
      'x-shopify-hmac-sha256': createHmac('sha256', SECRET).update(body).digest('base64'),
    },
    payload: body,
  });
}

async function fillCreateForm(page: Page, fields: Record<string, string>) {
  for (const [name, value] of Object.entries(fields)) {
    const field = page.locator(`form[action="/console/order-sources"] [name="${name}"]`);
    if ((await field.evaluate((el) => el.tagName)) === 'SELECT') await field.selectOption(value);
    else await field.fill(value);
  }
}

describe('order sources in the console', () => {
  it('refuses a form as the API does, creates a Shopify source, shows its delivery URL to copy and its event log as an order arrives', async () => {
    const { context, page } = await harness.open({ apiKey: merchant.apiKey });
    try {
      await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: harness.base });
      await page.goto(`${harness.base}/console/order-sources`);
      expect(await page.locator('main').innerText()).toContain('No order sources yet');
      expect(await page.locator('header nav a[aria-current="page"]').innerText()).toBe('Order sources');

      // Refused: a short secret and a weight that is no number, each said next to its field in the API's words.
      await fillCreateForm(page, { platform: 'shopify', name: 'Anadolu Butik', secret: 'short', 'package.weight': 'heavy' });
      const [refusedPage] = await Promise.all([
        page.waitForResponse((r) => r.request().method() === 'POST'),
        page.locator('form[action="/console/order-sources"] button[type="submit"]').click(),
      ]);
      const apiRefusal = await harness.svc.request({
        method: 'POST',
        url: '/api/v1/order-sources',
        apiKey: merchant.apiKey,
        payload: { platform: 'shopify', name: 'Anadolu Butik', secret: 'short', process: false, package: { weight: 'heavy' } },
      });
      expect(refusedPage.status()).toBe(apiRefusal.statusCode);
      const apiErrors = apiRefusal.json().errors as { field?: string; message: string }[];
      expect(apiErrors.map((e) => e.field).sort()).toEqual(['package.weight', 'secret']);
      expect(await page.locator('#f-secret-error').innerText()).toBe(apiErrors.find((e) => e.field === 'secret')!.message);
      expect(await page.locator('#f-package-weight-error').innerText()).toBe(apiErrors.find((e) => e.field === 'package.weight')!.message);
      expect(await page.locator('#f-name').inputValue()).toBe('Anadolu Butik');
      expect(await page.locator('#f-secret').inputValue()).toBe('');

      await fillCreateForm(page, {
        secret: SECRET,
        'consignor.name': 'Anadolu Butik',
        'consignor.address': 'Moda Cd. 1',
        'consignor.postal_code': '34710',
        'consignor.city': 'Kadıköy',
        'consignor.state': 'İstanbul',
        'consignor.country': 'TR',
        'consignor.phone_number': '+902161234567',
        preference: '1',
        'package.weight': '1,5',
        'package.length': '30',
        'package.width': '20',
        'package.height': '10',
      });
      await Promise.all([
        page.waitForURL(/\/console\/order-sources\/[0-9a-f-]{36}\?done=created$/),
        page.locator('form[action="/console/order-sources"] button[type="submit"]').click(),
      ]);
      sourceId = new URL(page.url()).pathname.split('/').pop()!;
      expect(await page.locator('.notice.info').innerText()).toBe('Order source created: register its delivery URL in your shop.');

      // The API agrees on what was stored; the page shows the delivery URL and the hint, never the secret.
      const stored = (await api('GET', `/api/v1/order-sources/${sourceId}`)).json().data;
      expect(stored).toMatchObject({ platform: 'shopify', name: 'Anadolu Butik', status: 1, preference: 1, package: { weight: 1.5, length: 30 } });
      expect(stored.consignor).toMatchObject({ name: 'Anadolu Butik', country: 'TR', city: 'Kadıköy' });
      const deliveryUrl = await page.locator('#delivery-url').inputValue();
      expect(deliveryUrl).toBe(stored.delivery_url);
      expect(deliveryUrl).toBe(`http://consignflow.test/api/v1/order-sources/${sourceId}/orders`);
      expect(await page.locator('#delivery-url').getAttribute('readonly')).not.toBeNull();
      expect(await page.locator('main').innerText()).toContain(`****${SECRET.slice(-4)}`);
      expect(await page.content()).not.toContain(SECRET);

      await page.locator('button[data-copy="delivery-url"]').click();
      await waitFor('the copied notice', async () => (await page.locator('#delivery-url-copied').innerText()) === 'Copied.');
      expect(await page.evaluate('navigator.clipboard.readText()')).toBe(deliveryUrl);
      expect(await page.locator('#event-log').innerText()).toContain('No events yet');
      await harness.screenshot(page, 'order-sources-detail-empty-en');

      // One order, signed as Shopify signs it, to the URL the page shows.
      const delivered = await deliverShopifyOrder(deliveryUrl, SHOPIFY_ORDER);
      expect(delivered.statusCode).toBe(200);
      const { event } = delivered.json().data as { event: number };

      // The page's log shows the event and, once its workflow has run, the draft it made.
      const row = page.locator(`#event-log tr[data-event="${event}"]`);
      const state = await waitFor(
        'the event drafted in the page',
        async () => {
          await page.reload();
          if ((await row.count()) === 0) return undefined;
          const shown = await row.locator('[data-state]').getAttribute('data-state');
          return shown !== 'received' && shown;
        },
        { timeoutMs: 60_000, intervalMs: 1_000 },
      );
      expect(state).toBe('drafted');
      const events = (await api('GET', `/api/v1/order-sources/${sourceId}/events`)).json().data.results as Json[];
      expect(events).toHaveLength(1);
      expect(events[0]).toMatchObject({ id: event, state: 'drafted', order_no: '#1001', topic: 'orders/create' });
      const cells = await row.locator('td').allInnerTexts();
      expect(cells).toEqual([String(event), expect.any(String), 'orders/create', '#1001', 'draft created', String(events[0].consignment), '']);
      expect(await row.locator(`a[href="/console/consignments/${events[0].consignment}"]`).count()).toBe(1);
      await harness.screenshot(page, 'order-sources-detail-en');

      await page.goto(`${harness.base}/console/order-sources`);
      const listed = page.locator('table.list tbody tr');
      expect(await listed.count()).toBe(1);
      expect((await listed.locator('th, td').allInnerTexts()).slice(0, 4)).toEqual(['Anadolu Butik', 'Shopify', 'active', `****${SECRET.slice(-4)}`]);
      await harness.screenshot(page, 'order-sources-list-en');
    } finally {
      await context.close();
    }
  }, 180_000);

  it('shows the pages in Turkish', async () => {
    const { context, page } = await harness.open({ apiKey: merchant.apiKey, locale: 'tr' });
    try {
      await page.goto(`${harness.base}/console/order-sources`);
      expect(await page.locator('h1').innerText()).toBe('Sipariş kaynakları');
      expect(await page.locator('#create-title').innerText()).toBe('Bir mağaza bağlayın');
      await harness.screenshot(page, 'order-sources-list-tr');
      await page.goto(`${harness.base}/console/order-sources/${sourceId}`);
      expect(await page.locator('#delivery-title').innerText()).toBe('Teslim adresi');
      expect(await page.locator('#event-log [data-state="drafted"]').innerText()).toBe('taslak oluşturuldu');
      expect(await page.content()).not.toContain(SECRET);
      await harness.screenshot(page, 'order-sources-detail-tr');
    } finally {
      await context.close();
    }
  }, 120_000);

  it('disables, enables and deletes a source as the API does; another customer’s source is not found', async () => {
    const { context, page } = await harness.open({ apiKey: merchant.apiKey });
    try {
      const deliveryPath = `/api/v1/order-sources/${sourceId}/orders`;
      await page.goto(`${harness.base}/console/order-sources/${sourceId}`);
      await Promise.all([page.waitForURL(/done=disabled$/), page.getByRole('button', { name: 'Disable' }).click()]);
      expect(await page.locator('.notice.info').innerText()).toBe('The order source is disabled.');
      expect((await api('GET', `/api/v1/order-sources/${sourceId}`)).json().data.status).toBe(0);
      expect((await deliverShopifyOrder(`http://x${deliveryPath}`, SHOPIFY_ORDER)).statusCode).toBe(404);

      await Promise.all([page.waitForURL(/done=enabled$/), page.getByRole('button', { name: 'Enable' }).click()]);
      const enabled = (await api('GET', `/api/v1/order-sources/${sourceId}`)).json().data;
      expect(enabled).toMatchObject({ status: 1, preference: 1, package: { weight: 1.5 } });
      // The secret was kept: a delivery signed with it is accepted again (the same order: its event ends a duplicate).
      expect((await deliverShopifyOrder(`http://x${deliveryPath}`, SHOPIFY_ORDER)).statusCode).toBe(200);

      await Promise.all([page.waitForURL(/\/console\/order-sources\?done=deleted$/), page.getByRole('button', { name: 'Delete order source' }).click()]);
      expect(await page.locator('.notice.info').innerText()).toBe('Order source deleted successfully.');
      expect(await page.locator('main').innerText()).toContain('No order sources yet');
      expect((await api('GET', `/api/v1/order-sources/${sourceId}`)).statusCode).toBe(404);

      for (const path of [
        `/console/order-sources/${othersSource.id}`,
        `/console/order-sources/${othersSource.id}/events`,
        `/console/order-sources/${sourceId}`,
      ]) {
        const answer = await page.goto(`${harness.base}${path}`);
        expect(answer?.status()).toBe(404);
        expect(await page.locator('h1').innerText()).toBe('Not found');
      }
      expect(await page.content()).not.toContain('Başka Mağaza');
      // Nor can it be deleted through the console.
      const csrf = await page.locator('input[name="_csrf"]').first().inputValue();
      const refused = await context.request.post(`${harness.base}/console/order-sources/${othersSource.id}/delete`, { form: { _csrf: csrf } });
      expect(refused.status()).toBe(404);
    } finally {
      await context.close();
    }
  }, 120_000);
});
