import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createHmac } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { WorkflowNotFoundError } from '@temporalio/client';
import { consignmentWorkflowId } from '../../src/temporal/consignment.starter';
import { webhookDeliveryWorkflowId } from '../../src/temporal/webhook-delivery.starter';
import { deliverEventSignal } from '../../workflows/webhook-delivery.messages';
import { webhookDeliveryWorkflow } from '../../workflows/webhook-delivery.workflow';
import { consignmentApi, draftBody, waitForStatus, type ConsignmentApi } from '../support/consignments';
import { startTestService, type TestService } from '../support/test-service';
import { waitFor } from '../support/wait';

/**
 * Webhooks end to end: the real runtime (API + worker + Temporal dev server) delivering to a real HTTP
 * receiver on 127.0.0.1, so private targets are allowed here (WEBHOOK_ALLOW_PRIVATE=1); the SSRF refusals
 * run against a second service with the default rule. Retries are shortened: first retry after 200 ms,
 * an event is given up after 8 s.
 */
const RETRY_WINDOW_MS = 8_000;

interface Received {
  path: string;
  status: number;
  headers: IncomingHttpHeaders;
  raw: string;
  body: { id: string; event: string; created_at: string; data: Record<string, unknown> };
}

let receiver: Server;
let receiverOrigin: string;
const requests: Received[] = [];
/** the status the receiver answers on a path (200 when not set) */
const answers = new Map<string, (body: Received['body']) => number>();
/** while set for a path, the receiver holds its answers until the promise settles */
const holds = new Map<string, Promise<unknown>>();
/** how long the receiver takes to answer on a path (ms; at once when not set) */
const delays = new Map<string, number>();

let svc: TestService;
let key: string;
let consignments: ConsignmentApi;

