import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { ChildProcess } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { Client, Connection } from '@temporalio/client';
import { consignmentIdFromBarcode } from '../../src/carriers/barcode';
import { draftBody, party } from '../support/consignments';
import { freePort } from '../support/ports';
import { exited, serviceFixture, spawnService } from '../support/service-process';

/**
 * consignflow as the integration worker in front of a remote shipping service that speaks the same API:
 * two real `npm start` processes, each with its own Temporal dev server and database. The remote runs the
 * sandbox carriers and a low lookup limit; ours books through a `consignment_api` carrier account.
 */
const REMOTE_KEY = 'cf_remoteServiceKey00000000000001';
const LOCAL_KEY = 'cf_integrationWorkerKey0000000001';
const OTHER_KEY = 'cf_anotherCustomerKey00000000001';
/** the remote's lookups per API key and minute: low, so our tracking lookups meet its 429s */
const REMOTE_LOOKUPS_PER_MIN = 8;
const ORDERS = 12;

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
type Service = Awaited<ReturnType<typeof serviceFixture>>;

let remote: Service;
let local: Service;
let localTemporalPort: number;
/** every booking made through the remote: our reference → our tracking code (the remote's barcode) */
const booked = new Map<string, string>();
let remoteProc: ReturnType<typeof spawnService>;
let localProc: ReturnType<typeof spawnService>;

async function call(service: Service, key: string, method: string, path: string, body?: unknown): Promise<{ status: number; json: Json }> {
  const res = await fetch(`${service.base}${path}`, {
    method,
    headers: { apikey: key, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, json: text ? (JSON.parse(text) as Json) : {} };
}
const ours = (method: string, path: string, body?: unknown) => call(local, LOCAL_KEY, method, path, body);
const theirs = (method: string, path: string, body?: unknown) => call(remote, REMOTE_KEY, method, path, body);

async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(250);
  }
}

const statusOf = async (id: number) => (await ours('GET', `/api/v1/consignments/${id}/details`)).json.data?.status as number | undefined;
const waitStatus = (id: number, status: number, timeoutMs = 180_000) =>
  until(`consignment ${id} in status ${status}`, async () => ((await statusOf(id)) === status ? status : undefined), timeoutMs);
/** The remote's record of one of ours (by our reference), read with a retry when its lookup limit answers 429. */
async function remoteByReference(reference: string): Promise<Json | undefined> {
  for (;;) {
    const res = await theirs('GET', `/api/v1/consignments/find/reference_no/${encodeURIComponent(reference)}`);
    if (res.status === 429) {
      await sleep(1000);
      continue;
    }
    return res.status === 200 ? res.json.data : undefined;
  }
}
async function remoteEvent(remoteId: number, event: string) {
  const res = await theirs('POST', `/api/v1/sandbox/consignments/${remoteId}/events`, { event, location: 'Kadıköy' });
  expect(res.status).toBe(202);
}

async function connectAccount(description: string, settings: Json, key = LOCAL_KEY): Promise<Json> {
  const res = await call(local, key, 'POST', '/api/v1/carrier-accounts', {
    carrier: 'consignment_api',
    description,
    credentials: { base_url: remote.base, api_key: REMOTE_KEY },
    settings,
  });
  expect(res.status).toBe(201);
  return res.json.data;
}

async function processedDraft(providerId: number, reference: string): Promise<Json> {
  const created = await ours('POST', '/api/v1/consignments/draft', draftBody({ preference: 0, provider_id: providerId, reference_no: reference }));
  expect(created.status).toBe(201);
  const processed = await ours('POST', `/api/v1/consignments/draft/${created.json.data.id}/start-process`);
  expect(processed.status).toBe(200);
  booked.set(reference, processed.json.data.providerTrackingCode);
  return processed.json.data;
}

function ordersFile(prefix: string): string {
  const lines = [
    'reference_no,consignee_name,consignee_city,consignee_country,consignee_address,consignee_phone,item_description,item_quantity,package_weight',
  ];
  for (let i = 0; i < ORDERS; i++) lines.push(`${prefix}-${i},Müşteri ${i},Ankara,TR,Atatürk Blv. ${i},+905551112233,Kilim yastık,1,1.5`);
  return lines.join('\n') + '\n';
}

