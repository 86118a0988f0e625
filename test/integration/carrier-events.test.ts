import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Booking, BookingRequest, Carrier, Quote, ShipmentSpec, TrackingEvent } from '../../src/carriers/carrier';
import { consignmentWorkflowId } from '../../src/temporal/consignment.starter';
import { consignmentApi, draftBody, party, waitForStatus, type ConsignmentApi } from '../support/consignments';
import { startTestService, type TestService } from '../support/test-service';

/** A carrier without push: the lifecycle workflow must poll it. Its tracking feed is scripted by the test. */
class PollingCarrier implements Carrier {
  readonly kind = 'polling-test';
  readonly id = 9;
  readonly name = 'Polling Test Carrier';
  readonly logoUrl = 'http://consignflow.test/logo-9.svg';
  readonly supportsCancelInTransit = true;
  readonly supportsPush = false;
  readonly feed = new Map<string, TrackingEvent[]>();
  polls = 0;
  readonly supportsQuotes = true;
  sentKey(req: BookingRequest): string {
    return req.bookingKey;
  }
  async quote(s: ShipmentSpec): Promise<Quote> {
    return this.price(s);
  }
  private price(s: ShipmentSpec): Quote {
    return { providerId: this.id, baseCost: 50 + s.weightKg, currency: 'TRY', transitDays: 2, serviceName: 'Polled' };
  }
  async book(req: { bookingKey: string; shipment: ShipmentSpec }): Promise<Booking> {
    const trackingCode = `PT${req.bookingKey.replace(/-/g, '').slice(0, 10).toUpperCase()}`;
    return { trackingCode, trackingUrl: `http://carrier.test/${trackingCode}`, pickupBooked: true, bookedAt: new Date(), cost: this.price(req.shipment) };
  }
  async cancel() {
    return { accepted: true };
  }
  async track({ trackingCode }: { trackingCode: string }): Promise<TrackingEvent[]> {
    this.polls++;
    return this.feed.get(trackingCode) ?? [];
  }
}

const TOKEN_1 = 'carrier-one-token-0123456789';
const polling = new PollingCarrier();
let svc: TestService;
let key: string;
let consignments: ConsignmentApi;

beforeAll(async () => {
  svc = await startTestService({ CARRIER_PUSH_TOKENS: `1=${TOKEN_1},2=carrier-two-token-0123456789`, CARRIER_POLL_INTERVAL_MS: '300' }, undefined, {
    extraCarriers: [polling],
  });
  ({ apiKey: key } = await svc.customer('Carrier events'));
  consignments = consignmentApi(svc, key);
});
afterAll(async () => svc?.stop());

/** A processed consignment of `providerId`, with the tracking code the carrier gave it. */
async function processedWith(providerId: number) {
  const ece = { name: 'Ece Kılıç', address: 'Cumhuriyet Cad. 3', phone_number: '+905441234567' };
  const done = await consignments.processed(
    draftBody({ preference: 0, provider_id: providerId, consignor: party('Adana', ece), consignee: party('Mersin', ece), packages: [{ weight: 2 }] }),
  );
  return { id: done.id, uuid: done.uuid, trackingCode: done.providerTrackingCode as string };
}

const push = (providerId: number, token: string | undefined, body: unknown, lang?: string) =>
  svc.app.inject({
    method: 'POST',
    url: `/api/v1/providers/${providerId}/events`,
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(lang ? { 'accept-language': lang } : {}) },
    payload: body as object,
  });

