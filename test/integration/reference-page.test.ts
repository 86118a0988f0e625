import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { PROJECT_ROOT } from '../../src/temporal/temporal-cli';
import { startTestService, type TestService } from '../support/test-service';

/**
 * The reference page (/docs) renders in a real browser: headless Chromium (Debian's `chromium`, which
 * `.ci/run` installs) loads it from the running service (no CDN), runs Swagger UI, which fetches
 * /api/v1/openapi.json, and the rendered page lists the operations. A screenshot is saved for a person to
 * look at: `.artifacts/docs-reference.png`.
 */
const run = promisify(execFile);
const CHROMIUM = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p): p is string => !!p && existsSync(p));
const SCREENSHOT = join(PROJECT_ROOT, '.artifacts', 'docs-reference.png');

let svc: TestService;
let base: string;

beforeAll(async () => {
  svc = await startTestService();
  base = await svc.app.listen({ host: '127.0.0.1', port: 0 });
});
afterAll(async () => svc?.stop());

const chromium = (args: string[]) =>
  run(
    CHROMIUM!,
    ['--headless', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--no-first-run', '--hide-scrollbars', '--virtual-time-budget=20000', ...args],
    {
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
      timeout: 90_000,
    },
  );

it('the reference page renders every operation in headless Chromium, from the service alone', async () => {
  if (!CHROMIUM) throw new Error('this test needs Chromium: apt-get install -y chromium (.ci/run installs it), or set CHROMIUM_PATH');
  const page = await svc.request({ method: 'GET', url: '/docs' });
  expect(page.statusCode).toBe(200);
  // Nothing it loads comes from another host.
  expect(page.body).not.toMatch(/(src|href)="https?:\/\//);

  const { stdout: dom } = await chromium(['--dump-dom', `${base}/docs`]);
  const document = await svc.request({ method: 'GET', url: '/api/v1/openapi.json' });
  const operations = Object.values(JSON.parse(document.body).paths as Record<string, Record<string, { summary: string }>>).flatMap((ops) => Object.values(ops));
  expect(dom).toContain('consignflow API');
  // One block per operation (Swagger UI's `opblock`) and one for the webhook, and each summary shown.
  const webhooks = Object.keys(JSON.parse(document.body).webhooks as object).length;
  expect(dom.match(/class="opblock opblock-/g)?.length).toBe(operations.length + webhooks);
  for (const { summary } of operations) expect(dom).toContain(summary.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;'));
  expect(dom).toContain('consignment.status.updated'); // the webhook

  mkdirSync(join(PROJECT_ROOT, '.artifacts'), { recursive: true });
  await chromium([`--screenshot=${SCREENSHOT}`, '--window-size=1280,2600', `${base}/docs`]);
  expect(statSync(SCREENSHOT).size).toBeGreaterThan(50_000);
  console.log(`reference page screenshot: ${SCREENSHOT}`);
}, 240_000);