async function startImport(prefix: string, providerId: number): Promise<string> {
  const form = new FormData();
  form.append(
    'options',
    JSON.stringify({ preset: 'generic', process: true, preference: 0, provider_id: providerId, consignor: party('İstanbul', { name: 'Anadolu Butik' }) }),
  );
  form.append('file', new Blob([ordersFile(prefix)], { type: 'text/csv' }), 'orders.csv');
  const res = await fetch(`${local.base}/api/v1/imports`, { method: 'POST', headers: { apikey: LOCAL_KEY }, body: form });
  const json = (await res.json()) as Json;
  expect({ status: res.status, errors: json.errors }).toEqual({ status: 202, errors: undefined });
  return json.data.id as string;
}
const importOf = async (id: string) => (await ours('GET', `/api/v1/imports/${id}`)).json.data as { state: string; counts: Record<string, number> };
const importFinished = (id: string) =>
  until(
    'the import to finish',
    async () => {
      const state = await importOf(id);
      return state.state === 'completed' ? state : undefined;
    },
    300_000,
  );

async function restart(which: 'remote' | 'local', signal: NodeJS.Signals, overrides: Record<string, string> = {}, pauseMs = 0) {
  const [service, proc] = which === 'remote' ? [remote, remoteProc] : [local, localProc];
  proc.kill(signal);
  await exited(proc);
  await sleep(pauseMs);
  const next = service.start(false, overrides);
  await service.waitHealthy(next);
  if (which === 'remote') remoteProc = next;
  else localProc = next;
}

/** Every order of an import processed here with a tracking code; the last test checks the remote holds exactly these. */
async function processedOrders(prefix: string): Promise<Json[]> {
  const mine = await Promise.all(
    Array.from({ length: ORDERS }, async (_, i) => (await ours('GET', `/api/v1/consignments/find/reference_no/${prefix}-${i}`)).json.data as Json),
  );
  for (const [i, consignment] of mine.entries()) {
    expect(consignment.status).toBe(2);
    expect(consignment.labels[0].tracking_code).toMatch(/^CF\d{11}$/);
    booked.set(`${prefix}-${i}`, consignment.labels[0].tracking_code);
  }
  return mine;
}

let account: Json;

beforeAll(async () => {
  remote = await serviceFixture('remote', REMOTE_KEY, {
    SANDBOX: '1',
    WEBHOOK_ALLOW_PRIVATE: '1',
    WEBHOOK_RETRY_INITIAL_MS: '200',
    LOOKUP_RATE_LIMIT_PER_MIN: String(REMOTE_LOOKUPS_PER_MIN),
  });
  localTemporalPort = await freePort();
  local = await serviceFixture('local', `${LOCAL_KEY},${OTHER_KEY}`, {
    WEBHOOK_ALLOW_PRIVATE: '1',
    CARRIER_WAIT_MS: '4000',
    CARRIER_POLL_INTERVAL_MS: '600000',
    TEMPORAL_DEV_PORT: String(localTemporalPort),
  });
  remoteProc = remote.start();
  localProc = local.start();
  await Promise.all([remote.waitHealthy(remoteProc), local.waitHealthy(localProc)]);
}, 180_000);

afterAll(async () => {
  const stop = async (proc: ChildProcess | undefined) => {
    if (proc && proc.exitCode === null) {
      proc.kill('SIGTERM');
      await exited(proc);
    }
  };
  await Promise.all([stop(remoteProc), stop(localProc)]);
  await Promise.all([remote?.cleanup(), local?.cleanup()]);
}, 60_000);

