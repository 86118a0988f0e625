import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Locator, Page } from 'playwright-core';
import { signIn, startConsoleHarness, type ConsoleHarness } from '../support/console-browser';
import { consignmentApi, draftBody } from '../support/consignments';

/**
 * The console's new-draft and edit-draft form in headless Chromium against the real service: both parties (the
 * consignee filled from the address type-ahead over the Turkish address data), packages and items added and removed
 * by round trips, the API's refusals next to the fields they name (in English and Turkish, worded as the API words
 * them), editing a draft, and a draft that stopped being one. The API is asked what was stored.
 */
let harness: ConsoleHarness;
let merchant: { apiKey: string; customerId: number };
let created: number;

beforeAll(async () => {
  // Only the Turkish address data: the type-ahead looks for Caferağa (Kadıköy, İstanbul, 34710).
  harness = await startConsoleHarness({ ADDRESS_COUNTRIES: 'TR' });
  merchant = await harness.svc.customer('Boğaziçi Kitap');
}, 180_000);
afterAll(async () => harness?.stop());

/** Clicks a button that posts the form and waits for the page the answer is. */
async function post(page: Page, button: Locator): Promise<number> {
  const [response] = await Promise.all([page.waitForResponse((r) => r.request().method() === 'POST' && r.url().includes('/console/drafts/')), button.click()]);
  await page.waitForLoadState('domcontentloaded');
  return response.status();
}

const op = (page: Page, value: string) => page.locator(`button[name="op"][value="${value}"]`);
const save = (page: Page) => page.locator('.form-actions button[value="save"]');

/** The API's own refusal of `body` (create), in `lang`: field → messages. */
async function apiRefusal(body: Record<string, unknown>, lang: string): Promise<Map<string, string>> {
  const res = await harness.svc.request({ method: 'POST', url: '/api/v1/consignments/draft', apiKey: merchant.apiKey, lang, payload: body });
  expect(res.statusCode).toBe(400);
  const errors = (res.json() as { errors: { field?: string; message: string }[] }).errors;
  return new Map(errors.map((e) => [e.field ?? '', e.message]));
}

