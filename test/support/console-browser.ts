import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { PROJECT_ROOT } from '../../src/temporal/temporal-cli';
import { startTestService, type TestService } from './test-service';

/**
 * The console in a real browser: Debian's Chromium (which `.ci/run` installs) driven by Playwright, against the
 * real service (runtime, Temporal, database) listening on a free port. Screenshots go to `.artifacts/console/`.
 */
export const CHROMIUM = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p): p is string => !!p && existsSync(p));
export const SCREENSHOTS = join(PROJECT_ROOT, '.artifacts', 'console');

export interface ConsoleHarness {
  svc: TestService;
  /** http://127.0.0.1:<port> */
  base: string;
  browser: Browser;
  /** A browser context (its own cookies) in a language, signed in with `apiKey` unless it is omitted. */
  open(options?: { apiKey?: string; locale?: 'en' | 'tr' }): Promise<{ context: BrowserContext; page: Page }>;
  /** A full-page screenshot, `.artifacts/console/<name>.png`. */
  screenshot(page: Page, name: string): Promise<string>;
  stop(): Promise<void>;
}

export async function startConsoleHarness(overrides: Record<string, string> = {}): Promise<ConsoleHarness> {
  if (!CHROMIUM) throw new Error('the console tests need Chromium: apt-get install -y chromium (.ci/run installs it), or set CHROMIUM_PATH');
  const svc = await startTestService(overrides);
  let browser: Browser | undefined;
  try {
    const base = await svc.app.listen({ host: '127.0.0.1', port: 0 });
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-dev-shm-usage', '--disable-gpu'] });
    const launched = browser;
    mkdirSync(SCREENSHOTS, { recursive: true });
    return {
      svc,
      base,
      browser: launched,
      async open(options = {}) {
        const locale = options.locale ?? 'en';
        const context = await launched.newContext({
          locale: locale === 'tr' ? 'tr-TR' : 'en-GB',
          acceptDownloads: true,
          viewport: { width: 1280, height: 900 },
        });
        context.setDefaultTimeout(30_000);
        const page = await context.newPage();
        if (options.apiKey) await signIn(page, base, options.apiKey);
        return { context, page };
      },
      async screenshot(page, name) {
        const path = join(SCREENSHOTS, `${name}.png`);
        await page.screenshot({ path, fullPage: true });
        return path;
      },
      async stop() {
        await launched.close().catch(() => undefined);
        await svc.stop();
      },
    };
  } catch (error) {
    await browser?.close().catch(() => undefined);
    await svc.stop();
    throw error;
  }
}

/** Signs in through the sign-in form, as a person does; ends on the consignment list. */
export async function signIn(page: Page, base: string, apiKey: string): Promise<void> {
  await page.goto(`${base}/console/sign-in`);
  await page.locator('#api_key').fill(apiKey);
  await Promise.all([page.waitForURL(/\/console\/consignments/), page.locator('form[action="/console/sign-in"] button[type="submit"]').click()]);
}