beforeAll(async () => {
  receiver = createServer((req, res) => {
    let raw = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (raw += c));
    req.on('end', () => {
      const path = req.url ?? '';
      const body = JSON.parse(raw);
      const status = (answers.get(path) ?? (() => 200))(body);
      requests.push({ path, status, headers: req.headers, raw, body });
      void Promise.all([holds.get(path), sleep(delays.get(path) ?? 0)]).then(() =>
        res.writeHead(status, { 'content-type': 'text/plain' }).end(status < 300 ? 'ok' : 'not now'),
      );
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverOrigin = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  svc = await startTestService({ WEBHOOK_ALLOW_PRIVATE: '1', WEBHOOK_RETRY_INITIAL_MS: '200', WEBHOOK_RETRY_WINDOW_MS: String(RETRY_WINDOW_MS) });
  ({ apiKey: key } = await svc.customer('Webhooks'));
  consignments = consignmentApi(svc, key);
});
afterAll(async () => {
  await svc?.stop();
  receiver?.closeAllConnections();
  await new Promise((resolve) => receiver?.close(resolve));
});

const sample = (extra: Record<string, unknown> = {}) => ({
  description: 'Consignment status updates',
  endpoint: `${receiverOrigin}/hooks/default`,
  subscribedEvent: 'consignment.status.updated',
  securityType: 'header',
  dataType: 'JSON',
  data: '',
  securityData: [{ headerKey: 'X-Shop-Token', headerValue: 'shop-secret-123' }],
  status: 1,
  ...extra,
});

const api = (method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, options: { payload?: object; apiKey?: string; lang?: string } = {}) =>
  svc.request({ method, url: `/api/v1${url}`, apiKey: options.apiKey ?? key, lang: options.lang, ...(options.payload ? { payload: options.payload } : {}) });

async function createWebhook(extra: Record<string, unknown> = {}, apiKey = key) {
  const res = await api('POST', '/webhooks', { payload: sample(extra), apiKey });
  expect(res.statusCode).toBe(201);
  return res.json().data as { webhook_id: string; secret: string; endpoint: string };
}

/** A processed consignment of provider 1 (a pickup: status 3; it accepts cancellation in transit). */
async function processedConsignment(customer: ConsignmentApi = consignments) {
  return (await customer.processed(draftBody({ preference: 0, provider_id: 1, packages: [{ weight: 2, length: 30, width: 20, height: 15 }] }))).id;
}

/** `value` is an ISO 8601 UTC timestamp taken between `from` (less a second of clock slack) and now. */
function expectTimestampSince(value: unknown, from: number) {
  expect(value).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/);
  expect(Date.parse(value as string)).toBeGreaterThanOrEqual(from - 1000);
  expect(Date.parse(value as string)).toBeLessThanOrEqual(Date.now());
}

const deliveredTo = (path: string) => requests.filter((r) => r.path === path && r.status < 300);
const statusesAt = (path: string, consignment: number) =>
  deliveredTo(path)
    .filter((r) => r.body.data.consignment === consignment)
    .map((r) => r.body.data.status);

/** The receiver's own check, written from the Standard Webhooks text rather than with the service's code. */
function signatureIsValid(secret: string, r: Received): boolean {
  const id = r.headers['webhook-id'] as string;
  const timestamp = r.headers['webhook-timestamp'] as string;
  const expected = createHmac('sha256', Buffer.from(secret.replace(/^whsec_/, ''), 'base64'))
    .update(`${id}.${timestamp}.${r.raw}`)
    .digest('base64');
  return (r.headers['webhook-signature'] as string).split(' ').includes(`v1,${expected}`);
}

describe('create webhook (docs/api.md)', () => {
  it.each([
    ['en', 'Webhook created successfully.'],
    ['tr', 'Webhook başarıyla oluşturuldu.'],
  ])('creates the webhook with a generated id, ISO 8601 created_at and a signing secret shown once (%s)', async (lang, message) => {
    const before = Date.now();
    const res = await api('POST', '/webhooks', { payload: sample({ data: 'free text' }), lang });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body.status).toBe(true);
    expect(body.message).toBe(message);
    expect(Object.keys(body.data).sort()).toEqual([
      'created_at',
      'data',
      'dataType',
      'description',
      'endpoint',
      'secret',
      'securityData',
      'securityType',
      'status',
      'subscribedEvent',
      'webhook_id',
    ]);
    expect(body.data).toMatchObject({
      description: 'Consignment status updates',
      endpoint: `${receiverOrigin}/hooks/default`,
      subscribedEvent: 'consignment.status.updated',
      securityType: 'header',
      dataType: 'JSON',
      data: 'free text',
      securityData: [{ headerKey: 'X-Shop-Token', headerValue: 'shop-secret-123' }],
      status: 1,
    });
    expect(body.data.webhook_id).toMatch(/^wh_[0-9A-Za-z]{24}$/);
    expect(body.data.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(new Date(body.data.created_at).getTime()).toBeGreaterThanOrEqual(before - 1000);
    expect(body.data.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const got = await api('GET', `/webhooks/${body.data.webhook_id}`);
    expect(got.json().data).not.toHaveProperty('secret');
  });

  it('accepts both header forms of the API (docs/api.md) and refuses a bad key in both', async () => {
    for (const headers of [{ apikey: key }, { authorization: `APIKEY ${key}` }]) {
      const res = await svc.request({ method: 'POST', url: '/api/v1/webhooks', headers, payload: sample() });
      expect(res.statusCode).toBe(201);
    }
    for (const headers of [{ apikey: 'cf_wrong' }, { authorization: 'APIKEY cf_wrong' }, {}]) {
      const res = await svc.request({ method: 'POST', url: '/api/v1/webhooks', headers, payload: sample(), lang: 'tr' });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ status: false, errors: [{ message: 'Geçersiz API anahtarı.' }] });
    }
  });

  it.each([
    ['en', 'This value should not be blank.', 'Invalid endpoint URL', 'This value is too long. It should have 255 characters or less.'],
    ['tr', 'Bu değer boş bırakılmamalıdır.', 'Geçersiz endpoint URL', 'Bu değer çok uzun. En fazla 255 karakter olmalıdır.'],
  ])('lists every invalid field (%s)', async (lang, blank, badUrl, tooLong) => {
    const empty = await api('POST', '/webhooks', { payload: {}, lang });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().errors).toEqual(
      ['description', 'endpoint', 'subscribedEvent', 'securityType', 'dataType', 'status', 'securityData'].map((field) => ({ field, message: blank })),
    );

    const bad = await api('POST', '/webhooks', {
      lang,
      payload: sample({
        endpoint: 'not a url',
        description: 'x'.repeat(256),
        subscribedEvent: 'order.created',
        status: 3,
        securityData: [{ headerKey: 'X-Key' }],
      }),
    });
    expect(bad.statusCode).toBe(400);
    const errors = bad.json().errors as { field: string; message: string }[];
    expect(errors.map((e) => e.field)).toEqual(['description', 'endpoint', 'subscribedEvent', 'status', 'securityData.0.headerValue']);
    expect(errors[0].message).toBe(tooLong);
    expect(errors[1].message).toBe(badUrl);
    expect(errors[2].message).toContain('consignment.status.updated');
    expect(errors[4].message).toBe(blank);
  });

  it('refuses non-http(s) endpoints, other security and data types, and reserved headers', async () => {
    for (const endpoint of ['ftp://127.0.0.1/x', 'file:///etc/passwd', 'javascript:alert(1)', '127.0.0.1/hook', 'http://user:pw@127.0.0.1/x']) {
      const res = await api('POST', '/webhooks', { payload: sample({ endpoint }) });
      expect(res.statusCode).toBe(400);
      expect(res.json().errors).toEqual([{ field: 'endpoint', message: 'Invalid endpoint URL' }]);
    }
    const res = await api('POST', '/webhooks', {
      payload: sample({ securityType: 'basic', dataType: 'XML', securityData: [{ headerKey: 'webhook-signature', headerValue: 'x' }] }),
    });
    expect(res.json().errors.map((e: { field: string }) => e.field)).toEqual(['securityType', 'dataType', 'securityData.0.headerKey']);
  });
});

