import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Locator, Page } from 'playwright-core';
import { startConsoleHarness, type ConsoleHarness } from '../support/console-browser';

/**
 * The console's address search in headless Chromium against the real service with Turkey's address data loaded:
 * matches appear as one types (htmx, no submit) and are the API's own, the same page works as a plain GET form,
 * the results fragment the draft form uses carries each match as data attributes with a "use this address" button,
 * and a refused keyword is worded as the API words it. Screenshots in en and tr.
 */
type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

let harness: ConsoleHarness;
let merchant: { apiKey: string };

beforeAll(async () => {
  // Turkey only: the console offers the countries whose data is loaded.
  harness = await startConsoleHarness({ ADDRESS_COUNTRIES: 'TR' });
  merchant = await harness.svc.customer('Anadolu Tekstil');
}, 180_000);
afterAll(async () => harness?.stop());

const ALL_FIELDS = ['place', 'city', 'state', 'postalCode'];

/** GET /api/v1/address/search as the console asks it: every field (or those given), 20 at once. */
async function apiSearch(keyword: string, fields = ALL_FIELDS, lang?: string): Promise<{ status: number; body: Json }> {
  const query = new URLSearchParams({ countryIso2: 'TR', keyword, limit: '20' });
  for (const f of fields) query.append('searchFields[]', f);
  const res = await harness.svc.request({ method: 'GET', url: `/api/v1/address/search?${query}`, apiKey: merchant.apiKey, lang });
  return { status: res.statusCode, body: res.json() };
}

/** A result row as the page shows it and as its data attributes carry it, in the API's field names. */
async function rowOf(row: Locator) {
  const cells = await row.locator('td').allInnerTexts();
  const data = (name: string) => row.getAttribute(`data-${name}`);
  return {
    shown: cells.slice(0, 5),
    data: {
      countryIso2: await data('country'),
      state: await data('state'),
      stateCode: await data('state-code'),
      city: await data('city'),
      place: await data('place'),
      postalCode: await data('postal-code'),
    },
  };
}

const shownAsApi = (r: Json) => [r.state, r.city, r.place, r.postalCode, r.stateCode].map((v: string) => v || '—');

async function typeInto(page: Page, text: string) {
  const box = page.locator('#address-q');
  await box.fill('');
  await box.pressSequentially(text, { delay: 40 });
}

