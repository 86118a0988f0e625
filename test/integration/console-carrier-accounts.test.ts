import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startConsoleHarness, type ConsoleHarness } from '../support/console-browser';

/**
 * The carrier accounts pages in headless Chromium against the real service: a DHL Express account (its credentials
 * are checked offline: nothing calls DHL until a booking) is added in the console, listed with its hint and never
 * its credentials, its credentials rotated, disabled and enabled; refusals read as the API's, next to their field;
 * another customer's account is not found.
 */
let harness: ConsoleHarness;
let merchant: { apiKey: string };
let other: { apiKey: string };

const PASSWORD = 'Sup3r-Secret-Pa55-9f1e';
const USERNAME = 'dhl-api-user-kq7';
const ACCOUNT = 'ACC778899';
const ROTATED = 'Rotated-Pa55-w0rd-0042';

beforeAll(async () => {
  harness = await startConsoleHarness();
  merchant = await harness.svc.customer('Anadolu Tekstil');
  other = await harness.svc.customer('Başka Firma');
}, 180_000);
afterAll(async () => harness?.stop());

const api = (method: 'GET' | 'POST', url: string, apiKey: string, payload?: object, lang?: string) =>
  harness.svc.request({ method, url: `/api/v1${url}`, apiKey, lang, ...(payload ? { payload } : {}) });

let providerId: number;