describe('a remote consignment service as a carrier', () => {
  it('connects a carrier account: credentials masked, a status webhook at the remote, listed as a provider, invisible to other customers', async () => {
    account = await connectAccount('Merkez kargo servisi', { provider_id: 1 });
    expect(account.provider_id).toBeGreaterThanOrEqual(1001);
    expect(account.credentials_hint).toBe(`****${REMOTE_KEY.slice(-4)}`);
    expect(JSON.stringify(account)).not.toContain(REMOTE_KEY);
    expect(account.status_webhook).toEqual({ registered: true, error: null });

    const hooks = (await theirs('GET', '/api/v1/webhooks')).json.data.results as Json[];
    expect(hooks.map((h) => h.endpoint)).toContain(`${local.base}/api/v1/carrier-accounts/${account.provider_id}/status-updates`);

    const providers = (await ours('GET', '/api/v1/providers')).json.data as Json[];
    expect(providers.map((p) => [p.id, p.carrier])).toEqual([
      [1, 'sandbox'],
      [2, 'sandbox'],
      [account.provider_id, 'consignment_api'],
    ]);
    expect(providers[2]).toMatchObject({ name: 'Merkez kargo servisi', supports: { quotes: false, cancel_in_transit: true, push_tracking: true } });

    // Another customer: the account is "not found", and naming it in a draft is a provider_id error.
    expect((await call(local, OTHER_KEY, 'GET', `/api/v1/carrier-accounts/${account.provider_id}`)).status).toBe(404);
    expect(((await call(local, OTHER_KEY, 'GET', '/api/v1/providers')).json.data as Json[]).map((p) => p.id)).toEqual([1, 2]);
    const foreign = await call(local, OTHER_KEY, 'POST', '/api/v1/consignments/draft', draftBody({ preference: 0, provider_id: account.provider_id }));
    expect(foreign.status).toBe(400);
    expect(foreign.json.errors[0].field).toBe('provider_id');
  }, 120_000);

  it('processes through the remote: our barcode, the remote barcode as tracking code, the remote label as received', async () => {
    const done = await processedDraft(account.provider_id, 'WRK-LABEL');
    const there = (await remoteByReference('WRK-LABEL'))!;
    expect(there.status).toBe(3); // Sandbox Express at the remote books a pickup
    expect(done.providerTrackingCode).toBe(there.barcode);
    expect(done.contentType).toBe('application/pdf');
    const remoteLabel = Buffer.from(await (await fetch(there.labels[0].file_url)).arrayBuffer());
    expect(Buffer.from(done.base64label, 'base64').equals(remoteLabel)).toBe(true);

    const detail = (await ours('GET', `/api/v1/consignments/${done.consignment}/details`)).json.data as Json;
    expect(detail.provider).toMatchObject({ id: account.provider_id, name: 'Merkez kargo servisi' });
    expect(detail.labels[0].tracking_code).toBe(there.barcode);
    const ourLabel = Buffer.from(await (await fetch(detail.labels[0].file_url)).arrayBuffer());
    expect(ourLabel.equals(remoteLabel)).toBe(true);
  }, 180_000);

  it('follows the remote statuses its webhook announces (our polling is ten minutes away)', async () => {
    const done = await processedDraft(account.provider_id, 'WRK-HOOK');
    const remoteId = consignmentIdFromBarcode(done.providerTrackingCode)!;
    await remoteEvent(remoteId, 'PICKED_UP');
    await waitStatus(done.consignment, 4);
    await remoteEvent(remoteId, 'IN_TRANSIT');
    await waitStatus(done.consignment, 5);
    const detail = (await ours('GET', `/api/v1/consignments/${done.consignment}/details`)).json.data as Json;
    expect(detail.details.at(-1)).toMatchObject({ status: 5, location: 'Kadıköy' });
  }, 240_000);

  it('cancels at the remote; a refusal in transit comes back with the remote reason', async () => {
    const early = await processedDraft(account.provider_id, 'WRK-CANCEL-1');
    expect((await ours('POST', `/api/v1/consignments/${early.consignment}/cancel`)).status).toBe(200);
    expect((await remoteByReference('WRK-CANCEL-1'))!.status).toBe(10);

    // The remote's Sandbox Economy does not cancel shipments in transit.
    const economy = await connectAccount('Ekonomik', { provider_id: 2 });
    const late = await processedDraft(economy.provider_id, 'WRK-CANCEL-2');
    await remoteEvent(consignmentIdFromBarcode(late.providerTrackingCode)!, 'PICKED_UP');
    await waitStatus(late.consignment, 4);
    const refused = await ours('POST', `/api/v1/consignments/${late.consignment}/cancel`);
    expect(refused.status).toBe(409);
    expect(refused.json.errors[0].message).toContain('carrier does not cancel shipments in transit');
    expect(await statusOf(late.consignment)).toBe(4);
  }, 300_000);

  it('refuses new bookings on a disabled account', async () => {
    const disabled = await connectAccount('Kapalı hesap', { provider_id: 1 });
    const put = await ours('PUT', `/api/v1/carrier-accounts/${disabled.provider_id}`, {
      carrier: 'consignment_api',
      description: 'Kapalı hesap',
      settings: { provider_id: 1 },
      status: 0,
    });
    expect(put.status).toBe(200);
    const draft = await ours('POST', '/api/v1/consignments/draft', draftBody({ preference: 0, provider_id: disabled.provider_id }));
    expect(draft.status).toBe(400);
    expect(draft.json.errors[0]).toMatchObject({ field: 'provider_id' });
  });

  it('answers 503 when the remote is down, leaving the draft a draft and nothing at the remote', async () => {
    const created = await ours('POST', '/api/v1/consignments/draft', draftBody({ preference: 0, provider_id: account.provider_id, reference_no: 'WRK-DOWN' }));
    remoteProc.kill('SIGTERM');
    await exited(remoteProc);
    try {
      const res = await ours('POST', `/api/v1/consignments/draft/${created.json.data.id}/start-process`);
      expect(res.status).toBe(503);
      expect(res.json.errors[0].message).toMatch(/carrier did not answer in time/);
      expect(await statusOf(created.json.data.id)).toBe(24);
    } finally {
      remoteProc = remote.start();
      await remote.waitHealthy(remoteProc);
    }
    expect(await remoteByReference('WRK-DOWN')).toBeUndefined();
    expect((await ours('POST', `/api/v1/consignments/draft/${created.json.data.id}/start-process`)).status).toBe(200);
    expect((await remoteByReference('WRK-DOWN'))!.status).toBe(3);
  }, 300_000);

  it('finishes an import with processing across a remote outage', async () => {
    const id = await startImport('OUT', account.provider_id);
    await until('the first processed order', async () => ((await importOf(id)).counts.processed > 0 ? true : undefined), 120_000);
    await restart('remote', 'SIGKILL', {}, 5_000);
    const done = await importFinished(id);
    expect(done.counts).toMatchObject({ orders: ORDERS, created: ORDERS, processed: ORDERS, failed: 0 });
    await processedOrders('OUT');
  }, 420_000);

  it('waits out the remote’s 429s: every status still arrives, later', async () => {
    // One status for each imported order at once: more lookups than the remote allows per minute.
    const orders = await processedOrders('OUT');
    for (const order of orders) await remoteEvent(consignmentIdFromBarcode(order.labels[0].tracking_code)!, 'PICKED_UP');
    for (const order of orders) await waitStatus(order.id, 4, 240_000);
    // The workflows' lookups met 429 and retried after the remote's Retry-After: attempts after a CARRIER_BUSY failure.
    const connection = await Connection.connect({ address: `127.0.0.1:${localTemporalPort}` });
    try {
      const client = new Client({ connection });
      let waitedOut = 0;
      for (const order of orders) {
        const history = await client.workflow.getHandle(`consignment:${order.uuid}`).fetchHistory();
        for (const event of history.events ?? []) {
          const started = event.activityTaskStartedEventAttributes;
          if (started && (started.attempt ?? 1) > 1 && started.lastFailure?.applicationFailureInfo?.type === 'CARRIER_BUSY') waitedOut++;
        }
      }
      expect(waitedOut).toBeGreaterThan(0);
    } finally {
      await connection.close();
    }
  }, 360_000);

  it('survives our own process killed mid-booking: still one remote consignment per order', async () => {
    const id = await startImport('KILL', account.provider_id);
    await until('the first processed order', async () => ((await importOf(id)).counts.processed > 0 ? true : undefined), 120_000);
    await restart('local', 'SIGKILL');
    const done = await importFinished(id);
    expect(done.counts).toMatchObject({ orders: ORDERS, created: ORDERS, processed: ORDERS, failed: 0 });
    await processedOrders('KILL');
  }, 420_000);

  it('follows statuses by polling once the remote webhook is gone', async () => {
    // Consignments processed from now on poll every two seconds, but our own budget for the account
    // (6 lookups a minute, one per 10-second window) keeps them under the remote's limit.
    await restart('local', 'SIGTERM', { CARRIER_POLL_INTERVAL_MS: '2000', CARRIER_LOOKUPS_PER_MIN: '6' });
    const hooks = (await theirs('GET', '/api/v1/webhooks')).json.data.results as Json[];
    for (const hook of hooks) expect((await theirs('DELETE', `/api/v1/webhooks/${hook.webhook_id}`)).status).toBe(200);
    const done = await processedDraft(account.provider_id, 'WRK-POLL');
    await remoteEvent(consignmentIdFromBarcode(done.providerTrackingCode)!, 'PICKED_UP');
    await waitStatus(done.consignment, 4, 120_000);
  }, 300_000);

  it('left exactly one remote consignment per local booking, under our reference, with our tracking code as its barcode', async () => {
    booked.set('WRK-DOWN', (await ours('GET', '/api/v1/consignments/find/reference_no/WRK-DOWN')).json.data.labels[0].tracking_code);
    remoteProc.kill('SIGTERM');
    await exited(remoteProc);
    const rows = await remote.withDatabase(
      async (db) => (await db.query<{ reference_no: string; barcode: string }>('SELECT reference_no, barcode FROM consignments ORDER BY reference_no')).rows,
    );
    expect(Object.fromEntries(rows.map((r) => [r.reference_no, r.barcode]))).toEqual(Object.fromEntries(booked));
    expect(rows).toHaveLength(booked.size);
    expect(booked.size).toBe(6 + 2 * ORDERS);
  }, 60_000);
});
