import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { startConsoleHarness, type ConsoleHarness } from '../support/console-browser';
import { consignmentApi, draftBody } from '../support/consignments';
import { waitFor } from '../support/wait';

/**
 * The webhooks pages in headless Chromium against the real service: a webhook created in the console (its secret
 * shown once) receives the events of a consignment processed through the API at a receiver of the test's own on
 * 127.0.0.1 (so private targets are allowed, and retries are short); its delivery log shows the attempts with
 * their HTTP status, one event is redelivered and the webhook disabled. Refusals read as the API's, next to
 * their field; another customer's webhook is not found.
 */
let harness: ConsoleHarness;
let merchant: { apiKey: string };
let other: { apiKey: string };
let receiver: Server;
let receiverOrigin: string;
const received: { path: string; headers: IncomingHttpHeaders; body: { id: string; event: string; data: { consignment: number } } }[] = [];

beforeAll(async () => {
  receiver = createServer((req, res) => {
    let raw = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (raw += chunk));
    req.on('end', () => {
      received.push({ path: req.url ?? '', headers: req.headers, body: JSON.parse(raw) });
      const status = req.url === '/hooks/failing' ? 503 : 200;
      res.writeHead(status, { 'content-type': 'text/plain' }).end(status === 200 ? 'ok' : 'not now');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverOrigin = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  harness = await startConsoleHarness({ WEBHOOK_ALLOW_PRIVATE: '1', WEBHOOK_RETRY_INITIAL_MS: '200', WEBHOOK_RETRY_WINDOW_MS: '8000' });
  merchant = await harness.svc.customer('Anadolu Tekstil');
  other = await harness.svc.customer('Başka Firma');
}, 180_000);
afterAll(async () => {
  await harness?.stop();
  receiver?.closeAllConnections();
  await new Promise((resolve) => receiver?.close(resolve));
});

const api = (method: 'GET' | 'POST', url: string, apiKey: string, payload?: object) =>
  harness.svc.request({ method, url: `/api/v1${url}`, apiKey, ...(payload ? { payload } : {}) });

/** Reloads `page` until `probe` finds what it waits for (deliveries arrive in the background). */
async function reloadUntil<T>(page: Page, what: string, probe: () => Promise<T | undefined | false>): Promise<T> {
  return waitFor(
    what,
    async () => {
      await page.reload();
      return probe();
    },
    { timeoutMs: 60_000, intervalMs: 500 },
  );
}

/** What the API answers to a create body: its refusals, field → message. */
async function apiRefusals(body: object, lang: string): Promise<Map<string, string>> {
  const res = await harness.svc.request({ method: 'POST', url: '/api/v1/webhooks', apiKey: merchant.apiKey, lang, payload: body });
  expect(res.statusCode).toBe(400);
  return new Map((res.json().errors as { field: string; message: string }[]).map((e) => [e.field, e.message]));
}

let webhookId: string;
let secret: string;

describe('the webhooks pages', () => {
  it('creates a webhook with a header, showing its signing secret once', async () => {
    const { context, page } = await harness.open({ apiKey: merchant.apiKey });
    try {
      await page.goto(`${harness.base}/console/webhooks`);
      expect(await page.locator('.empty').innerText()).toBe('No webhooks yet.');
      await page.locator('#wh-description').fill('Shop status updates');
      await page.locator('#wh-endpoint').fill(`${receiverOrigin}/hooks/console`);
      await page.locator('#wh-header-key-0').fill('X-Shop-Token');
      await page.locator('#wh-header-value-0').fill('shop-token-4711');
      await page.getByRole('button', { name: 'Create webhook' }).click();
      expect(await page.locator('h1').innerText()).toBe('Webhook created');
      secret = await page.locator('#wh-secret').inputValue();
      expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
      await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: harness.base });
      await page.getByRole('button', { name: 'Copy' }).click();
      // The clipboard's answer comes after the click: the notice follows it.
      await waitFor('the copied notice', async () => (await page.locator('#wh-secret-copied').innerText()) === 'Copied.');
      expect(await page.evaluate('navigator.clipboard.readText()')).toBe(secret);
      const open = page.getByRole('link', { name: 'Open the webhook and its delivery log' });
      webhookId = (await open.getAttribute('href'))!.split('/').pop()!;
      expect(webhookId).toMatch(/^wh_[0-9A-Za-z]{24}$/);

      // The API agrees, and never shows the secret again; neither does the console.
      const got = await api('GET', `/webhooks/${webhookId}`, merchant.apiKey);
      expect(got.json().data).toMatchObject({
        description: 'Shop status updates',
        endpoint: `${receiverOrigin}/hooks/console`,
        subscribedEvent: 'consignment.status.updated',
        securityData: [{ headerKey: 'X-Shop-Token', headerValue: 'shop-token-4711' }],
        status: 1,
      });
      await page.goto(`${harness.base}/console/webhooks`);
      const row = page.locator(`tr[data-webhook="${webhookId}"]`);
      expect(await row.locator('th a').innerText()).toBe('Shop status updates');
      expect(await row.locator('.wh-endpoint').innerText()).toBe(`${receiverOrigin}/hooks/console`);
      expect(await row.innerText()).toContain('active');
      expect(await page.content()).not.toContain(secret);
      await harness.screenshot(page, 'webhooks-list-en');
      await page.goto(`${harness.base}/console/webhooks/${webhookId}`);
      expect(await page.content()).not.toContain(secret);
    } finally {
      await context.close();
    }
  }, 180_000);

  it('shows the deliveries of a consignment’s events with their HTTP status, redelivers one, and disables the webhook', async () => {
    const consignments = consignmentApi(harness.svc, merchant.apiKey);
    const { id: consignment } = await consignments.processed(draftBody({ preference: 0, provider_id: 1 }));
    const { context, page } = await harness.open({ apiKey: merchant.apiKey });
    try {
      await page.goto(`${harness.base}/console/webhooks/${webhookId}`);
      const delivered = page.locator('table.deliveries tbody tr.ok');
      await reloadUntil(page, 'a delivery in the log', async () => (await delivered.count()) > 0);
      const first = delivered.first();
      const eventId = (await first.getAttribute('data-event'))!;
      expect(await first.locator('.http-status').innerText()).toBe('200');
      expect(await first.innerText()).toContain('delivered');
      // The receiver got it, with the header and the consignment the page's event is about.
      const got = received.filter((r) => r.body.id === eventId);
      expect(got).toHaveLength(1);
      expect(got[0]).toMatchObject({ path: '/hooks/console', body: { event: 'consignment.status.updated', data: { consignment } } });
      expect(got[0].headers['x-shop-token']).toBe('shop-token-4711');
      await harness.screenshot(page, 'webhooks-detail-en');

      await page.getByRole('button', { name: `Redeliver event ${eventId}` }).click();
      expect(await page.locator('.notice.info').innerText()).toBe('The event is queued for one more delivery.');
      await waitFor('the redelivery at the receiver', () => received.filter((r) => r.body.id === eventId).length === 2, { timeoutMs: 60_000 });
      const again = page.locator(`table.deliveries tbody tr[data-event="${eventId}"]`, { hasText: 'redelivery' });
      await reloadUntil(page, 'the redelivery in the log', async () => (await again.count()) === 1);
      expect(await again.locator('.http-status').innerText()).toBe('200');
      const log = (await api('GET', `/webhooks/${webhookId}/deliveries?event_id=${eventId}`, merchant.apiKey)).json().data;
      expect(log.results.map((d: { attempt: number; redelivery: boolean }) => [d.attempt, d.redelivery])).toEqual([
        [2, true],
        [1, false],
      ]);

      // Only this event's attempts, by its link.
      await page.locator(`table.deliveries tbody tr[data-event="${eventId}"] th a`).first().click();
      await page.waitForURL(/event_id=/);
      expect(await page.locator('table.deliveries tbody tr').count()).toBe(2);

      await page.getByRole('button', { name: `Disable webhook ${webhookId}` }).click();
      expect(await page.locator('.notice.info').innerText()).toBe('The webhook is disabled: no more deliveries.');
      expect(await page.locator('dl.facts').innerText()).toContain('disabled');
      expect(await page.getByRole('button', { name: /^Redeliver event/ }).count()).toBe(0);
      expect((await api('GET', `/webhooks/${webhookId}`, merchant.apiKey)).json().data.status).toBe(0);
      // Disabled as the API's PATCH { status: 0 } does: the webhook stays, with its log, and can be enabled again.
      await Promise.all([page.waitForURL(/done=enabled/), page.getByRole('button', { name: `Enable webhook ${webhookId}` }).click()]);
      expect((await api('GET', `/webhooks/${webhookId}`, merchant.apiKey)).json().data.status).toBe(1);
      await Promise.all([page.waitForURL(/done=disabled/), page.getByRole('button', { name: `Disable webhook ${webhookId}` }).click()]);
      expect((await api('GET', `/webhooks/${webhookId}`, merchant.apiKey)).json().data.status).toBe(0);
    } finally {
      await context.close();
    }
  }, 180_000);

  it('shows a failing delivery with its status, its retries, and the service disabling the webhook', async () => {
    const res = await api('POST', '/webhooks', merchant.apiKey, {
      description: 'Failing endpoint',
      endpoint: `${receiverOrigin}/hooks/failing`,
      subscribedEvent: 'consignment.status.updated',
      securityType: 'header',
      dataType: 'JSON',
      data: '',
      securityData: [],
      status: 1,
    });
    const failingId = res.json().data.webhook_id as string;
    const processed = await consignmentApi(harness.svc, merchant.apiKey).processed(draftBody({ preference: 0, provider_id: 1 }));
    const { context, page } = await harness.open({ apiKey: merchant.apiKey });
    try {
      await page.goto(`${harness.base}/console/webhooks/${failingId}`);
      const failed = page.locator('table.deliveries tbody tr.failed');
      await reloadUntil(page, 'a failed attempt in the log', async () => (await failed.count()) > 0);
      expect(await failed.first().locator('.http-status').innerText()).toBe('503');
      // Seen well inside the retry window: the newest attempt is to be retried.
      expect(await failed.first().innerText()).toContain('failed, will be retried');
      expect(await failed.first().locator(`a[href="/console/consignments/${processed.id}"]`).count()).toBe(1);
      // Between attempts the row says when the next one is (the delivery workflow's pending retry).
      await reloadUntil(page, 'the next try shown', async () => (await failed.first().innerText()).includes('next try'));
      // The retry window is 8 s here: retried until then, and the service disables the webhook with its reason.
      await reloadUntil(page, 'the webhook disabled by the service', async () =>
        (await page.locator('dl.facts').innerText()).includes('Disabled by the service'),
      );
      expect(await failed.count()).toBeGreaterThan(1);
      expect(await page.locator('table.deliveries tbody tr.ok').count()).toBe(0);
      expect(await page.locator('table.deliveries').innerText()).not.toContain('will be retried');
      const detail = (await api('GET', `/webhooks/${failingId}`, merchant.apiKey)).json().data;
      expect(detail.status).toBe(0);
      expect(await page.locator('dl.facts').innerText()).toContain(detail.disabled_reason);
    } finally {
      await context.close();
    }
  }, 180_000);

  it.each([['en'], ['tr']] as const)(
    'shows the API’s refusals next to their fields (%s)',
    async (locale) => {
      const { context, page } = await harness.open({ apiKey: merchant.apiKey, locale });
      try {
        await page.goto(`${harness.base}/console/webhooks`);
        await page.locator('#wh-description').fill('Refused');
        await page.locator('#wh-endpoint').fill('ftp://example.com/hooks');
        await page.locator('#wh-header-key-1').fill('Content-Type');
        await page.locator('#wh-header-value-1').fill('text/plain');
        await page.locator('form[action="/console/webhooks"] button[type="submit"]').click();
        const expected = await apiRefusals(
          {
            description: 'Refused',
            endpoint: 'ftp://example.com/hooks',
            subscribedEvent: 'consignment.status.updated',
            securityType: 'header',
            dataType: 'JSON',
            data: '',
            securityData: [{ headerKey: 'Content-Type', headerValue: 'text/plain' }],
            status: 1,
          },
          locale,
        );
        expect([...expected.keys()]).toEqual(['endpoint', 'securityData.0.headerKey']);
        expect(expected.get('endpoint')).toBe(locale === 'en' ? 'Invalid endpoint URL' : 'Geçersiz endpoint URL');
        expect(await page.locator('#wh-endpoint-error').innerText()).toBe(expected.get('endpoint'));
        expect(await page.locator('#wh-endpoint').getAttribute('aria-invalid')).toBe('true');
        // The header was typed in the second row: its refusal is shown there.
        expect(await page.locator('#wh-header-key-1-error').innerText()).toBe(expected.get('securityData.0.headerKey'));
        // What was typed is kept.
        expect(await page.locator('#wh-description').inputValue()).toBe('Refused');
        expect(await page.locator('#wh-header-value-1').inputValue()).toBe('text/plain');
        await harness.screenshot(page, `webhooks-refused-${locale}`);
      } finally {
        await context.close();
      }
    },
    120_000,
  );

  it('answers another customer’s webhook as not found, to pages and to actions', async () => {
    const res = await api('POST', '/webhooks', other.apiKey, {
      description: 'Not yours',
      endpoint: `${receiverOrigin}/hooks/other`,
      subscribedEvent: 'consignment.status.updated',
      securityType: 'header',
      dataType: 'JSON',
      data: '',
      securityData: [],
      status: 1,
    });
    expect(res.statusCode).toBe(201);
    const othersId = res.json().data.webhook_id as string;
    const { context, page } = await harness.open({ apiKey: merchant.apiKey });
    try {
      const answer = await page.goto(`${harness.base}/console/webhooks/${othersId}`);
      expect(answer!.status()).toBe(404);
      expect(await page.locator('h1').innerText()).toBe('Not found');
      expect(await page.content()).not.toContain('Not yours');
      expect((await page.goto(`${harness.base}/console/webhooks/wh_nonsense`))!.status()).toBe(404);
      await page.goto(`${harness.base}/console/webhooks`);
      expect(await page.locator(`tr[data-webhook="${othersId}"]`).count()).toBe(0);
      const token = await page.locator('input[name="_csrf"]').first().inputValue();
      const disable = await page.request.post(`${harness.base}/console/webhooks/${othersId}/disable`, { form: { _csrf: token } });
      expect(disable.status()).toBe(404);
      const remove = await page.request.post(`${harness.base}/console/webhooks/${othersId}/delete`, { form: { _csrf: token } });
      expect(remove.status()).toBe(404);
      expect((await api('GET', `/webhooks/${othersId}`, other.apiKey)).json().data.status).toBe(1);
    } finally {
      await context.close();
    }
  }, 120_000);

  it('shows the list and the delivery log in Turkish', async () => {
    const { context, page } = await harness.open({ apiKey: merchant.apiKey, locale: 'tr' });
    try {
      await page.goto(`${harness.base}/console/webhooks`);
      expect(await page.locator('#wh-list-heading').innerText()).toBe('Webhook’larınız');
      expect(await page.locator(`tr[data-webhook="${webhookId}"]`).innerText()).toContain('devre dışı');
      await harness.screenshot(page, 'webhooks-list-tr');
      await page.goto(`${harness.base}/console/webhooks/${webhookId}`);
      expect(await page.locator('#wh-log-heading').innerText()).toBe('Gönderim kaydı');
      expect(await page.locator('table.deliveries tbody tr.ok').first().innerText()).toContain('iletildi');
      expect(await page.locator('table.deliveries').innerText()).toContain('yeniden gönderim');
      await harness.screenshot(page, 'webhooks-detail-tr');
    } finally {
      await context.close();
    }
  }, 120_000);
});