describe('the draft form', () => {
  it('creates a draft: both parties, the consignee from the address search, two packages with an item', async () => {
    const { context, page } = await harness.open({ apiKey: merchant.apiKey });
    try {
      await page.goto(`${harness.base}/console/drafts/new`);
      expect(await page.locator('h1').innerText()).toBe('New draft');
      await page.locator('#reference-no').fill('CONSOLE-1');
      await page.locator('#preference').selectOption('1');
      await page.locator('#consignor-name').fill('Ayşe Yılmaz');
      await page.locator('#consignor-attention-name').fill('Boğaziçi Kitap Ltd.');
      await page.locator('#consignor-phone-number').fill('+905321112233');
      await page.locator('#consignor-email').fill('ayse@example.com');
      await page.locator('#consignor-address').fill('Atatürk Bulvarı 10');
      await page.locator('#consignor-country').fill('TR');
      await page.locator('#consignor-city').fill('Çankaya');
      await page.locator('#consignor-state').fill('Ankara');
      await page.locator('#consignor-postal-code').fill('06420');
      await page.locator('#consignee-name').fill('Şükrü Öztürk');
      await page.locator('#consignee-phone-number').fill('+905554443322');
      await page.locator('#consignee-address').fill('Moda Caddesi 5');

      // The type-ahead: the country first, then a place name as typed on any keyboard.
      await page.locator('#consignee-country').fill('tr');
      await page.locator('#consignee-lookup').pressSequentially('caferaga', { delay: 30 });
      const use = page.locator('#consignee-results button[data-fill="consignee"]').first();
      await use.waitFor();
      expect(await use.getAttribute('data-postal-code')).toBe('34710');
      await use.click();
      expect(await page.locator('#consignee-city').inputValue()).toBe('Kadıköy');
      expect(await page.locator('#consignee-state').inputValue()).toBe('İstanbul');
      expect(await page.locator('#consignee-postal-code').inputValue()).toBe('34710');
      expect(await page.locator('#consignee-country').inputValue()).toBe('TR');
      // The consignor's fields are not touched, and the results are gone.
      expect(await page.locator('#consignor-city').inputValue()).toBe('Çankaya');
      expect(await page.locator('#consignee-results button').count()).toBe(0);

      await page.locator('#packages-0-weight').fill('1.5');
      await page.locator('#packages-0-length').fill('30');
      await page.locator('#packages-0-width').fill('20');
      await page.locator('#packages-0-height').fill('10');

      // Adding a package is a round trip that keeps everything typed so far.
      expect(await post(page, op(page, 'add-package'))).toBe(200);
      expect(await page.locator('fieldset.package').count()).toBe(2);
      expect(await page.locator('#consignee-city').inputValue()).toBe('Kadıköy');
      expect(await page.locator('#consignee-postal-code').inputValue()).toBe('34710');
      expect(await page.locator('#packages-0-weight').inputValue()).toBe('1.5');
      expect(await page.locator('#reference-no').inputValue()).toBe('CONSOLE-1');
      // A Turkish decimal comma is a number too.
      await page.locator('#packages-1-weight').fill('2,5');
      await page.locator('#packages-1-package-type').selectOption('2');

      expect(await post(page, op(page, 'add-item:1'))).toBe(200);
      await page.locator('#packages-1-items-0-description').fill('Kitap');
      await page.locator('#packages-1-items-0-quantity').fill('3');
      await page.locator('#packages-1-items-0-unit-price').fill('12.5');
      await page.locator('#packages-1-items-0-currency-code').fill('try');
      await page.locator('#packages-1-items-0-origin').fill('TR');
      await page.locator('#packages-1-items-0-gtip').fill('490199');
      // An item added and removed again leaves nothing behind.
      expect(await post(page, op(page, 'add-item:1'))).toBe(200);
      expect(await page.locator('#packages-1-items-1-description').count()).toBe(1);
      expect(await post(page, op(page, 'remove-item:1:1'))).toBe(200);
      expect(await page.locator('#packages-1-items-1-description').count()).toBe(0);
      expect(await page.locator('#packages-1-items-0-description').inputValue()).toBe('Kitap');

      await Promise.all([page.waitForURL(/\/console\/consignments\/\d+$/), save(page).click()]);
      created = Number(/\/consignments\/(\d+)$/.exec(page.url())![1]);
      expect(await page.locator('h1').innerText()).toContain(String(created));

      const stored = await consignmentApi(harness.svc, merchant.apiKey).details(created);
      expect(stored).toMatchObject({
        reference_no: 'CONSOLE-1',
        status: 24,
        // The lookup gives the sums (1.5 + 2.5 kg; 30 × 20 × 10 / 3000 desi), not each package's measures: the edit form shows those.
        weight: 4,
        desi: 2,
        consignor: { name: 'Ayşe Yılmaz', city: 'Çankaya', state: 'Ankara', postal_code: '06420', phone: '+905321112233', email: 'ayse@example.com' },
        consignee: { name: 'Şükrü Öztürk', city: 'Kadıköy', state: 'İstanbul', postal_code: '34710', address: 'Moda Caddesi 5', phone: '+905554443322' },
      });
      const packages = stored.packages as { package_type: number | null; items: Record<string, unknown>[] }[];
      expect(packages).toHaveLength(2);
      expect(packages[0]).toMatchObject({ package_type: null, items: [] });
      expect(packages[1]).toMatchObject({ package_type: 2 });
      expect(packages[1].items).toHaveLength(1);
      expect(packages[1].items[0]).toMatchObject({ description: 'Kitap', quantity: 3, unit_price: 12.5, gtip: '490199' });
    } finally {
      await context.close();
    }
  }, 180_000);

  it("shows the API's refusal next to each field it names, worded as the API words it, in English and Turkish", async () => {
    for (const locale of ['en', 'tr'] as const) {
      const { context, page } = await harness.open({ apiKey: merchant.apiKey, locale });
      try {
        await page.goto(`${harness.base}/console/drafts/new`);
        await page.locator('#reference-no').fill(`BAD-${locale}`);
        await page.locator('#preference').selectOption('0'); // a specific carrier, and none chosen
        await page.locator('#consignee-name').fill('Hans Müller');
        await page.locator('#consignee-phone-number').fill('+90 555 111 22 33 44 55 66'); // longer than 20
        await page.locator('#consignee-email').fill('not-an-email');
        await page.locator('#consignee-country').fill('XX');
        // Package 1 stays blank (not sent); package 2 has a bad weight and an item with a bad currency, so the
        // API's `packages.0…` must land on the second package's inputs.
        expect(await post(page, op(page, 'add-package'))).toBe(200);
        expect(await post(page, op(page, 'add-item:1'))).toBe(200);
        await page.locator('#packages-1-weight').fill('-2');
        await page.locator('#packages-1-items-0-description').fill('Kitap');
        await page.locator('#packages-1-items-0-currency-code').fill('TL');

        expect(await post(page, save(page))).toBe(400);
        const api = await apiRefusal(
          {
            reference_no: `BAD-${locale}`,
            preference: 0,
            consignor: {},
            consignee: { name: 'Hans Müller', phone_number: '+90 555 111 22 33 44 55 66', email: 'not-an-email', country: 'XX' },
            packages: [{ weight: -2, items: [{ description: 'Kitap', currency_code: 'TL' }] }],
          },
          locale,
        );
        const expected: [string, string][] = [
          ['consignee-phone-number', 'consignee.phone_number'],
          ['consignee-email', 'consignee.email'],
          ['consignee-country', 'consignee.country'],
          ['provider-id', 'provider_id'],
          ['packages-1-weight', 'packages.0.weight'],
          ['packages-1-items-0-currency-code', 'packages.0.items.0.currency_code'],
        ];
        expect(api.size).toBe(expected.length);
        for (const [id, field] of expected) {
          expect(api.get(field)).toBeTruthy();
          expect(await page.locator(`#${id}-error`).innerText()).toBe(api.get(field));
          expect(await page.locator(`#${id}`).getAttribute('aria-invalid')).toBe('true');
          expect(await page.locator(`#${id}`).getAttribute('aria-describedby')).toBe(`${id}-error`);
        }
        // Every message is also in the summary at the top, each linking to its input.
        const summary = page.locator('.error-summary[role="alert"]');
        expect(await summary.locator('li').count()).toBe(expected.length);
        for (const [id, field] of expected) expect(await summary.locator(`a[href="#${id}"]`).locator('xpath=..').innerText()).toContain(api.get(field)!);
        // What was typed is still there, blank package included.
        expect(await page.locator('#consignee-phone-number').inputValue()).toBe('+90 555 111 22 33 44 55 66');
        expect(await page.locator('#consignee-name').inputValue()).toBe('Hans Müller');
        expect(await page.locator('fieldset.package').count()).toBe(2);
        expect(await page.locator('#packages-1-items-0-description').inputValue()).toBe('Kitap');
        await harness.screenshot(page, `drafts-new-errors-${locale}`);
      } finally {
        await context.close();
      }
    }
    // Nothing was created by the refused forms.
    const list = await harness.svc.request({ method: 'GET', url: '/api/v1/consignments?reference_no=BAD', apiKey: merchant.apiKey });
    expect(list.statusCode).toBe(200);
    expect(JSON.stringify(list.json())).not.toContain('BAD-');
  }, 180_000);

  it('edits a draft from its page: the form holds what is stored, a changed reference and a removed package are saved', async () => {
    for (const locale of ['en', 'tr'] as const) {
      const { context, page } = await harness.open({ apiKey: merchant.apiKey, locale });
      try {
        await page.goto(`${harness.base}/console/drafts/${created}/edit`);
        await harness.screenshot(page, `drafts-edit-${locale}`);
      } finally {
        await context.close();
      }
    }
    const { context, page } = await harness.open({ apiKey: merchant.apiKey });
    try {
      await page.goto(`${harness.base}/console/consignments/${created}`);
      await Promise.all([page.waitForURL(/\/drafts\/\d+\/edit$/), page.locator(`a[href="/console/drafts/${created}/edit"]`).click()]);
      expect(await page.locator('h1').innerText()).toBe(`Edit draft ${created}`);
      expect(await page.locator('#reference-no').inputValue()).toBe('CONSOLE-1');
      expect(await page.locator('#preference').inputValue()).toBe('1');
      expect(await page.locator('#consignee-city').inputValue()).toBe('Kadıköy');
      expect(await page.locator('#consignor-email').inputValue()).toBe('ayse@example.com');
      expect(await page.locator('fieldset.package').count()).toBe(2);
      expect(await page.locator('#packages-0-weight').inputValue()).toBe('1.5');
      expect(await page.locator('#packages-0-height').inputValue()).toBe('10');
      expect(await page.locator('#packages-1-weight').inputValue()).toBe('2.5');
      expect(await page.locator('#packages-1-package-type').inputValue()).toBe('2');
      expect(await page.locator('#packages-1-items-0-gtip').inputValue()).toBe('490199');

      await page.locator('#reference-no').fill('CONSOLE-1-B');
      // A cleared field is cleared (not left as it was).
      await page.locator('#consignor-email').fill('');
      expect(await post(page, op(page, 'remove-package:0'))).toBe(200);
      expect(await page.locator('fieldset.package').count()).toBe(1);
      expect(await page.locator('#packages-0-weight').inputValue()).toBe('2.5');
      await Promise.all([page.waitForURL(new RegExp(`/console/consignments/${created}$`)), save(page).click()]);

      const stored = await consignmentApi(harness.svc, merchant.apiKey).details(created);
      expect(stored.reference_no).toBe('CONSOLE-1-B');
      expect((stored.consignor as { email: string | null }).email).toBeNull();
      expect((stored.consignee as { city: string }).city).toBe('Kadıköy');
      expect(stored).toMatchObject({ weight: 2.5, desi: 0 });
      const packages = stored.packages as { package_type: number; items: unknown[] }[];
      expect(packages).toHaveLength(1);
      expect(packages[0].package_type).toBe(2);
      expect(packages[0].items).toHaveLength(1);
      expect(await page.locator('dl.facts').innerText()).toContain('CONSOLE-1-B');

      // A reference another consignment has is the API's REFERENCE_USED, next to the reference.
      const other = await consignmentApi(harness.svc, merchant.apiKey).draft(draftBody({ reference_no: 'TAKEN-1' }));
      expect(other.id).toBeGreaterThan(0);
      await page.goto(`${harness.base}/console/drafts/${created}/edit`);
      await page.locator('#reference-no').fill('TAKEN-1');
      expect(await post(page, save(page))).toBe(409);
      expect(await page.locator('#reference-no-error').innerText()).toBeTruthy();
      expect((await consignmentApi(harness.svc, merchant.apiKey).details(created)).reference_no).toBe('CONSOLE-1-B');
    } finally {
      await context.close();
    }
  }, 180_000);

  it("refuses to edit a consignment that is no longer a draft with the API's NOT_DRAFT, and another customer's is not found", async () => {
    const api = consignmentApi(harness.svc, merchant.apiKey);
    const { id } = await api.draft(draftBody({ reference_no: 'GOING-1' }));
    const { context, page } = await harness.open({ apiKey: merchant.apiKey });
    try {
      await page.goto(`${harness.base}/console/drafts/${id}/edit`);
      await page.locator('#reference-no').fill('GOING-2');
      // Processed through the API while the form is open.
      expect((await api.process(id)).statusCode).toBe(200);
      const update = await harness.svc.request({
        method: 'PUT',
        url: `/api/v1/consignments/draft/${id}`,
        apiKey: merchant.apiKey,
        payload: { reference_no: 'X' },
      });
      const refusal = (update.json() as { errors: { message: string }[] }).errors[0].message;
      expect(update.statusCode).toBe(409);

      expect(await post(page, save(page))).toBe(409);
      expect(await page.locator('.error-summary[role="alert"]').innerText()).toContain(refusal);
      const after = await api.details(id);
      expect(after.reference_no).toBe('GOING-1');
      expect(after.status).not.toBe(24);

      const response = await page.goto(`${harness.base}/console/drafts/${id}/edit`);
      expect(response!.status()).toBe(409);
      expect(await page.locator('[role="alert"]').innerText()).toContain(refusal);
      expect(await page.locator('form.draft-form').count()).toBe(0);

      const stranger = await harness.svc.customer('Başka Firma');
      const theirs = await consignmentApi(harness.svc, stranger.apiKey).draft(draftBody({ reference_no: 'THEIRS-1' }));
      expect((await page.goto(`${harness.base}/console/drafts/${theirs.id}/edit`))!.status()).toBe(404);
    } finally {
      await context.close();
    }
  }, 180_000);

  it('works without script: rows are added by round trips and the address search answers in the page', async () => {
    const context = await harness.browser.newContext({ javaScriptEnabled: false, locale: 'tr-TR' });
    try {
      const page = await context.newPage();
      await signIn(page, harness.base, merchant.apiKey);
      await page.goto(`${harness.base}/console/drafts/new`);
      await page.locator('#consignee-name').fill('Zeynep Kaya');
      await page.locator('#consignee-country').fill('TR');
      await page.locator('#consignee-lookup').fill('kadikoy');
      expect(await post(page, op(page, 'search:consignee'))).toBe(200);
      expect(await page.locator('#consignee-results').innerText()).toContain('Kadıköy');
      expect(await page.locator('#consignee-name').inputValue()).toBe('Zeynep Kaya');
      expect(await post(page, op(page, 'add-package'))).toBe(200);
      expect(await page.locator('fieldset.package').count()).toBe(2);
      await page.locator('#packages-1-weight').fill('4');
      await page.locator('#consignee-city').fill('Kadıköy');
      // Enter in a text field saves (the form's first button is the save button).
      await Promise.all([page.waitForURL(/\/console\/consignments\/\d+$/), page.locator('#consignee-city').press('Enter')]);
      const id = Number(/\/consignments\/(\d+)$/.exec(page.url())![1]);
      const stored = await consignmentApi(harness.svc, merchant.apiKey).details(id);
      expect(stored.consignee).toMatchObject({ name: 'Zeynep Kaya', city: 'Kadıköy' });
      // The blank first package was not sent.
      expect(stored.weight).toBe(4);
      expect(stored.packages).toHaveLength(1);
    } finally {
      await context.close();
    }
  }, 180_000);
});