describe('address search in the console', () => {
  it('shows the API’s matches as one types, without submitting, and the same page as a plain form', async () => {
    const { context, page } = await harness.open({ apiKey: merchant.apiKey });
    try {
      await page.goto(`${harness.base}/console/address-search`);
      expect(await page.locator('#address-country option').evaluateAll((options) => options.map((o) => o.getAttribute('value')))).toEqual(['TR']);
      expect(await page.locator('#address-results').innerText()).toContain('Type at least one letter');
      const searchPage = page.url();

      const fragment = page.waitForRequest((r) => r.url().includes('/console/address-search/results?') && r.url().includes('q=caferaga'));
      await typeInto(page, 'caferaga');
      expect(new URL((await fragment).url()).searchParams.get('country')).toBe('TR');
      const first = page.locator('#address-results tbody tr').first();
      await first.waitFor();
      // Nothing was submitted: the page is the same, its results came in place.
      expect(page.url()).toBe(searchPage);

      const api = await apiSearch('caferaga');
      expect(api.status).toBe(200);
      const top = api.body.data.results[0];
      expect(top).toMatchObject({ city: 'Kadıköy', state: 'İstanbul', postalCode: '34710', place: 'Caferağa Mah' });
      expect(await rowOf(first)).toEqual({ shown: shownAsApi(top), data: top });
      expect(await page.locator('#address-results tbody tr').count()).toBe(api.body.data.results.length);
      // The search page offers no "use this address" button: that is the draft form's.
      expect(await page.locator('#address-results button[data-fill]').count()).toBe(0);
      await harness.screenshot(page, 'address-search-en');

      // Another scope, chosen in its select, searches again at once: one row per city.
      await page.locator('#address-in').selectOption('city');
      const kadikoy = page.waitForResponse((r) => r.url().includes('q=kadikoy') && r.url().includes('in=city'));
      await typeInto(page, 'kadikoy');
      await kadikoy;
      const cityTop = (await apiSearch('kadikoy', ['city'])).body.data.results[0];
      expect(cityTop).toMatchObject({ city: 'Kadıköy', state: 'İstanbul', place: '', postalCode: '' });
      await page.locator('#address-results tbody tr:first-child[data-city="Kadıköy"][data-place=""]').waitFor();
      expect(await rowOf(page.locator('#address-results tbody tr').first())).toEqual({ shown: shownAsApi(cityTop), data: cityTop });

      // Without script: the form's GET, and the page itself shows the same results.
      await page.goto(`${harness.base}/console/address-search?country=TR&q=caferaga`);
      expect(await page.locator('#address-q').inputValue()).toBe('caferaga');
      expect(await rowOf(page.locator('#address-results tbody tr').first())).toEqual({ shown: shownAsApi(top), data: top });
    } finally {
      await context.close();
    }
  }, 120_000);

  it('gives the draft form a fragment whose rows carry their fields and a "use this address" button', async () => {
    const { context, page } = await harness.open({ apiKey: merchant.apiKey });
    try {
      const top = (await apiSearch('caferaga')).body.data.results[0];
      const answer = await page.goto(`${harness.base}/console/address-search/results?country=TR&q=caferaga&target=consignee`);
      expect(answer?.status()).toBe(200);
      expect(await page.locator('header, h1').count()).toBe(0);
      const button = page.locator('button[data-fill="consignee"]').first();
      expect(await button.innerText()).toBe('Use this address');
      for (const [attribute, value] of Object.entries({
        'data-country': 'TR',
        'data-state': top.state,
        'data-state-code': top.stateCode,
        'data-city': top.city,
        'data-place': top.place,
        'data-postal-code': top.postalCode,
      })) {
        expect(await button.getAttribute(attribute)).toBe(value);
      }
      // An unknown target gives no buttons.
      await page.goto(`${harness.base}/console/address-search/results?country=TR&q=caferaga&target=somebody`);
      expect(await page.locator('tbody tr').count()).toBeGreaterThan(0);
      expect(await page.locator('button[data-fill]').count()).toBe(0);

      // A refused keyword, worded as the API words it, in the fragment (200: htmx swaps it in) and on the page (400).
      const long = 'k'.repeat(101);
      const refused = await apiSearch(long, ALL_FIELDS);
      expect(refused.status).toBe(400);
      await page.goto(`${harness.base}/console/address-search/results?country=TR&q=${long}`);
      expect(await page.locator('ul.errors li').innerText()).toBe(`Place, district, city or postal code: ${refused.body.errors[0].message}`);
      const pageAnswer = await page.goto(`${harness.base}/console/address-search?country=TR&q=${long}`);
      expect(pageAnswer?.status()).toBe(400);
      expect(await page.locator('#address-results ul.errors li').innerText()).toContain(refused.body.errors[0].message);
    } finally {
      await context.close();
    }
  }, 120_000);

  it('speaks Turkish', async () => {
    const { context, page } = await harness.open({ apiKey: merchant.apiKey, locale: 'tr' });
    try {
      await page.goto(`${harness.base}/console/address-search`);
      expect(await page.locator('h1').innerText()).toBe('Adres arama');
      expect(await page.locator('#address-country option').first().innerText()).toBe('Türkiye (TR)');
      await typeInto(page, 'Kadıköy');
      await page.locator('#address-results tbody tr').first().waitFor();
      const top = (await apiSearch('Kadıköy')).body.data.results[0];
      expect(await rowOf(page.locator('#address-results tbody tr').first())).toEqual({ shown: shownAsApi(top), data: top });
      expect(await page.locator('#address-results thead').innerText()).toContain('Posta kodu');
      await harness.screenshot(page, 'address-search-tr');
    } finally {
      await context.close();
    }
  }, 120_000);
});
