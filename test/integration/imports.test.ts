import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { startTestService, type TestService } from '../support/test-service';

const fixture = (name: string) => readFileSync(join(__dirname, '../fixtures/imports', name), 'utf8');
const consignor = { name: 'Anadolu Butik', country: 'TR', city: 'İstanbul', address: 'Moda Cd. 1', phone_number: '+902161234567' };

let svc: TestService;
let key: string;

beforeAll(async () => {
  svc = await startTestService({}, undefined, { importTuning: { pageOrders: 50, batchSize: 10, parallelBatches: 2, concurrency: 4, pagesPerRun: 2, heartbeatTimeout: '10 seconds' } });
  ({ apiKey: key } = await svc.customer('Imports'));
});
afterAll(async () => svc?.stop());

async function waitFinished(id: string, apiKey = key) {
  for (let i = 0; i < 150; i++) {
    const res = await svc.request({ method: 'GET', url: `/api/v1/imports/${id}`, apiKey });
    const data = res.json().data;
    if (['completed', 'failed', 'cancelled'].includes(data.state)) return data;
    await sleep(100);
  }
  throw new Error(`import ${id} did not finish`);
}

describe('smoke', () => {
  it('imports the Shopify fixture', async () => {
    const res = await svc.request({ method: 'POST', url: '/api/v1/imports', apiKey: key, payload: { csv: fixture('shopify-orders.csv'), preset: 'shopify', consignor, preference: 1 } });
    console.log(res.statusCode, res.body);
    expect(res.statusCode).toBe(202);
    const data = await waitFinished(res.json().data.id);
    console.log(JSON.stringify(data, null, 2));
    const errors = await svc.request({ method: 'GET', url: `/api/v1/imports/${data.id}/errors`, apiKey: key, lang: 'tr' });
    console.log(errors.body);
  });
});
