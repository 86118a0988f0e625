import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFile } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestService, type TestService } from '../support/test-service';

/** `npx consignflow import` as a merchant runs it, against the real service listening on a random port. */
const BIN = join(__dirname, '../../bin/consignflow.js');
const FIXTURES = join(__dirname, '../fixtures/imports');

let svc: TestService;
let url: string;
let apiKey: string;
let dir: string;

beforeAll(async () => {
  svc = await startTestService();
  await svc.app.listen({ host: '127.0.0.1', port: 0 });
  url = `http://127.0.0.1:${(svc.app.server.address() as { port: number }).port}`;
  ({ apiKey } = await svc.customer('Komut Satırı'));
  dir = mkdtempSync(join(tmpdir(), 'consignflow-cli-'));
  writeFileSync(
    join(dir, 'consignor.json'),
    JSON.stringify({ name: 'Anadolu Butik', country: 'TR', city: 'İstanbul', address: 'Moda Cd. 1', phone_number: '+902161234567' }),
  );
});
afterAll(async () => {
  await svc?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

function cli(args: string[], env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const { CONSIGNFLOW_URL: _url, CONSIGNFLOW_API_KEY: _key, ...rest } = process.env;
    execFile(process.execPath, [BIN, ...args], { env: { ...rest, ...env }, timeout: 90_000 }, (error, stdout, stderr) =>
      resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

/** `consignflow import` of `file` with `preset`, the consignor file and `options`, against the test service with the customer's key. */
const importArgs = (file: string, preset: string, ...options: string[]) => [
  'import',
  file,
  '--preset',
  preset,
  '--consignor',
  join(dir, 'consignor.json'),
  ...options,
  '--url',
  url,
  '--api-key',
  apiKey,
];

describe('consignflow import', () => {
  it('imports a Shopify export, shows progress, prints a summary, writes the rows to fix beside the file and fails for them', async () => {
    const file = join(dir, 'orders_export.csv');
    copyFileSync(join(FIXTURES, 'shopify-orders.csv'), file);
    const run = await cli(importArgs(file, 'shopify', '--preference', '1', '--wait', '--poll-ms', '100'));
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/^Import [0-9a-f-]{36} completed in [\d.]+ s \([\d.]+ orders\/s\)$/m);
    expect(run.stdout).toContain('6 orders in 10 rows: 4 drafts created, 0 already imported (duplicates), 2 failed');
    expect(run.stdout).toContain(`rows to fix: ${file}.errors.csv`);
    expect(run.stderr).toMatch(/orders_export\.csv \|.*\| \d+% \| \d+ orders \| [\d.]+ orders\/s \| ETA/);
    const errors = readFileSync(`${file}.errors.csv`, 'utf8')
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(errors[0]).toBe('row,order,field,message');
    expect(errors.slice(1)).toEqual([
      expect.stringMatching(/^5,#1003,Shipping Country,/),
      '6,#1003,Lineitem quantity,This value should be positive.',
      '10,#1005,Shipping Name,This value should not be blank.',
    ]);

    // The same file again (key from the environment, messages in Turkish): nothing new.
    const again = await cli(
      ['import', file, '--preset', 'shopify', '--consignor', join(dir, 'consignor.json'), '--wait', '--no-progress', '--poll-ms', '100', '--lang', 'tr'],
      {
        CONSIGNFLOW_URL: url,
        CONSIGNFLOW_API_KEY: apiKey,
      },
    );
    expect(again.code).toBe(1);
    expect(again.stdout).toContain('6 orders in 10 rows: 0 drafts created, 4 already imported (duplicates), 2 failed');
    expect(readFileSync(`${file}.errors.csv`, 'utf8')).toContain('10,#1005,Shipping Name,Bu değer boş bırakılmamalıdır.');
  });

  it('exits 0 when every order succeeded, and without --wait as soon as the import is accepted', async () => {
    const file = join(dir, 'woo.csv');
    writeFileSync(file, readFileSync(join(FIXTURES, 'woocommerce-orders.csv'), 'utf8').split('\r\n').slice(0, 4).join('\r\n') + '\r\n');
    const run = await cli(
      importArgs(file, 'woocommerce', '--process', '--preference', '1', '--package-weight', '1.5', '--wait', '--no-progress', '--poll-ms', '100'),
    );
    expect(run.stdout).toContain('2 orders in 3 rows: 2 drafts created, 2 processed, 0 already imported (duplicates), 0 failed');
    expect(run.code).toBe(0);
    expect(existsSync(`${file}.errors.csv`)).toBe(false);

    const other = join(dir, 'template.csv');
    writeFileSync(other, await (await fetch(`${url}/api/v1/imports/template.csv`, { headers: { apikey: apiKey } })).text());
    const quick = await cli(importArgs(other, 'generic'));
    expect(quick.code).toBe(0);
    expect(quick.stdout).toMatch(/^Import [0-9a-f-]{36} accepted/);
  });

  it('exits 2 with the service’s reasons when the import is refused', async () => {
    const file = join(dir, 'orders_export.csv');
    const run = await cli(['import', file, '--preset', 'magento', '--url', url, '--api-key', apiKey]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('the import was refused: HTTP 400');
    expect(run.stderr).toContain('preset: Unknown preset "magento"');
    expect((await cli(['import', file, '--preset', 'shopify', '--url', url])).stderr).toContain('an API key is needed');
  });
});
