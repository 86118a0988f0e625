import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { internationalDraftBody } from '../support/consignments';
import { startMyDhlDouble, type MyDhlDouble } from '../support/carriers/mydhl-double';
import { startTestService, type TestService } from '../support/test-service';
import { waitFor } from '../support/wait';

/**
 * Tracking by the account's poller (docs/carriers.md, "Tracking"), through our HTTP API against the MyDHL double:
 * one round asks DHL about every consignment due in one `GET /tracking`, only the consignment whose carrier said
 * something new is signalled, a carrier refusing its rounds leaves every consignment operable, and processing
 * never waits behind a round.
 */
let svc: TestService;
let dhl: MyDhlDouble;
let key: string;
let providerId: number;

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

beforeAll(async () => {
  dhl = await startMyDhlDouble();
  // Rounds at least every second (a third of the 3 s interval), the first question a second after the hand-over.
  svc = await startTestService({ WEBHOOK_ALLOW_PRIVATE: '1', CARRIER_POLL_INTERVAL_MS: '3000' });
  ({ apiKey: key } = await svc.customer('DHL tracking'));
  const account = await call('POST', '/carrier-accounts', {
    carrier: 'dhl_express',
    description: 'DHL',
    credentials: { username: dhl.username, password: dhl.password, account_number: '123456789' },
    settings: { base_url: dhl.baseUrl },
  });
  expect(account.statusCode).toBe(201);
  providerId = account.json().data.provider_id;
});
afterAll(async () => {
  await svc?.stop();
  await dhl?.close();
});

const call = (method: 'GET' | 'POST', url: string, payload?: object) => svc.request({ method, url: `/api/v1${url}`, apiKey: key, payload });
const details = async (id: number) => (await call('GET', `/consignments/${id}/details`)).json().data as Json;

const processed = async (reference: string) => {
  const body = internationalDraftBody([{ description: 'Kilim', gtip: '630493000000', origin: 'TR', currency_code: 'EUR', unit_price: 24.5, quantity: 1 }], {
    preference: 0,
    provider_id: providerId,
    reference_no: reference,
  });
  const created = await call('POST', '/consignments/draft', body);
  expect(created.statusCode).toBe(201);
  const done = await call('POST', `/consignments/draft/${created.json().data.id}/start-process`);
  expect(done.statusCode).toBe(200);
  return { id: created.json().data.id as number, uuid: created.json().data.uuid as string, waybill: done.json().data.providerTrackingCode as string };
};

/** The tracking rounds' requests to DHL since `from`, each with the waybills it named. */
const rounds = (from = 0) =>
  dhl.requests
    .slice(from)
    .filter((r) => r.operation === 'tracking.multi' && r.query.shipmentTrackingNumber !== undefined)
    .map((r) => [r.query.shipmentTrackingNumber].flat());

/** The carrier events the consignment's workflow was signalled with. */
const signals = async (uuid: string) => {
  const history = await svc.runtime.client!.workflow.getHandle(`consignment:${uuid}`).fetchHistory();
  return (history.events ?? []).filter((e) => e.workflowExecutionSignaledEventAttributes?.signalName === 'carrierEvent').length;
};

describe('tracking by the account’s poller', () => {
  let three: Awaited<ReturnType<typeof processed>>[];

  it('asks DHL about every consignment due in one request, and signals only the one whose carrier said something new', async () => {
    three = [await processed('TP-1'), await processed('TP-2'), await processed('TP-3')];
    const waybills = three.map((c) => c.waybill).sort();
    await waitFor('a round naming all three', () => rounds().some((named) => waybills.every((w) => named.includes(w))), { timeoutMs: 30_000 });
    // What the first questions found (the double's journey begins at booking) is handed over; then rounds go quiet.
    await waitFor(
      'a quiet round',
      async () => {
        const counts = await Promise.all(three.map((c) => signals(c.uuid)));
        const asked = rounds().length;
        await new Promise((resolve) => setTimeout(resolve, 2_500));
        return rounds().length > asked && (await Promise.all(three.map((c) => signals(c.uuid)))).every((n, i) => n === counts[i]) ? counts : undefined;
      },
      { timeoutMs: 30_000 },
    );
    const quiet = await Promise.all(three.map((c) => signals(c.uuid)));

    const before = dhl.requests.length;
    // The double's journey begins in transit; DHL now reports the delivery of one of them.
    dhl.setTracking(three[1].waybill, 'delivered');
    await waitFor('the delivery in our API', async () => ((await details(three[1].id)).status === 7 ? true : undefined), {
      timeoutMs: 30_000,
      intervalMs: 300,
    });
    const after = await Promise.all(three.map((c) => signals(c.uuid)));
    expect(after[1]).toBeGreaterThan(quiet[1]);
    expect([after[0], after[2]]).toEqual([quiet[0], quiet[2]]);
    // Each round named every consignment due in one request; a shipment was asked about on its own only when it changed.
    expect(rounds(before).length).toBeGreaterThan(0);
    const single = dhl.requests
      .slice(before)
      .filter((r) => r.operation === 'tracking.single')
      .map((r) => r.path);
    expect(single.every((path) => path.includes(three[1].waybill))).toBe(true);
  }, 60_000);

  it('keeps every consignment operable while DHL refuses its rounds: recorded in their histories, cancelled meanwhile, tracked again after', async () => {
    dhl.failNext({ kind: 'status', status: 401, detail: 'Invalid credentials' }, { operation: 'tracking.multi', times: 1_000 });
    const fresh = await processed('TP-4');
    await waitFor(
      'the refusal in the histories',
      async () => ((await details(three[0].id)).details as Json[]).some((h) => /^Tracking at .* (refused|failed)/.test(h.message)) || undefined,
      { timeoutMs: 30_000, intervalMs: 500 },
    );
    // Asked and refused like the others, and still cancelled (before pickup DHL's label is voided).
    expect((await call('POST', `/consignments/${fresh.id}/cancel`)).statusCode).toBe(200);
    dhl.clearFaults();
    dhl.setTracking(three[0].waybill, 'delivered');
    // The poller waits twice the interval after each failed round: back within a few rounds.
    await waitFor('the delivery after the refusals', async () => ((await details(three[0].id)).status === 7 ? true : undefined), {
      timeoutMs: 60_000,
      intervalMs: 500,
    });
  }, 90_000);

  it('processes a draft while a tracking round is held busy at DHL', async () => {
    const before = dhl.requests.length;
    dhl.failNext({ kind: 'hang' }, { operation: 'tracking.multi', times: 1_000 });
    await waitFor('a round held at DHL', () => dhl.requests.slice(before).some((r) => r.operation === 'tracking.multi'), { timeoutMs: 30_000 });
    const done = await processed('TP-BUSY');
    expect(done.waybill).toMatch(/^\d{10}$/);
    dhl.clearFaults();
  }, 60_000);
});