describe('the carrier accounts pages', () => {
  it('adds an account and shows it with its hint, never its credentials, beside the providers', async () => {
    const { context, page } = await harness.open({ apiKey: merchant.apiKey });
    try {
      await page.goto(`${harness.base}/console/carrier-accounts`);
      expect(await page.locator('.empty').innerText()).toBe('No carrier accounts yet.');
      await page.locator('#ca-carrier').selectOption('dhl_express');
      await page.locator('#ca-description').fill('DHL main account');
      await page.locator('#ca-credentials').fill(JSON.stringify({ username: USERNAME, password: PASSWORD, account_number: ACCOUNT }));
      await page.locator('#ca-settings').fill('{"label_format": "pdf"}');
      await Promise.all([page.waitForURL(/\/console\/carrier-accounts\/\d+\?done=created$/), page.getByRole('button', { name: 'Add account' }).click()]);
      providerId = Number(new URL(page.url()).pathname.split('/').pop());
      expect(await page.locator('.notice.info').innerText()).toContain('Carrier account created');
      expect(await page.locator('dl.facts .ca-hint').innerText()).toBe('****9f1e');
      for (const secret of [PASSWORD, USERNAME, ACCOUNT]) expect(await page.content()).not.toContain(secret);

      // The API agrees.
      const got = (await api('GET', `/carrier-accounts/${providerId}`, merchant.apiKey)).json().data;
      expect(got).toMatchObject({
        provider_id: providerId,
        carrier: 'dhl_express',
        description: 'DHL main account',
        credentials_hint: '****9f1e',
        settings: { label_format: 'pdf' },
        status: 1,
      });

      await page.goto(`${harness.base}/console/carrier-accounts`);
      const row = page.locator(`table.accounts tr[data-provider="${providerId}"]`);
      expect(await row.locator('td').nth(0).innerText()).toBe('dhl_express');
      expect(await row.innerText()).toContain('DHL main account');
      expect(await row.locator('.ca-hint').innerText()).toBe('****9f1e');
      expect(await row.innerText()).toContain('active');
      const html = await page.content();
      for (const secret of [PASSWORD, USERNAME, ACCOUNT]) expect(html).not.toContain(secret);

      // The providers are the API's list: the built-in carriers and this account.
      const providers = (await api('GET', '/providers', merchant.apiKey)).json().data as { id: number; name: string }[];
      expect(providers.map((p) => p.id)).toContain(providerId);
      const listed = await page.locator('table.providers tbody tr').evaluateAll((rows) => rows.map((r) => Number(r.getAttribute('data-provider'))));
      expect(listed).toEqual(providers.map((p) => p.id));
      for (const p of providers) expect(await page.locator(`table.providers tr[data-provider="${p.id}"] th`).innerText()).toBe(p.name);
      await harness.screenshot(page, 'carrier-accounts-list-en');
    } finally {
      await context.close();
    }
  }, 180_000);

  it('rotates the credentials, keeping the description and settings, then disables and enables the account', async () => {
    const { context, page } = await harness.open({ apiKey: merchant.apiKey });
    try {
      await page.goto(`${harness.base}/console/carrier-accounts/${providerId}`);
      await page.locator('#ca-new-credentials').fill(JSON.stringify({ username: USERNAME, password: ROTATED, account_number: ACCOUNT }));
      await Promise.all([page.waitForURL(/done=rotated/), page.getByRole('button', { name: 'Replace credentials' }).click()]);
      expect(await page.locator('.notice.info').innerText()).toBe('The credentials are replaced.');
      expect(await page.locator('dl.facts .ca-hint').innerText()).toBe('****0042');
      for (const secret of [PASSWORD, ROTATED, USERNAME, ACCOUNT]) expect(await page.content()).not.toContain(secret);
      expect((await api('GET', `/carrier-accounts/${providerId}`, merchant.apiKey)).json().data).toMatchObject({
        description: 'DHL main account',
        credentials_hint: '****0042',
        settings: { label_format: 'pdf' },
        status: 1,
      });
      await harness.screenshot(page, 'carrier-accounts-detail-en');

      await Promise.all([page.waitForURL(/done=disabled/), page.getByRole('button', { name: 'Disable' }).click()]);
      expect(await page.locator('#ca-status-value').innerText()).toBe('disabled');
      expect((await api('GET', `/carrier-accounts/${providerId}`, merchant.apiKey)).json().data).toMatchObject({ status: 0, credentials_hint: '****0042' });
      const providers = (await api('GET', '/providers', merchant.apiKey)).json().data as { id: number; status: number }[];
      expect(providers.find((p) => p.id === providerId)!.status).toBe(0);
      await page.goto(`${harness.base}/console/carrier-accounts`);
      expect(await page.locator(`table.accounts tr[data-provider="${providerId}"]`).innerText()).toContain('disabled');
      expect(await page.locator(`table.providers tr[data-provider="${providerId}"]`).innerText()).toContain('disabled');

      await page.goto(`${harness.base}/console/carrier-accounts/${providerId}`);
      await Promise.all([page.waitForURL(/done=enabled/), page.getByRole('button', { name: 'Enable' }).click()]);
      expect(await page.locator('#ca-status-value').innerText()).toBe('active');
      expect((await api('GET', `/carrier-accounts/${providerId}`, merchant.apiKey)).json().data.status).toBe(1);

      // Description and settings change without the credentials.
      await page.locator('#ca-edit-description').fill('DHL export');
      await page.locator('#ca-edit-settings').fill('{"label_format": "zpl"}');
      await Promise.all([page.waitForURL(/done=saved/), page.getByRole('button', { name: 'Save' }).click()]);
      expect((await api('GET', `/carrier-accounts/${providerId}`, merchant.apiKey)).json().data).toMatchObject({
        description: 'DHL export',
        settings: { label_format: 'zpl' },
        credentials_hint: '****0042',
      });
    } finally {
      await context.close();
    }
  }, 180_000);

  it.each([['en'], ['tr']] as const)(
    'shows the API’s refusals next to their fields, without the credentials typed (%s)',
    async (locale) => {
      const { context, page } = await harness.open({ apiKey: merchant.apiKey, locale });
      try {
        await page.goto(`${harness.base}/console/carrier-accounts`);
        const credentials = { username: '', password: PASSWORD, account_number: 'not an account!' };
        const settings = { label_format: 'gif' };
        await page.locator('#ca-carrier').selectOption('dhl_express');
        await page.locator('#ca-description').fill('Refused');
        await page.locator('#ca-credentials').fill(JSON.stringify(credentials));
        await page.locator('#ca-settings').fill(JSON.stringify(settings));
        await page.locator('form[action="/console/carrier-accounts"] button[type="submit"]').click();
        await page.locator('#ca-credentials-error').waitFor();
        const res = await api('POST', '/carrier-accounts', merchant.apiKey, { carrier: 'dhl_express', description: 'Refused', credentials, settings }, locale);
        expect(res.statusCode).toBe(400);
        const errors = res.json().errors as { field: string; message: string }[];
        expect(errors.map((e) => e.field)).toEqual(['credentials.username', 'credentials.account_number', 'settings.label_format']);
        const shown = {
          credentials: await page.locator('#ca-credentials-error').innerText(),
          settings: await page.locator('#ca-settings-error').innerText(),
        };
        for (const e of errors) expect(shown[e.field.split('.')[0] as 'credentials' | 'settings']).toContain(`${e.field}: ${e.message}`);
        expect(await page.locator('#ca-credentials').getAttribute('aria-invalid')).toBe('true');
        // What was typed is kept, except the credentials.
        expect(await page.locator('#ca-description').inputValue()).toBe('Refused');
        expect(JSON.parse(await page.locator('#ca-settings').inputValue())).toEqual(settings);
        expect(await page.locator('#ca-credentials').inputValue()).toBe('');
        expect(await page.content()).not.toContain(PASSWORD);
        await harness.screenshot(page, `carrier-accounts-refused-${locale}`);

        // Credentials that are not a JSON object: refused at their field, in the page's language.
        await page.locator('#ca-credentials').fill('{"username": ');
        await page.locator('#ca-settings').fill('');
        await page.locator('form[action="/console/carrier-accounts"] button[type="submit"]').click();
        await page.locator('#ca-credentials-error').waitFor();
        expect(await page.locator('#ca-credentials-error').innerText()).toBe(
          locale === 'en' ? 'This value should be of type object.' : 'Bu değerin türü object olmalıdır.',
        );
        expect(await page.locator('#ca-settings-error').count()).toBe(0);
        expect((await api('GET', '/carrier-accounts', merchant.apiKey)).json().data.total).toBe(1);
      } finally {
        await context.close();
      }
    },
    120_000,
  );

  it('refuses bad rotated credentials next to the field and keeps the stored ones', async () => {
    const { context, page } = await harness.open({ apiKey: merchant.apiKey });
    try {
      await page.goto(`${harness.base}/console/carrier-accounts/${providerId}`);
      await page.locator('#ca-new-credentials').fill(JSON.stringify({ username: USERNAME, password: '' }));
      await page.getByRole('button', { name: 'Replace credentials' }).click();
      await page.locator('#ca-new-credentials-error').waitFor();
      const text = await page.locator('#ca-new-credentials-error').innerText();
      expect(text).toContain('credentials.password: This value should not be blank.');
      expect(text).toContain('credentials.account_number:');
      expect((await api('GET', `/carrier-accounts/${providerId}`, merchant.apiKey)).json().data.credentials_hint).toBe('****0042');
    } finally {
      await context.close();
    }
  }, 120_000);

  it('answers another customer’s account as not found, to pages and to actions', async () => {
    const res = await api('POST', '/carrier-accounts', other.apiKey, {
      carrier: 'sendeo',
      description: 'Not yours',
      credentials: { customer_code: 'OTHER-1', password: 'other-password-1234' },
    });
    expect(res.statusCode).toBe(201);
    const othersId = res.json().data.provider_id as number;
    const { context, page } = await harness.open({ apiKey: merchant.apiKey });
    try {
      const answer = await page.goto(`${harness.base}/console/carrier-accounts/${othersId}`);
      expect(answer!.status()).toBe(404);
      expect(await page.locator('h1').innerText()).toBe('Not found');
      expect(await page.content()).not.toContain('Not yours');
      for (const id of ['abc', '0', '99999999999']) expect((await page.goto(`${harness.base}/console/carrier-accounts/${id}`))!.status()).toBe(404);
      await page.goto(`${harness.base}/console/carrier-accounts`);
      expect(await page.locator(`tr[data-provider="${othersId}"]`).count()).toBe(0);
      const token = await page.locator('input[name="_csrf"]').first().inputValue();
      for (const action of ['disable', 'delete', 'credentials']) {
        const post = await page.request.post(`${harness.base}/console/carrier-accounts/${othersId}/${action}`, {
          form: { _csrf: token, credentials: '{"customer_code":"X","password":"taken-over-1234"}' },
        });
        expect(post.status()).toBe(404);
      }
      expect((await api('GET', `/carrier-accounts/${othersId}`, other.apiKey)).json().data).toMatchObject({ status: 1, credentials_hint: '****1234' });
    } finally {
      await context.close();
    }
  }, 120_000);

  it('shows the list and an account in Turkish', async () => {
    const { context, page } = await harness.open({ apiKey: merchant.apiKey, locale: 'tr' });
    try {
      await page.goto(`${harness.base}/console/carrier-accounts`);
      expect(await page.locator('#ca-list-heading').innerText()).toBe('Kargo hesaplarınız');
      expect(await page.locator('#ca-providers-heading').innerText()).toBe('Gönderebileceğiniz sağlayıcılar');
      expect(await page.locator(`table.accounts tr[data-provider="${providerId}"]`).innerText()).toContain('etkin');
      await harness.screenshot(page, 'carrier-accounts-list-tr');
      await page.goto(`${harness.base}/console/carrier-accounts/${providerId}`);
      expect(await page.locator('h1').innerText()).toBe(`${providerId} numaralı kargo hesabı`);
      expect(await page.locator('#ca-rotate-heading').innerText()).toBe('Kimlik bilgilerini yenile');
      await harness.screenshot(page, 'carrier-accounts-detail-tr');
    } finally {
      await context.close();
    }
  }, 120_000);
});
