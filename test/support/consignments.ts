import { expect } from '@jest/globals';
import type { LightMyRequestResponse } from 'fastify';
import type { TestService } from './test-service';
import { waitFor, type WaitOptions } from './wait';

/**
 * Consignment building blocks shared by the integration tests: complete parties and draft bodies, and a
 * small client for the consignment routes of a test service (create, process, details, sandbox events,
 * waiting for a status).
 */

export interface Party {
  name: string;
  country: string;
  city: string;
  address: string;
  phone_number: string;
}

/** A complete consignor or consignee in `city` (Turkey unless `country` says otherwise): everything processing needs. */
export function party(city: string, overrides: Partial<Omit<Party, 'city'>> = {}): Party {
  return { name: 'Ayşe Yılmaz', country: 'TR', city, address: `${city} Cad. No:1`, phone_number: '+905551112233', ...overrides };
}

/**
 * A draft body that can be processed as it is: a domestic İstanbul → Ankara parcel of 2 kg (30×20×15 cm),
 * preference 1 (cheapest). `overrides` replace whole top-level fields.
 */
export function draftBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    preference: 1,
    consignor: party('İstanbul', { name: 'Ayşe Yılmaz' }),
    consignee: party('Ankara', { name: 'Şükrü Öztürk' }),
    packages: [{ package_type: 1, weight: 2, length: 30, width: 20, height: 15 }],
    ...overrides,
  };
}

/**
 * An international draft body for the customs carriers: İstanbul → Berlin, one 2 kg package (30×20×15 cm) holding
 * `items` (with the customs fields they need). `overrides` replace whole top-level fields.
 */
export function internationalDraftBody(items: Record<string, unknown>[], overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return draftBody({
    consignee: { ...party('Berlin', { name: 'Jana Schmidt', country: 'DE', address: 'Invalidenstraße 117' }), postal_code: '10115' },
    packages: [{ package_type: 1, weight: 2, length: 30, width: 20, height: 15, items }],
    ...overrides,
  });
}

/** A JSON object as the API answers it; the tests read its fields without casts. */
type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
/** What GET /consignments/:id/details answers. */
export type ConsignmentDetails = { id: number; uuid: string; status: number } & Json;

export interface ConsignmentApi {
  /** POST /consignments/draft, expecting 201 */
  draft(body: Record<string, unknown>): Promise<{ id: number; uuid: string }>;
  /** POST /consignments/draft/:id/start-process, the raw answer (with an optional body and Accept-Language) */
  process(id: number, payload?: unknown, lang?: string): Promise<LightMyRequestResponse>;
  /** a draft of `body`, processed (expecting 201, then 200): its id and uuid with the processing answer's data */
  processed(body: Record<string, unknown>): Promise<{ id: number; uuid: string } & Json>;
  /** GET /consignments/:id/details, the data */
  details(id: number): Promise<ConsignmentDetails>;
  /** POST /sandbox/consignments/:id/events, the raw answer */
  sandboxEvent(id: number, body: Record<string, unknown>): Promise<LightMyRequestResponse>;
  /** POST /sandbox/consignments/:id/events, expecting 202 (accepted) */
  acceptedEvent(id: number, body: Record<string, unknown>): Promise<void>;
}

/** The consignment routes of `svc` as the customer of `apiKey`. */
export function consignmentApi(svc: TestService, apiKey: string): ConsignmentApi {
  const consignments: ConsignmentApi = {
    async draft(body) {
      const res = await svc.request({ method: 'POST', url: '/api/v1/consignments/draft', apiKey, payload: body });
      expect(res.statusCode).toBe(201);
      return res.json().data as { id: number; uuid: string };
    },
    process: (id, payload, lang) =>
      svc.request({
        method: 'POST',
        url: `/api/v1/consignments/draft/${id}/start-process`,
        apiKey,
        lang,
        ...(payload === undefined ? {} : { payload: payload as object }),
      }),
    async processed(body) {
      const { id, uuid } = await consignments.draft(body);
      const res = await consignments.process(id);
      expect(res.statusCode).toBe(200);
      return { id, uuid, ...res.json().data };
    },
    details: async (id) => (await svc.request({ method: 'GET', url: `/api/v1/consignments/${id}/details`, apiKey })).json().data,
    sandboxEvent: (id, body) => svc.request({ method: 'POST', url: `/api/v1/sandbox/consignments/${id}/events`, apiKey, payload: body }),
    async acceptedEvent(id, body) {
      expect((await consignments.sandboxEvent(id, body)).statusCode).toBe(202);
    },
  };
  return consignments;
}

/**
 * Waits until consignment `id` is in `status` and returns its details. Carrier events are Signals, applied
 * shortly after their 202: tests wait for their effect instead of sleeping. Default: 15 s, probing every 100 ms.
 */
export function waitForStatus(
  consignments: Pick<ConsignmentApi, 'details'>,
  id: number,
  status: number,
  options: WaitOptions = {},
): Promise<ConsignmentDetails> {
  return waitFor(
    `consignment ${id} in status ${status}`,
    async () => {
      const d = await consignments.details(id);
      return d.status === status && d;
    },
    { timeoutMs: 15_000, ...options },
  );
}

/**
 * Waits until consignment `id` is no longer a draft (processed by someone else: the service settling a booking in
 * doubt) and returns its details; `details` is the test's own lookup. Probes every 500 ms (lookups are rate limited).
 */
export function waitForProcessed(details: (id: number) => Promise<Json>, id: number, options: WaitOptions = {}): Promise<Json> {
  return waitFor(
    `consignment ${id} processed`,
    async () => {
      const d = await details(id);
      return d.status !== 24 ? d : undefined;
    },
    { timeoutMs: 30_000, intervalMs: 500, ...options },
  );
}

/** A domestic draft for a Turkish carrier account: İstanbul (Kadıköy) to Ankara (Çankaya), two packages, Turkish letters. */
export function turkishDomesticDraft(providerId: number, reference: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return draftBody({
    preference: 0,
    provider_id: providerId,
    reference_no: reference,
    consignor: { ...party('Kadıköy', { name: 'Anadolu Butik', phone_number: '+90 216 555 11 22' }), state: 'İstanbul' },
    consignee: { ...party('Çankaya', { name: 'Şükrü Öztürk', address: 'Atatürk Bulvarı No:5 D:3' }), state: 'Ankara', postal_code: '06420' },
    packages: [
      { package_type: 1, weight: 1.4, length: 30, width: 20, height: 15, items: [{ description: 'Seramik kupa', quantity: 2 }] },
      { package_type: 1, weight: 0.6, length: 20, width: 20, height: 10 },
    ],
    ...overrides,
  });
}