describe('list, get, update, delete', () => {
  it('pages through the customer’s own webhooks only', async () => {
    const other = await svc.customer('Paging');
    const created = [];
    for (let i = 0; i < 3; i++) created.push(await createWebhook({ description: `hook ${i}` }, other.apiKey));
    const page2 = await api('GET', '/webhooks?page=2&limit=2', { apiKey: other.apiKey });
    expect(page2.statusCode).toBe(200);
    expect(page2.json()).toMatchObject({ status: true, message: null, data: { page: 2, lastPage: 2, limit: 2, total: 3 } });
    expect(page2.json().data.results.map((w: { webhook_id: string }) => w.webhook_id)).toEqual([created[2].webhook_id]);
    const first = (await api('GET', '/webhooks', { apiKey: other.apiKey })).json().data;
    expect(first).toMatchObject({ page: 1, limit: 10, total: 3 });
    expect(first.results[0]).toMatchObject({ description: 'hook 0', disabled_reason: null, failing_since: null });
    const bad = await api('GET', '/webhooks?limit=500&page=0');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors.map((e: { field: string }) => e.field)).toEqual(['page', 'limit']);
  });

  it('replaces with PUT (every field required) and changes single fields with PATCH', async () => {
    const { webhook_id } = await createWebhook();
    const put = await api('PUT', `/webhooks/${webhook_id}`, { payload: sample({ description: 'replaced', securityData: [], status: 0 }) });
    expect(put.statusCode).toBe(200);
    expect(put.json()).toMatchObject({
      status: true,
      message: 'Webhook updated successfully.',
      data: { webhook_id, description: 'replaced', securityData: [], status: 0 },
    });
    const partial = await api('PUT', `/webhooks/${webhook_id}`, { payload: { description: 'only this' } });
    expect(partial.statusCode).toBe(400);
    expect(partial.json().errors).toHaveLength(6);
    const patch = await api('PATCH', `/webhooks/${webhook_id}`, { payload: { status: 1 }, lang: 'tr' });
    expect(patch.statusCode).toBe(200);
    expect(patch.json()).toMatchObject({ message: 'Webhook başarıyla güncellendi.', data: { description: 'replaced', status: 1 } });
    const badPatch = await api('PATCH', `/webhooks/${webhook_id}`, { payload: { endpoint: 'gopher://x' } });
    expect(badPatch.json().errors).toEqual([{ field: 'endpoint', message: 'Invalid endpoint URL' }]);
  });

  it('deletes', async () => {
    const { webhook_id } = await createWebhook();
    const res = await api('DELETE', `/webhooks/${webhook_id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: true, message: 'Webhook deleted successfully.', data: { webhook_id } });
    expect((await api('GET', `/webhooks/${webhook_id}`)).statusCode).toBe(404);
    expect((await api('DELETE', `/webhooks/${webhook_id}`)).statusCode).toBe(404);
  });

  it.each([
    ['en', 'Webhook not found.'],
    ['tr', 'Webhook bulunamadı.'],
  ])('hides one customer’s webhook from another (%s)', async (lang, message) => {
    const { webhook_id } = await createWebhook();
    const other = await svc.customer('Intruder');
    const attempts = [
      api('GET', `/webhooks/${webhook_id}`, { apiKey: other.apiKey, lang }),
      api('PUT', `/webhooks/${webhook_id}`, { apiKey: other.apiKey, lang, payload: sample() }),
      api('PATCH', `/webhooks/${webhook_id}`, { apiKey: other.apiKey, lang, payload: { status: 0 } }),
      api('DELETE', `/webhooks/${webhook_id}`, { apiKey: other.apiKey, lang }),
      api('GET', `/webhooks/${webhook_id}/deliveries`, { apiKey: other.apiKey, lang }),
      api('POST', `/webhooks/${webhook_id}/deliveries/00000000-0000-5000-8000-000000000000/redeliver`, { apiKey: other.apiKey, lang }),
      api('GET', '/webhooks/wh_doesnotexist', { lang }),
      api('GET', '/webhooks/not-an-id', { lang }),
    ];
    for (const res of await Promise.all(attempts)) {
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ status: false, errors: [{ message }] });
    }
    expect((await api('GET', '/webhooks', { apiKey: other.apiKey })).json().data.total).toBe(0);
    expect((await api('GET', `/webhooks/${webhook_id}`)).json().data.status).toBe(1); // unchanged
  });
});

describe('delivery', () => {
  it('delivers every status change in order, cancellation included, with the security header and a valid signature', async () => {
    const started = Date.now();
    const MAIN_DELAY_MS = 150; // the receiver's answer time, which the logged latency must include
    delays.set('/hooks/main', MAIN_DELAY_MS);
    const customer = await svc.customer('Delivery');
    const hook = await createWebhook({ endpoint: `${receiverOrigin}/hooks/main` }, customer.apiKey);
    const inactive = await createWebhook({ endpoint: `${receiverOrigin}/hooks/inactive`, status: 0 }, customer.apiKey);
    const someoneElse = await createWebhook({ endpoint: `${receiverOrigin}/hooks/someone-else` }); // another customer

    const theirs = consignmentApi(svc, customer.apiKey);
    const id = await processedConsignment(theirs);
    await theirs.acceptedEvent(id, { event: 'PICKED_UP' });
    await waitForStatus(theirs, id, 4, { timeoutMs: 20_000 });
    await theirs.acceptedEvent(id, { event: 'IN_TRANSIT' });
    await waitForStatus(theirs, id, 5, { timeoutMs: 20_000 });
    const cancel = await svc.request({ method: 'POST', url: `/api/v1/consignments/${id}/cancel`, apiKey: customer.apiKey });
    expect(cancel.statusCode).toBe(200);

    await waitFor('four deliveries', () => statusesAt('/hooks/main', id).length >= 4);
    expect(statusesAt('/hooks/main', id)).toEqual([3, 4, 5, 10]);
    const got = deliveredTo('/hooks/main').filter((r) => r.body.data.consignment === id);
    expect(got.map((r) => r.body.data.previous_status)).toEqual([24, 3, 4, 5]);
    const { uuid, barcode } = await theirs.details(id);
    for (const r of got) {
      expect(r.headers['x-shop-token']).toBe('shop-secret-123');
      expect(r.headers['content-type']).toBe('application/json');
      expect(r.headers['webhook-id']).toBe(r.body.id);
      expect(Math.abs(Number(r.headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(60);
      expect(signatureIsValid(hook.secret, r)).toBe(true);
      expect(signatureIsValid(`whsec_${Buffer.alloc(32, 1).toString('base64')}`, r)).toBe(false);
      expect(Object.keys(r.body)).toEqual(['id', 'event', 'created_at', 'data']);
      expect(r.body.event).toBe('consignment.status.updated');
      expect(Object.keys(r.body.data)).toEqual([
        'consignment',
        'uuid',
        'reference_no',
        'barcode',
        'status',
        'status_name',
        'status_message',
        'previous_status',
        'location',
        'occurred_at',
      ]);
      expect(r.body.data).toMatchObject({ consignment: id, uuid, barcode });
    }
    expect(got.map((r) => r.body.data.status_name)).toEqual(['AWAITING_PICKUP', 'PICKED_UP', 'IN_TRANSIT', 'CANCELLED']);
    expect(new Set(got.map((r) => r.body.id)).size).toBe(4);
    // All four events were published (publishing enqueues every subscriber of an event at once): no delivery was
    // ever started for the inactive webhook or another customer's.
    for (const other of [inactive, someoneElse]) {
      await expect(svc.runtime.client.workflow.getHandle(webhookDeliveryWorkflowId(other.webhook_id, id)).describe()).rejects.toBeInstanceOf(
        WorkflowNotFoundError,
      );
    }
    expect(deliveredTo('/hooks/inactive')).toHaveLength(0);
    expect(deliveredTo('/hooks/someone-else').filter((r) => r.body.data.consignment === id)).toHaveLength(0);
    // The receiver has the fourth request before its attempt is recorded: the queue's workflow ends once every
    // event is delivered and recorded (the consignment is cancelled, so no event follows).
    await svc.runtime.client.workflow.getHandle(webhookDeliveryWorkflowId(hook.webhook_id, id)).result();

    // the delivery log, newest first
    const log = await api('GET', `/webhooks/${hook.webhook_id}/deliveries`, { apiKey: customer.apiKey });
    expect(log.statusCode).toBe(200);
    const attempts = log.json().data.results;
    expect(log.json().data.total).toBe(4);
    expect(attempts.map((a: { event_id: string }) => a.event_id)).toEqual(got.map((r) => r.body.id).reverse());
    expect(attempts[0]).toMatchObject({ attempt: 1, redelivery: false, http_status: 200, success: true, error: null, response_body: 'ok' });
    for (const a of attempts) {
      expect(Number.isInteger(a.latency_ms)).toBe(true);
      expect(a.latency_ms).toBeGreaterThanOrEqual(MAIN_DELAY_MS);
      expect(a.latency_ms).toBeLessThan(Date.now() - started);
    }
    expectTimestampSince(attempts[0].attempted_at, started);

    // visible in Temporal as one workflow per webhook × consignment
    const handle = svc.runtime.client.workflow.getHandle(webhookDeliveryWorkflowId(hook.webhook_id, id));
    const description = await handle.describe();
    expect(description.type).toBe('webhookDeliveryWorkflow');
    // Background work, below the priority of work a caller waits for (3): the deliveries, and publishing the events.
    expect(description.raw.workflowExecutionInfo?.priority?.priorityKey).toBe(4);
    const published = (await svc.runtime.client.workflow.getHandle(consignmentWorkflowId(uuid)).fetchHistory()).events!.filter(
      (e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'publishStatusEvent',
    );
    expect(published).toHaveLength(4);
    for (const e of published) expect(e.activityTaskScheduledEventAttributes?.priority?.priorityKey).toBe(4);
  });

  it('hands an event nobody subscribes to over as it is stored (no publishing runs for it); a webhook registered later gets the events after it', async () => {
    const customer = await svc.customer('Unsubscribed');
    await createWebhook({ endpoint: `${receiverOrigin}/hooks/late-inactive`, status: 0 }, customer.apiKey);
    const theirs = consignmentApi(svc, customer.apiKey);
    const id = await processedConsignment(theirs);
    const events = async () =>
      (
        await svc.db.query<{ dispatched: boolean }>(
          'SELECT dispatched_at IS NOT NULL AS dispatched FROM consignment_events WHERE consignment_id = $1 ORDER BY seq',
          [id],
        )
      ).rows;
    expect(await events()).toEqual([{ dispatched: true }]);
    const { uuid } = await theirs.details(id);
    const publishings = async () =>
      (await svc.runtime.client.workflow.getHandle(consignmentWorkflowId(uuid)).fetchHistory()).events!.filter(
        (e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'publishStatusEvent',
      ).length;
    expect(await publishings()).toBe(0);

    await createWebhook({ endpoint: `${receiverOrigin}/hooks/late` }, customer.apiKey);
    await theirs.acceptedEvent(id, { event: 'PICKED_UP' });
    await waitFor('the event after the webhook to be delivered', () => statusesAt('/hooks/late', id).length >= 1);
    expect(statusesAt('/hooks/late', id)).toEqual([4]);
    expect(await publishings()).toBe(1);
    await waitFor('both events handed over', async () => (await events()).every((e) => e.dispatched));
  });

  it('keeps every event of a receiver that is down for a while and delivers them in order once it is up', async () => {
    const started = Date.now();
    const hook = await createWebhook({ endpoint: `${receiverOrigin}/hooks/flaky` });
    let up = false;
    answers.set('/hooks/flaky', () => (up ? 200 : 503));
    const id = await processedConsignment();
    await consignments.acceptedEvent(id, { event: 'PICKED_UP' });
    await consignments.acceptedEvent(id, { event: 'IN_TRANSIT' });
    await consignments.acceptedEvent(id, { event: 'IN_TRANSIT' });
    await waitForStatus(consignments, id, 5, { timeoutMs: 20_000 });
    await waitFor('failed attempts', () => requests.filter((r) => r.path === '/hooks/flaky' && r.status === 503).length >= 3);
    const failing = (await api('GET', `/webhooks/${hook.webhook_id}`)).json().data;
    expectTimestampSince(failing.failing_since, started);
    expect(failing.status).toBe(1);
    up = true;
    await waitFor('the backlog', () => statusesAt('/hooks/flaky', id).length >= 4);
    // The queue's workflow ends once it is empty: nothing more is on its way.
    await svc.runtime.client.workflow.getHandle(webhookDeliveryWorkflowId(hook.webhook_id, id)).result();
    expect(statusesAt('/hooks/flaky', id)).toEqual([3, 4, 5, 5]);
    // only the first event was tried while the receiver was down: the others waited their turn
    const failedIds = new Set(requests.filter((r) => r.path === '/hooks/flaky' && r.status === 503).map((r) => r.body.id));
    expect(failedIds.size).toBe(1);
    const log = (await api('GET', `/webhooks/${hook.webhook_id}/deliveries?limit=100`)).json().data.results as {
      http_status: number;
      success: boolean;
      error: string | null;
      attempt: number;
    }[];
    expect(log.filter((a) => a.success)).toHaveLength(4);
    const failed = log.filter((a) => !a.success);
    expect(failed.length).toBeGreaterThanOrEqual(3); // the receiver answered 503 at least three times (waited for above)
    expect(failed.map((a) => [a.http_status, a.error])).toEqual(failed.map(() => [503, 'HTTP 503']));
    expect(Math.max(...log.map((a) => a.attempt))).toBeGreaterThanOrEqual(4);
    expect((await api('GET', `/webhooks/${hook.webhook_id}`)).json().data.failing_since).toBeNull();
  });

  it('disables the webhook on 410 Gone and sends nothing more', async () => {
    const started = Date.now();
    const hook = await createWebhook({ endpoint: `${receiverOrigin}/hooks/gone` });
    answers.set('/hooks/gone', () => 410);
    const id = await processedConsignment();
    const disabled = await waitFor('disabled', async () => {
      const w = (await api('GET', `/webhooks/${hook.webhook_id}`)).json().data;
      return w.status === 0 && w;
    });
    expect(disabled.disabled_reason).toMatch(/410 Gone/);
    expectTimestampSince(disabled.disabled_at, started);
    await consignments.acceptedEvent(id, { event: 'PICKED_UP' });
    await waitForStatus(consignments, id, 4, { timeoutMs: 20_000 });
    await sleep(500);
    expect(requests.filter((r) => r.path === '/hooks/gone')).toHaveLength(1);

    const eventId = requests.find((r) => r.path === '/hooks/gone')!.body.id;
    for (const [lang, message] of [
      ['en', 'The webhook is not active: set its status to 1 before asking for a redelivery.'],
      ['tr', 'Webhook etkin değil: yeniden gönderim istemeden önce status değerini 1 yapın.'],
    ]) {
      const res = await api('POST', `/webhooks/${hook.webhook_id}/deliveries/${eventId}/redeliver`, { lang });
      expect(res.statusCode).toBe(409);
      expect(res.json()).toEqual({ status: false, errors: [{ message }] });
    }
    // re-enabling clears the reason
    const enabled = await api('PATCH', `/webhooks/${hook.webhook_id}`, { payload: { status: 1 } });
    expect(enabled.json().data).toMatchObject({ status: 1, disabled_reason: null, disabled_at: null });
  });

  it('disables a webhook whose deliveries fail for the whole retry window, with the reason', async () => {
    const hook = await createWebhook({ endpoint: `${receiverOrigin}/hooks/broken` });
    answers.set('/hooks/broken', () => 500);
    await processedConsignment();
    const disabled = await waitFor(
      'disabled after the retry window',
      async () => {
        const w = (await api('GET', `/webhooks/${hook.webhook_id}`)).json().data;
        return w.status === 0 && w;
      },
      { timeoutMs: RETRY_WINDOW_MS + 20_000 },
    );
    expect(disabled.disabled_reason).toMatch(/failed for 8 s; the webhook was disabled\. Last attempt .*: HTTP 500\./);
    expect(requests.filter((r) => r.path === '/hooks/broken').length).toBeGreaterThanOrEqual(3);
  }, 60_000);

  it('redelivers one event on request, and refuses events the webhook never had', async () => {
    const hook = await createWebhook({ endpoint: `${receiverOrigin}/hooks/redeliver` });
    const id = await processedConsignment();
    const first = await waitFor('first delivery', () => deliveredTo('/hooks/redeliver').find((r) => r.body.data.consignment === id));
    const res = await api('POST', `/webhooks/${hook.webhook_id}/deliveries/${first.body.id}/redeliver`, { lang: 'tr' });
    expect(res.statusCode).toBe(202);
    expect(res.json()).toEqual({ status: true, message: 'Yeniden gönderim planlandı.', data: { webhook_id: hook.webhook_id, event_id: first.body.id } });
    const again = await waitFor('redelivery', () => deliveredTo('/hooks/redeliver').filter((r) => r.body.id === first.body.id)[1]);
    expect(again.raw).toBe(first.raw);
    expect(signatureIsValid(hook.secret, again)).toBe(true);
    // The attempt is logged once the receiver has answered: the receiver can see the request first.
    const log = await waitFor('the redelivery logged', async () => {
      const data = (await api('GET', `/webhooks/${hook.webhook_id}/deliveries?event_id=${first.body.id}`)).json().data;
      return data.results.length === 2 && data;
    });
    expect(log.results.map((a: { attempt: number; redelivery: boolean }) => [a.attempt, a.redelivery])).toEqual([
      [2, true],
      [1, false],
    ]);

    const other = await svc.customer('Other events');
    const foreignId = await processedConsignment(consignmentApi(svc, other.apiKey));
    const foreignEvent = await svc.db.query<{ id: string }>('SELECT id FROM consignment_events WHERE consignment_id = $1', [foreignId]);
    for (const eventId of [foreignEvent.rows[0].id, '00000000-0000-5000-8000-000000000000', 'nope']) {
      const refused = await api('POST', `/webhooks/${hook.webhook_id}/deliveries/${eventId}/redeliver`);
      expect(refused.statusCode).toBe(404);
      expect(refused.json()).toEqual({ status: false, errors: [{ message: 'Event not found for this webhook.' }] });
    }
  });
});

/**
 * Waits until the consignment's `count` events are published (to no one: the webhook is inactive), then enables the
 * webhook: the events' ids in order, and the webhook's row id, for a test that queues them itself.
 */
async function publishedThenEnabled(id: number, count: number, webhookId: string) {
  await waitFor(
    `${count} events published`,
    async () => (await svc.db.query('SELECT 1 FROM consignment_events WHERE consignment_id = $1 AND dispatched_at IS NOT NULL', [id])).rows.length === count,
  );
  const events = (await svc.db.query<{ id: string }>('SELECT id FROM consignment_events WHERE consignment_id = $1 ORDER BY seq', [id])).rows.map((r) => r.id);
  await api('PATCH', `/webhooks/${webhookId}`, { payload: { status: 1 } });
  const { rows } = await svc.db.query<{ id: number }>('SELECT id FROM webhooks WHERE webhook_id = $1', [webhookId]);
  return { events, rows };
}

describe('delivery workflow', () => {
  it('continues as new with its queue when the history grows, losing and reordering nothing', async () => {
    // Inactive while the events happen, so publishing leaves them alone; the test queues them itself.
    const hook = await createWebhook({ endpoint: `${receiverOrigin}/hooks/long`, status: 0 });
    const id = await processedConsignment();
    await consignments.acceptedEvent(id, { event: 'PICKED_UP' });
    for (let i = 0; i < 5; i++) await consignments.acceptedEvent(id, { event: 'IN_TRANSIT' });
    const { events, rows } = await publishedThenEnabled(id, 7, hook.webhook_id);

    const workflowId = webhookDeliveryWorkflowId(hook.webhook_id, id);
    // The first event is answered only once the others are queued: its batch is itself alone, and the
    // history those signals add makes the next loop continue as new with the queue.
    let release = () => undefined as void;
    holds.set('/hooks/long', new Promise<void>((resolve) => (release = resolve)));
    const handle = await svc.runtime.client.workflow.signalWithStart(webhookDeliveryWorkflow, {
      workflowId,
      taskQueue: svc.runtime.config.temporal.taskQueue,
      args: [{ webhookId: Number(rows[0].id), publicId: hook.webhook_id, consignmentId: id, policy: svc.runtime.config.webhookRetry, historyLimit: 10 }],
      signal: deliverEventSignal,
      signalArgs: [{ eventId: events[0] }],
    });
    await waitFor('the first event at the receiver', () => deliveredTo('/hooks/long').length === 1);
    for (const eventId of [...events.slice(1), events[2]]) await handle.signal(deliverEventSignal, { eventId }); // the last one is a duplicate
    release();

    await waitFor('all seven', () => deliveredTo('/hooks/long').filter((r) => r.body.data.consignment === id).length >= 7);
    // The delivery queue's last run has ended: it delivers nothing more.
    await svc.runtime.client.workflow.getHandle(workflowId).result();
    const got = deliveredTo('/hooks/long').filter((r) => r.body.data.consignment === id);
    expect(got.map((r) => r.body.id)).toEqual(events);
    expect(got.map((r) => r.body.data.status)).toEqual([3, 4, 5, 5, 5, 5, 5]);
    const latest = await svc.runtime.client.workflow.getHandle(workflowId).describe();
    expect(latest.runId).not.toBe(handle.signaledRunId);
    expect(latest.status.name).toBe('COMPLETED');
  });
});

describe('delivery batches', () => {
  it('gives the event after delivered ones its own retries when it fails in the middle of a batch', async () => {
    const hook = await createWebhook({ endpoint: `${receiverOrigin}/hooks/batch`, status: 0 });
    const id = await processedConsignment();
    await consignments.acceptedEvent(id, { event: 'PICKED_UP' });
    await consignments.acceptedEvent(id, { event: 'IN_TRANSIT' });
    const { events, rows } = await publishedThenEnabled(id, 3, hook.webhook_id);
    let refusals = 2;
    answers.set('/hooks/batch', (body) => (body.data.status === 4 && refusals-- > 0 ? 503 : 200));
    // All three queued before the first activity: one batch; the second event fails twice.
    await svc.runtime.client.workflow.signalWithStart(webhookDeliveryWorkflow, {
      workflowId: webhookDeliveryWorkflowId(hook.webhook_id, id),
      taskQueue: svc.runtime.config.temporal.taskQueue,
      args: [
        {
          webhookId: Number(rows[0].id),
          publicId: hook.webhook_id,
          consignmentId: id,
          policy: svc.runtime.config.webhookRetry,
          pending: events.map((eventId) => ({ eventId })),
        },
      ],
      signal: deliverEventSignal,
      signalArgs: [{ eventId: events[0] }],
    });
    await waitFor('three deliveries', () => statusesAt('/hooks/batch', id).length >= 3);
    expect(statusesAt('/hooks/batch', id)).toEqual([3, 4, 5]);
    // An attempt is logged once its answer is back: the receiver may have the last one before the log does.
    type Attempt = { event_id: string; attempt: number; http_status: number };
    const attempts = async () => ((await api('GET', `/webhooks/${hook.webhook_id}/deliveries?limit=20`)).json().data.results as Attempt[]).reverse();
    const log = await waitFor('five logged attempts', async () => {
      const logged = await attempts();
      return logged.length >= 5 && logged;
    });
    expect(log.map((a) => [events.indexOf(a.event_id), a.attempt, a.http_status])).toEqual([
      [0, 1, 200],
      [1, 1, 503],
      [1, 2, 503],
      [1, 3, 200],
      [2, 1, 200],
    ]);
  });
});

describe('SSRF rule (WEBHOOK_ALLOW_PRIVATE=0)', () => {
  let strict: TestService;
  let strictKey: string;
  beforeAll(async () => {
    strict = await startTestService({ WEBHOOK_ALLOW_PRIVATE: '0' });
    ({ apiKey: strictKey } = await strict.customer('Strict'));
  });
  afterAll(async () => strict?.stop());

  it.each([
    ['en', 'Invalid endpoint URL: the host must resolve to public internet addresses only (not loopback, private, link-local or other internal addresses).'],
    ['tr', 'Geçersiz endpoint URL: sunucu adı yalnızca genel internet adreslerine çözümlenmelidir (loopback, özel, link-local veya diğer iç adreslere değil).'],
  ])('refuses loopback, private, link-local and metadata targets, also by name (%s)', async (lang, message) => {
    for (const endpoint of [
      'http://127.0.0.1/hook',
      'http://10.0.0.1/hook',
      'http://169.254.169.254/latest/meta-data/',
      'http://[::1]:8080/hook',
      'http://localhost:8080/hook',
      'https://192.168.1.20/hook',
      'http://100.64.0.1/hook',
      'http://[fd00:ec2::254]/',
      'http://[::ffff:127.0.0.1]/hook',
      'http://2130706433/hook',
    ]) {
      const res = await strict.request({ method: 'POST', url: '/api/v1/webhooks', apiKey: strictKey, lang, payload: sample({ endpoint }) });
      expect({ endpoint, status: res.statusCode }).toEqual({ endpoint, status: 400 });
      expect(res.json().errors).toEqual([{ field: 'endpoint', message }]);
    }
    const ftp = await strict.request({
      method: 'POST',
      url: '/api/v1/webhooks',
      apiKey: strictKey,
      lang,
      payload: sample({ endpoint: 'ftp://files.example.com/x' }),
    });
    expect(ftp.json().errors).toEqual([{ field: 'endpoint', message: lang === 'tr' ? 'Geçersiz endpoint URL' : 'Invalid endpoint URL' }]);
  });

  it('accepts a public address, and checks a changed endpoint again', async () => {
    const res = await strict.request({
      method: 'POST',
      url: '/api/v1/webhooks',
      apiKey: strictKey,
      payload: sample({ endpoint: 'https://93.184.216.34/hook' }),
    });
    expect(res.statusCode).toBe(201);
    const { webhook_id } = res.json().data;
    const patch = await strict.request({
      method: 'PATCH',
      url: `/api/v1/webhooks/${webhook_id}`,
      apiKey: strictKey,
      payload: { endpoint: 'http://169.254.169.254/' },
    });
    expect(patch.statusCode).toBe(400);
    expect(patch.json().errors[0].field).toBe('endpoint');
  });
});
