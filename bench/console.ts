/**
 * The console's pages on the default `npm start` (its own process, PGlite on a file, the embedded engine) with
 * CONSOLE_N consignments of one customer: how long the pages a merchant opens first take, over real HTTP, against
 * the API answering the same data in the same run (the ratios' baseline: the console renders what the API's list
 * and lookup give, as HTML). Then the same pages in headless Chromium (Playwright, the system Chromium): the time to
 * a loaded page and the bytes transferred, as a person on a laptop sees them. Times are printed, never asserted.
 *
 *   npx tsx bench/console.ts
 *   CONSOLE_N=2000 CONSOLE_REQUESTS=100 npx tsx bench/console.ts
 *
 * Env: CONSOLE_N (10000 consignments), CONSOLE_REQUESTS (200 per page, one client after another: a person's
 * clicks, not a load test), CHROMIUM_PATH (/usr/bin/chromium).
 */
import { existsSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { chromium } from 'playwright-core';
import { generateApiKey } from '../src/db/customers.repository';
import { fmt, positiveInt, printTable, runBench, runConcurrent, shippingDraftBody, startServiceProcess, summarize } from './support';

const N = positiveInt('CONSOLE_N', 10_000);
const REQUESTS = positiveInt('CONSOLE_REQUESTS', 200);
const CHROMIUM = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p): p is string => !!p && existsSync(p));

async function timed(url: string, headers: Record<string, string>): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < REQUESTS; i++) {
    const t0 = performance.now();
    const response = await fetch(url, { headers, redirect: 'manual' });
    await response.arrayBuffer();
    if (response.status !== 200) throw new Error(`${url}: ${response.status}`);
    times.push(performance.now() - t0);
  }
  return times;
}

runBench(async () => {
  const apiKey = generateApiKey();
  // The API's list and lookups are rate-limited per key (120 and 300 a minute); the baseline asks more often than that.
  const service = await startServiceProcess({ BOOTSTRAP_API_KEYS: apiKey, LIST_RATE_LIMIT_PER_MIN: '100000', LOOKUP_RATE_LIMIT_PER_MIN: '100000' });
  try {
    const { origin } = service;
    const api = { apikey: apiKey, 'content-type': 'application/json' };
    const t0 = performance.now();
    let last = 0;
    await runConcurrent(N, 50, async (i) => {
      const response = await fetch(`${origin}/api/v1/consignments/draft`, { method: 'POST', headers: api, body: shippingDraftBody(`CONSOLE-${i}`, i) });
      if (response.status !== 201) throw new Error(`draft ${i}: ${response.status} ${await response.text()}`);
      last = Math.max(last, ((await response.json()) as { data: { id: number } }).data.id);
    });
    console.log(
      `console bench: ${N} consignments of one customer made in ${fmt((performance.now() - t0) / 1000)} s; ${REQUESTS} requests a page, one at a time`,
    );

    const signIn = await fetch(`${origin}/console/sign-in`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-site': 'same-origin' },
      body: new URLSearchParams({ api_key: apiKey }),
      redirect: 'manual',
    });
    const cookie = /cf_console=[^;]+/.exec(signIn.headers.get('set-cookie') ?? '')?.[0];
    if (!cookie) throw new Error(`sign-in failed: ${signIn.status}`);
    const pages: { name: string; url: string; headers: Record<string, string> }[] = [
      { name: 'API: GET /consignments?limit=50 (baseline)', url: '/api/v1/consignments?limit=50', headers: { apikey: apiKey } },
      { name: 'console: consignments, first page', url: '/console/consignments', headers: { cookie } },
      { name: 'console: consignments, page 100', url: '/console/consignments?page=100', headers: { cookie } },
      { name: 'console: consignments, reference prefix', url: '/console/consignments?reference_no=CONSOLE-99', headers: { cookie } },
      { name: 'API: GET /consignments/{id}/details (baseline)', url: `/api/v1/consignments/${last}/details`, headers: { apikey: apiKey } },
      { name: 'console: a consignment', url: `/console/consignments/${last}`, headers: { cookie } },
      { name: 'console: sign-in page (no data)', url: '/console/sign-in', headers: {} },
    ];
    const rows: (string | number)[][] = [];
    let baseline = Number.NaN;
    for (const p of pages) {
      await timed(`${origin}${p.url}`, p.headers); // warm-up: the first requests compile and plan
      const s = summarize(await timed(`${origin}${p.url}`, p.headers));
      if (p.name.startsWith('API: GET /consignments?')) baseline = s.p50;
      rows.push([p.name, fmt(s.p50), fmt(s.p99), fmt(s.max), p.name.startsWith('console: consignments') ? `${fmt(s.p50 / baseline, 2)}×` : '']);
    }
    printTable(['page', 'p50 ms', 'p99 ms', 'max ms', 'p50 ÷ API list'], rows);

    if (!CHROMIUM) {
      console.log('no Chromium (apt-get install -y chromium, or CHROMIUM_PATH): the browser timings are skipped');
      return;
    }
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-dev-shm-usage', '--disable-gpu'] });
    try {
      const context = await browser.newContext();
      const page = await context.newPage();
      const browserRows: (string | number)[][] = [];
      const visit = async (name: string, url: string) => {
        const t = performance.now();
        await page.goto(`${origin}${url}`, { waitUntil: 'load' });
        const loadMs = performance.now() - t;
        // A string, so that it runs as the browser's code (this file's `performance` is Node's).
        const timing = (await page.evaluate(
          `(() => { const [n] = performance.getEntriesByType('navigation'); const bytes = [n, ...performance.getEntriesByType('resource')].reduce((sum, e) => sum + e.transferSize, 0); return { ttfb: n.responseStart - n.requestStart, dcl: n.domContentLoadedEventEnd, bytes }; })()`,
        )) as { ttfb: number; dcl: number; bytes: number };
        browserRows.push([name, fmt(timing.ttfb), fmt(timing.dcl), fmt(loadMs), fmt(timing.bytes / 1024)]);
      };
      await visit('sign-in page, first visit (nothing cached)', '/console/sign-in');
      await page.locator('#api_key').fill(apiKey);
      await Promise.all([page.waitForURL(/\/console\/consignments/), page.locator('form[action="/console/sign-in"] button').click()]);
      await visit('consignments, first page', '/console/consignments');
      await visit('consignments, page 100', '/console/consignments?page=100');
      await visit('a consignment', `/console/consignments/${last}`);
      printTable(['in Chromium', 'server answer ms (TTFB)', 'DOM ready ms', 'loaded ms', 'kB transferred'], browserRows);
    } finally {
      await browser.close();
    }
  } finally {
    await service.stop();
  }
});