describe('carrier push endpoint', () => {
  it.each([
    ['en', 'Invalid carrier token.'],
    ['tr', 'Geçersiz kargo firması anahtarı.'],
  ])('refuses a missing or wrong token, and another carrier’s token (%s)', async (lang, message) => {
    for (const [provider, token] of [
      [1, undefined],
      [1, 'wrong-token-wrong-token-000'],
      [1, 'carrier-two-token-0123456789'],
      [3, TOKEN_1],
    ] as const) {
      const res = await push(provider, token, { events: [] }, lang);
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ status: false, errors: [{ message }] });
    }
  });

  it('applies pushed events in order, ignores redeliveries and reports unknown tracking codes', async () => {
    const { id, trackingCode } = await processedWith(1);
    const res = await push(1, TOKEN_1, {
      events: [
        { tracking_code: trackingCode, event_id: 'x1', event: 'PICKED_UP', location: 'Adana', occurred_at: '2026-11-20T08:00:00Z' },
        { tracking_code: trackingCode, event_id: 'x2', event: 'IN_TRANSIT', location: 'Niğde' },
        { tracking_code: trackingCode, event_id: 'x1', event: 'PICKED_UP' },
        { tracking_code: 'NOPE0000', event_id: 'x3', event: 'DELIVERED' },
      ],
    });
    expect(res.statusCode).toBe(202);
    expect(res.json().data).toEqual({ accepted: 3, unknown_tracking_codes: ['NOPE0000'] });
    const d = await waitForStatus(consignments, id, 5);
    expect(d.details.map((h: { status_name: string; location: string | null }) => [h.status_name, h.location])).toEqual([
      ['NEW_DRAFT', null],
      ['AWAITING_PICKUP', null],
      ['PICKED_UP', 'Adana'],
      ['IN_TRANSIT', 'Niğde'],
    ]);
    expect(d.details[2].status_datetime).toBe('2026-11-20 08:00:00');

    // the label's QR code opens the public tracking view: status and history, no personal data
    const tracking = await svc.app.inject({
      method: 'GET',
      url: new URL(d.labels[0].file_url).pathname.replace(/labels\/.*/, `providers/1/track/${trackingCode}`),
      headers: { 'accept-language': 'tr' },
    });
    expect(tracking.statusCode).toBe(200);
    expect(tracking.json().data).toMatchObject({ tracking_code: trackingCode, status: 5, status_message: 'Gönderi yolda' });
    expect(tracking.body).not.toContain('Ece');
    expect((await svc.app.inject({ method: 'GET', url: '/api/v1/providers/1/track/UNKNOWN' })).statusCode).toBe(404);
  });

  it('validates the body', async () => {
    const res = await push(1, TOKEN_1, { events: [{ tracking_code: 'X', event_id: 'e', event: 'LOST' }] });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors[0].field).toBe('events.0.event');
  });
});

describe('carriers without push', () => {
  it('are polled on a durable timer until a final status, then the workflow completes', async () => {
    const { id, uuid, trackingCode } = await processedWith(polling.id);
    expect((await waitForStatus(consignments, id, 3)).provider).toMatchObject({ id: 9 });
    const before = polling.polls;
    polling.feed.set(trackingCode, [{ eventId: 'p1', event: 'PICKED_UP', occurredAt: new Date(), location: 'Adana' }]);
    await waitForStatus(consignments, id, 4);
    expect(polling.polls).toBeGreaterThan(before);
    polling.feed.set(trackingCode, [
      { eventId: 'p1', event: 'PICKED_UP', occurredAt: new Date() },
      { eventId: 'p2', event: 'OUT_FOR_DELIVERY', occurredAt: new Date() },
      { eventId: 'p3', event: 'DELIVERED', occurredAt: new Date(), location: 'Mersin' },
    ]);
    const d = await waitForStatus(consignments, id, 7);
    expect(d.details.map((h: { status_name: string }) => h.status_name)).toEqual([
      'NEW_DRAFT',
      'AWAITING_PICKUP',
      'PICKED_UP',
      'OUT_FOR_DELIVERY',
      'DELIVERED',
    ]);
    const result = await svc.runtime.client.workflow.getHandle(consignmentWorkflowId(uuid)).result();
    expect(result.status).toBe(7);
    // The workflow has completed: no timer or activity of it is left that could poll again.
    const description = await svc.runtime.client.workflow.getHandle(consignmentWorkflowId(uuid)).describe();
    expect(description.status.name).toBe('COMPLETED');
    expect(description.raw.pendingActivities ?? []).toHaveLength(0);
  });
});
