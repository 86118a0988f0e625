import { randomBytes } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CarrierBusyError, CarrierRefusedError, type BookingRequest } from '../../../src/carriers/carrier';
import { RemoteUnavailableError } from '../../../src/carriers/carrier-http';
import {
  ConsignmentApiCarrier,
  STATUS_WEBHOOK_HEADER,
  deleteStatusWebhook,
  registerStatusWebhook,
  remoteDraftBody,
  type ConsignmentApiSettings,
} from '../../../src/carriers/consignment-api';
import type { DraftInput } from '../../../src/domain/draft';
import { createOutboundHttp, type OutboundHttp } from '../../../src/http/outbound';
import { useRecordingServer } from '../../support/recording-server';
import { failure } from '../../support/failure';

// ---------------------------------------------------------------------------------------------------------------
// A fake remote: a small service speaking this project's /api/v1 contract (docs/api.md), consignments in memory,
// every request recorded, with switches that inject faults.
// ---------------------------------------------------------------------------------------------------------------

interface Recorded {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** the answer was a replay of an earlier one with the same Idempotency-Key (`Idempotent-Replayed: true`) */
  replayed?: boolean;
}

/** The first answer to a create with an Idempotency-Key, replayed for the same key and body (docs/api.md "Idempotency"). */
interface RememberedCreate {
  body: string;
  status: number;
  answer: string;
}

interface HistoryEntry {
  status: number;
  status_name: string;
  message: string | null;
  status_datetime: string;
  location: string | null;
}

interface RemoteConsignment {
  id: number;
  reference_no: string | null;
  status: number;
  barcode: string | null;
  draft: Record<string, unknown>;
  idempotencyKey?: string;
  label?: { id: number; pdf: Buffer; zpl: Buffer };
  /** overrides the labels the lookup shows (default: the label made when processing) */
  labels?: { id: number; file_name: string; file_url: string; tracking_code: string }[];
  history: HistoryEntry[];
}

interface Fault {
  method?: string;
  path: RegExp;
  status: number;
  headers?: Record<string, string>;
  body?: unknown;
  /** a body sent as it is instead of `body` as JSON */
  raw?: string;
  /** answer this many matching requests, then stop (default: every one) */
  times?: number;
}

/** The remote's rate limit refusing `method path`: 429, with `Retry-After` (seconds) when given. */
const rateLimited = (method: string, path: RegExp, retryAfter?: string): Fault => ({
  method,
  path,
  status: 429,
  ...(retryAfter !== undefined && { headers: { 'retry-after': retryAfter } }),
  body: { status: false, errors: [{ message: 'Rate limit exceeded.' }] },
});

const STATUS_NAMES: Record<number, string> = {
  24: 'NEW_DRAFT',
  2: 'LABEL_CREATED',
  3: 'AWAITING_PICKUP',
  4: 'PICKED_UP',
  5: 'IN_TRANSIT',
  7: 'DELIVERED',
  10: 'CANCELLED',
};
const NOT_A_DRAFT = 'Consignment not found or not in draft status.';

class FakeRemote {
  readonly apiKey = 'their-key-for-us';
  readonly requests: Recorded[] = [];
  readonly consignments = new Map<number, RemoteConsignment>();
  readonly webhooks = new Map<string, Record<string, unknown>>();
  /** Idempotency-Key → the first answer to the create that carried it */
  readonly idempotency = new Map<string, RememberedCreate>();
  faults: Fault[] = [];
  /** process the draft, then destroy the socket: the client never sees the answer */
  dropProcessAnswer = false;
  /** process the draft, then answer 409 "not a draft" (as if a concurrent attempt had processed it) */
  processAnswersConflict = false;
  /** answer 409 "not a draft" without processing */
  processRefusesAsConflict = false;
  /** the carrier refuses cancels with this message (409) */
  cancelRefusal: string | undefined;
  server!: Server;
  origin = '';
  private nextId = 9001;
  private nextLabelId = 501;

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        const path = decodeURIComponent(new URL(req.url!, 'http://x').pathname);
        const recorded: Recorded = { method: req.method!, path, headers: req.headers, body };
        this.requests.push(recorded);
        this.handle(req, res, path, body, recorded);
      });
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.origin = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }

  reset(): void {
    this.requests.length = 0;
    this.consignments.clear();
    this.webhooks.clear();
    this.idempotency.clear();
    this.faults = [];
    this.dropProcessAnswer = false;
    this.processAnswersConflict = false;
    this.processRefusesAsConflict = false;
    this.cancelRefusal = undefined;
    this.nextId = 9001;
    this.nextLabelId = 501;
  }

  /** The requests whose method and path start with the given prefix (e.g. 'POST /api/v1/consignments/draft'). */
  sent(prefix: string): Recorded[] {
    return this.requests.filter((r) => `${r.method} ${r.path}`.startsWith(prefix));
  }

  /** The remote forgets every Idempotency-Key, as it does 24 hours after their first use. */
  expireIdempotencyKeys(): void {
    this.idempotency.clear();
  }

  /** A consignment that exists at the remote already (from an earlier attempt, or seeded for tracking). */
  seed(fields: Partial<RemoteConsignment> & { reference_no: string | null; status: number }): RemoteConsignment {
    const c: RemoteConsignment = { id: this.nextId++, barcode: null, draft: {}, history: [], ...fields };
    if (c.history.length === 0) c.history.push(entry(24, '2025-03-14 08:00:00'));
    if (c.status !== 24 && c.status !== 10 && !c.label) this.makeLabel(c);
    this.consignments.set(c.id, c);
    return c;
  }

  labelUrl(c: RemoteConsignment, ext: 'pdf' | 'zpl' = 'pdf'): string {
    return `${this.origin}/api/v1/labels/${c.label!.id}/${c.barcode}.${ext}?hash=h${c.label!.id}`;
  }

  private makeLabel(c: RemoteConsignment): void {
    c.barcode ??= `RMT${c.id}`;
    const id = this.nextLabelId++;
    // binary content: a label that went through a text decoding would not come back byte for byte
    c.label = {
      id,
      pdf: Buffer.concat([Buffer.from(`%PDF-1.4\n% label ${c.barcode}\n`), randomBytes(256), Buffer.from([0x00, 0xff, 0xfe, 0x80])]),
      zpl: Buffer.from(`^XA^FO50,50^BCN,100^FD${c.barcode}^FS^XZ`),
    };
  }

  private detail(c: RemoteConsignment) {
    const labels =
      c.labels ??
      (c.label
        ? [
            {
              id: c.label.id,
              provider: 1,
              file_name: `${c.barcode}.pdf`,
              file_url: this.labelUrl(c),
              tracking_code: c.barcode,
              label_type: 'PDF',
              tracking_type: 'BARCODE',
            },
          ]
        : []);
    return {
      id: c.id,
      uuid: `uuid-${c.id}`,
      parent: null,
      type: 'NORMAL',
      barcode: c.barcode,
      labels,
      reference_no: c.reference_no,
      status: c.status,
      status_message: STATUS_NAMES[c.status] ?? 'unknown',
      details: c.history.map((h) => ({ ...h, status_description: h.status_name })),
      provider: c.status === 24 ? null : { id: 1, name: 'Remote Express', logo: `${this.origin}/api/v1/providers/1/logo.svg` },
      provider_base_cost: c.status === 24 ? 0 : 95,
      currency_code: 'TRY',
    };
  }

  private byReference(ref: string): RemoteConsignment | undefined {
    return [...this.consignments.values()].find((c) => c.reference_no === ref);
  }

  private handle(req: IncomingMessage, res: ServerResponse, path: string, raw: string, recorded: Recorded): void {
    const method = req.method!;
    const fault = this.faults.find((f) => (!f.method || f.method === method) && f.path.test(path));
    if (fault) {
      if (fault.times !== undefined && --fault.times <= 0) this.faults.splice(this.faults.indexOf(fault), 1);
      res
        .writeHead(fault.status, { 'content-type': 'application/json', ...fault.headers })
        .end(fault.raw ?? (fault.body === undefined ? '' : JSON.stringify(fault.body)));
      return;
    }

    // Labels: signed links, no API key.
    const label = /^\/api\/v1\/labels\/(\d+)\/[^/]+\.(pdf|zpl)$/.exec(path);
    if (method === 'GET' && label) {
      const c = [...this.consignments.values()].find((x) => x.label?.id === Number(label[1]));
      if (!c) return void fail(res, 404, 'Label not found.');
      const pdf = label[2] === 'pdf';
      res.writeHead(200, { 'content-type': pdf ? 'application/pdf' : 'application/zpl; charset=utf-8' }).end(pdf ? c.label!.pdf : c.label!.zpl);
      return;
    }

    if (req.headers.apikey !== this.apiKey && req.headers.authorization !== `APIKEY ${this.apiKey}`) return void fail(res, 401, 'Invalid API key.');
    const body = (raw ? JSON.parse(raw) : {}) as Record<string, unknown>;
    let m: RegExpExecArray | null;

    if (method === 'POST' && path === '/api/v1/consignments/draft') {
      const key = req.headers['idempotency-key'] as string | undefined;
      const earlier = key === undefined ? undefined : this.idempotency.get(key);
      if (earlier) {
        if (earlier.body !== canonical(body)) return void fail(res, 422, 'Idempotency-Key reused with another body.');
        recorded.replayed = true;
        res.writeHead(earlier.status, { 'content-type': 'application/json', 'idempotent-replayed': 'true' }).end(earlier.answer);
        return;
      }
      // Refused by validation: not remembered (a corrected retry with the same key works).
      const consignee = body.consignee as { name?: string } | undefined;
      if (!consignee?.name) return void fail(res, 400, 'This value should not be blank.', 'consignee.name');
      // Business refusals and creations are remembered.
      const remember = (status: number, answer: string): void => {
        if (key !== undefined) this.idempotency.set(key, { body: canonical(body), status, answer });
        res.writeHead(status, { 'content-type': 'application/json' }).end(answer);
      };
      const ref = body.reference_no as string | undefined;
      if (ref && this.byReference(ref)) {
        return void remember(
          409,
          JSON.stringify({
            status: false,
            errors: [{ message: 'reference_no: This reference number is already used. Please use a unique reference number.' }],
          }),
        );
      }
      const c = this.seed({ reference_no: ref ?? null, status: 24, draft: body, idempotencyKey: key });
      return void remember(
        201,
        JSON.stringify({
          status: true,
          message: 'Draft created.',
          data: { id: c.id, uuid: `uuid-${c.id}`, status: 24, reference_no: c.reference_no, barcode: null },
        }),
      );
    }

    if (method === 'POST' && (m = /^\/api\/v1\/consignments\/draft\/(\d+)\/start-process$/.exec(path))) {
      const c = this.consignments.get(Number(m[1]));
      if (!c) return void fail(res, 404, NOT_A_DRAFT);
      if (c.status !== 24 || this.processRefusesAsConflict) return void fail(res, 409, NOT_A_DRAFT);
      c.status = 2;
      this.makeLabel(c);
      c.history.push(entry(2, '2025-03-14 09:00:00'));
      if (this.dropProcessAnswer) return void req.socket.destroy();
      if (this.processAnswersConflict) return void fail(res, 409, NOT_A_DRAFT);
      const zpl = body.label_format === 'zpl';
      return void ok(res, 200, {
        consignment: c.id,
        barcode: c.barcode,
        svcBarcode: `SVC${c.id}`,
        providerTrackingCode: `PTC${c.id}`,
        trackingUrl: `https://track.example.com/${c.barcode}`,
        contentType: zpl ? 'application/zpl' : 'application/pdf',
        base64label: (zpl ? c.label!.zpl : c.label!.pdf).toString('base64'),
      });
    }

    if (method === 'GET' && (m = /^\/api\/v1\/consignments\/find\/reference_no\/(.+)$/.exec(path))) {
      const c = this.byReference(m[1]);
      return c ? void ok(res, 200, this.detail(c), null) : void fail(res, 404, 'Consignment not found.');
    }

    if (method === 'GET' && (m = /^\/api\/v1\/consignments\/(\d+)\/details$/.exec(path))) {
      const c = this.consignments.get(Number(m[1]));
      return c ? void ok(res, 200, this.detail(c), null) : void fail(res, 404, 'Consignment not found.');
    }

    if (method === 'POST' && (m = /^\/api\/v1\/consignments\/([^/]+)\/cancel$/.exec(path))) {
      const key = m[1];
      const c = [...this.consignments.values()].find((x) => String(x.id) === key || x.barcode === key || x.reference_no === key);
      if (!c) return void fail(res, 404, 'Consignment not found.');
      if (c.status === 10) return void fail(res, 409, 'Shipment already cancelled');
      if (c.status === 7) return void fail(res, 409, 'Shipment already delivered');
      if (this.cancelRefusal) return void fail(res, 409, this.cancelRefusal);
      c.status = 10;
      c.history.push(entry(10, '2025-03-14 10:00:00'));
      return void ok(res, 200, { consignment: c.id }, 'Consignment cancelled.');
    }

    if (method === 'POST' && path === '/api/v1/webhooks') {
      const id = `wh_${this.webhooks.size + 1}`;
      this.webhooks.set(id, body);
      return void ok(res, 201, { webhook_id: id, ...body }, 'Webhook created.');
    }

    if (method === 'DELETE' && (m = /^\/api\/v1\/webhooks\/([^/]+)$/.exec(path))) {
      if (!this.webhooks.delete(m[1])) return void fail(res, 404, 'Webhook not found.');
      return void ok(res, 200, null, 'Webhook deleted.');
    }

    fail(res, 404, 'Route not found.');
  }
}

/** JSON with object keys in order: two bodies with the same content compare equal. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v !== null && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}

function entry(status: number, at: string, extra: Partial<HistoryEntry> = {}): HistoryEntry {
  return { status, status_name: STATUS_NAMES[status] ?? 'UNKNOWN', message: null, status_datetime: at, location: null, ...extra };
}

function ok(res: ServerResponse, status: number, data: unknown, message: string | null = null): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ status: true, message, data }));
}

function fail(res: ServerResponse, status: number, message: string, field?: string): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ status: false, errors: [field ? { message, field } : { message }] }));
}

// ---------------------------------------------------------------------------------------------------------------

const remote = new FakeRemote();
/** A second origin for label links that point elsewhere (a CDN): it must not receive the API key. */
const cdn = useRecordingServer();
let http: OutboundHttp;
beforeAll(async () => {
  await remote.start();
  http = createOutboundHttp({ allowPrivate: true });
});
afterAll(async () => {
  await http.close();
  await remote.stop();
});
beforeEach(() => {
  remote.reset();
  budget.calls = 0;
  budget.busy = false;
});

/** The account's lookup budget: counts what is spent, or is spent already when `busy`. */
const budget = {
  calls: 0,
  busy: false,
  spend: async (): Promise<void> => {
    budget.calls++;
    if (budget.busy) throw new CarrierBusyError(PROVIDER_ID, 42_000, 'the account’s lookup budget for this window is spent');
  },
};

const PROVIDER_ID = 1001;
const NOW = new Date('2025-03-14T12:00:00Z');

function carrier(options: { settings?: ConsignmentApiSettings; apiKey?: string; baseUrl?: string } = {}): ConsignmentApiCarrier {
  return new ConsignmentApiCarrier({
    providerId: PROVIDER_ID,
    name: 'Our shipping service',
    logoUrl: 'https://cf.example.com/api/v1/providers/1001/logo.svg',
    credentials: { base_url: options.baseUrl ?? `${remote.origin}/`, api_key: options.apiKey ?? remote.apiKey },
    settings: options.settings ?? { provider_id: 1, language: 'tr' },
    http,
    lookupBudget: budget.spend,
    now: () => NOW,
  });
}

const draft: DraftInput = {
  preference: 0,
  provider_id: PROVIDER_ID,
  reference_no: 'ORDER-1',
  invoice_number: 'INV-7',
  consignor: { name: 'Ada Depo', country: 'TR', city: 'İstanbul' },
  consignee: { name: 'Grace Hopper', country: 'TR', city: 'Ankara' },
  packages: [{ weight: 1.5, length: 20, width: 15, height: 10 }],
  documents: [{ id: 77 }],
} as DraftInput;

function request(overrides: Partial<BookingRequest> = {}): BookingRequest {
  return {
    bookingKey: '6f1c2a7e-0000-4000-8000-000000000001',
    shipment: { fromCountry: 'TR', toCountry: 'TR', weightKg: 1.5, desi: 1, packageCount: 1 },
    serviceBarcode: 'CF000000001TR',
    draft,
    reference: 'ORDER-1',
    labelFormat: 'pdf',
    ...overrides,
  };
}

// ---------------------------------------------------------------------------------------------------------------

describe('remoteDraftBody', () => {
  it('replaces our account choice by the remote carrier of the settings, drops documents and sets the reference', () => {
    const body = remoteDraftBody(draft, 'REF-X', { provider_id: 5 });
    expect(body).toEqual({
      preference: 0,
      provider_id: 5,
      reference_no: 'REF-X',
      invoice_number: 'INV-7',
      consignor: draft.consignor,
      consignee: draft.consignee,
      packages: draft.packages,
    });
    expect(body).not.toHaveProperty('documents');
    expect(draft.documents).toEqual([{ id: 77 }]); // the draft is not changed
    expect(draft.provider_id).toBe(PROVIDER_ID);
  });

  it("keeps the settings' preference next to their provider", () => {
    expect(remoteDraftBody(draft, 'R', { provider_id: 5, preference: 1 })).toMatchObject({ preference: 1, provider_id: 5 });
  });

  it("without a remote provider sends no provider_id and lets the remote choose (settings' preference, else the draft's fastest, else cheapest)", () => {
    const cheapest = remoteDraftBody(draft, 'R', {});
    expect(cheapest.preference).toBe(1);
    expect(cheapest).not.toHaveProperty('provider_id');
    expect(remoteDraftBody({ ...draft, preference: 2 }, 'R', {}).preference).toBe(2);
    expect(remoteDraftBody({ ...draft, preference: 1 }, 'R', {}).preference).toBe(1);
    expect(remoteDraftBody({ ...draft, preference: 2 }, 'R', { preference: 1 }).preference).toBe(1);
    expect(remoteDraftBody(draft, 'R', { preference: 2 })).not.toHaveProperty('provider_id');
  });

  it('without a remote provider maps every chosen preference but fastest to cheapest: never "specific" without a provider', () => {
    // settings { preference: 0 } without provider_id cannot be stored any more; should one reach here, it is cheapest
    const fromSettings = remoteDraftBody(draft, 'R', { preference: 0 });
    expect(fromSettings.preference).toBe(1);
    expect(fromSettings).not.toHaveProperty('provider_id');
    // the draft's own "specific" (naming this account) is cheapest there too; its fastest stays fastest
    const fromDraft = remoteDraftBody({ ...draft, preference: 0 }, 'R', {});
    expect(fromDraft.preference).toBe(1);
    expect(fromDraft).not.toHaveProperty('provider_id');
    expect(remoteDraftBody({ ...draft, preference: 2 }, 'R', {})).toMatchObject({ preference: 2 });
    expect(remoteDraftBody({ ...draft, preference: 2 }, 'R', {})).not.toHaveProperty('provider_id');
    expect(remoteDraftBody(draft, 'R', { preference: 2 }).preference).toBe(2);
  });
});

describe('ConsignmentApiCarrier', () => {
  it('declares what it supports and prices nothing itself', async () => {
    const c = carrier();
    expect([c.id, c.name]).toEqual([PROVIDER_ID, 'Our shipping service']);
    expect(c.supportsQuotes).toBe(false);
    expect(c.supportsPush).toBe(false);
    expect(c.supportsCancelInTransit).toBe(true);
    expect(await c.quote()).toBeNull();
  });

  describe('book', () => {
    const KEY = 'consignflow-6f1c2a7e-0000-4000-8000-000000000001';
    /** What every booking of ORDER-1 costs here: the remote prices, not us. */
    const COST = { providerId: PROVIDER_ID, baseCost: 0, currency: 'TRY', transitDays: 0, serviceName: 'Our shipping service (ORDER-1)' };
    const calls = () => remote.requests.map((r) => `${r.method} ${r.path}`);
    const LABEL_DOWNLOAD = /^GET \/api\/v1\/labels\/\d+\/RMT9001\.pdf$/;
    /** The calls of a booking that finds its consignment already processed: create (replayed or not), process, then details and the label. */
    const RECOVERED_BY_DETAILS = [
      'POST /api/v1/consignments/draft',
      'POST /api/v1/consignments/draft/9001/start-process',
      'GET /api/v1/consignments/9001/details',
      expect.stringMatching(LABEL_DOWNLOAD),
    ];

    it('creates the draft at the remote with an idempotency key straight away, processes it and returns its barcode, id and label', async () => {
      const booking = await carrier().book(request());

      expect(calls()).toEqual(['POST /api/v1/consignments/draft', 'POST /api/v1/consignments/draft/9001/start-process']);
      const [create] = remote.sent('POST /api/v1/consignments/draft');
      expect(create.headers['idempotency-key']).toBe(KEY);
      expect(create.replayed).toBeUndefined();
      for (const r of remote.requests) {
        expect(r.headers.apikey).toBe(remote.apiKey);
        expect(r.headers['accept-language']).toBe('tr');
      }
      const sentDraft = JSON.parse(create.body) as Record<string, unknown>;
      expect(sentDraft).toMatchObject({ reference_no: 'ORDER-1', provider_id: 1, preference: 0, invoice_number: 'INV-7', consignee: { name: 'Grace Hopper' } });
      expect(sentDraft).not.toHaveProperty('documents');
      expect(JSON.parse(remote.sent('POST /api/v1/consignments/draft/9001/start-process')[0].body)).toEqual({});
      expect(remote.sent('POST /api/v1/consignments/draft/9001/start-process')[0].headers['idempotency-key']).toBeUndefined();

      expect(remote.consignments.size).toBe(1);
      const made = remote.consignments.get(9001)!;
      expect(made.status).toBe(2);
      expect(made.idempotencyKey).toBe(KEY);
      expect(booking.trackingCode).toBe(made.barcode);
      expect(booking.trackingCode).toBe('RMT9001');
      expect(booking.carrierReference).toBe('9001');
      expect(booking.trackingUrl).toBe('https://track.example.com/RMT9001');
      expect(booking.label?.contentType).toBe('application/pdf');
      expect(Buffer.isBuffer(booking.label?.content)).toBe(true);
      expect(booking.label!.content.equals(made.label!.pdf)).toBe(true);
      expect(booking.pickupBooked).toBe(false);
      expect(booking.bookedAt).toEqual(NOW);
      expect(booking.cost).toEqual(COST);
      expect(budget.calls).toBe(0); // no lookup on the way that works
    });

    it('books while the lookup budget is spent: the happy path spends none of it', async () => {
      budget.busy = true;
      const booking = await carrier().book(request());
      expect(booking.carrierReference).toBe('9001');
      expect(budget.calls).toBe(0);
      expect(remote.sent('GET')).toEqual([]);
    });

    it('asks for a ZPL label when the caller wants one, and returns it with the content type sent', async () => {
      const booking = await carrier().book(request({ labelFormat: 'zpl' }));
      const [process] = remote.sent('POST /api/v1/consignments/draft/9001/start-process');
      expect(JSON.parse(process.body)).toEqual({ label_format: 'zpl' });
      expect(booking.label?.contentType).toBe('application/zpl');
      expect(booking.label!.content.equals(remote.consignments.get(9001)!.label!.zpl)).toBe(true);
    });

    it('books exactly once: a repeated book replays the create, is told "not a draft" and recovers the label by details', async () => {
      const c = carrier();
      const first = await c.book(request());
      remote.requests.length = 0;

      const second = await c.book(request());

      expect(remote.consignments.size).toBe(1);
      expect(calls()).toEqual(RECOVERED_BY_DETAILS);
      const [create] = remote.sent('POST /api/v1/consignments/draft');
      expect(create.headers['idempotency-key']).toBe(KEY);
      expect(create.replayed).toBe(true);
      expect(second.trackingCode).toBe(first.trackingCode);
      expect(second.carrierReference).toBe(first.carrierReference);
      expect(second.label!.content.equals(first.label!.content)).toBe(true);
      expect(second.label!.contentType).toBe('application/pdf');
      expect(second.cost).toEqual(COST);
      expect(second.cost).toEqual(first.cost);
      expect(budget.calls).toBe(1); // the details lookup only: no lookup by reference
    });

    it('recovers the label the lookup lists (the PDF), even for a retried ZPL booking: the contract links no ZPL file', async () => {
      const c = carrier();
      await c.book(request());
      remote.requests.length = 0;
      const again = await c.book(request({ labelFormat: 'zpl' }));
      expect(remote.consignments.size).toBe(1);
      const download = remote.sent('GET /api/v1/labels/');
      expect(download).toHaveLength(1);
      expect(download[0].path).toMatch(/\/RMT9001\.pdf$/);
      expect(again.label!.content.equals(remote.consignments.get(9001)!.label!.pdf)).toBe(true);
      expect(again.label!.contentType).toBe('application/pdf');
    });

    it('throws when the process answer is lost, and the retry recovers the processed consignment without a second one', async () => {
      const c = carrier();
      remote.dropProcessAnswer = true;
      const error = await failure(c.book(request()));
      expect(error).toBeInstanceOf(RemoteUnavailableError);
      expect(remote.consignments.size).toBe(1);
      expect(remote.consignments.get(9001)!.status).toBe(2); // the remote did process it

      remote.dropProcessAnswer = false;
      remote.requests.length = 0;
      const booking = await c.book(request());
      expect(remote.consignments.size).toBe(1);
      expect(calls()).toEqual(RECOVERED_BY_DETAILS);
      expect(remote.sent('POST /api/v1/consignments/draft')[0].replayed).toBe(true);
      expect(booking.trackingCode).toBe('RMT9001');
      expect(booking.carrierReference).toBe('9001');
      expect(booking.label!.content.equals(remote.consignments.get(9001)!.label!.pdf)).toBe(true);
      expect(booking.cost).toEqual(COST);
      expect(budget.calls).toBe(1);
    });

    it('after the key expired, a repeated book is told the reference is used (409), finds it by reference and recovers its label', async () => {
      const c = carrier();
      const first = await c.book(request());
      remote.expireIdempotencyKeys();
      remote.requests.length = 0;

      const second = await c.book(request());

      expect(remote.consignments.size).toBe(1);
      expect(calls()).toEqual(['POST /api/v1/consignments/draft', 'GET /api/v1/consignments/find/reference_no/ORDER-1', expect.stringMatching(LABEL_DOWNLOAD)]);
      expect(remote.sent('POST /api/v1/consignments/draft')[0].replayed).toBeUndefined(); // a real 409, not a replay
      expect(second.trackingCode).toBe(first.trackingCode);
      expect(second.carrierReference).toBe('9001');
      expect(second.label!.content.equals(first.label!.content)).toBe(true);
      expect(second.cost).toEqual(COST);
      expect(budget.calls).toBe(1); // the lookup by reference
    });

    it('a create answered 409 is remembered: the replayed 409 leads to the same lookup by reference', async () => {
      const raced = remote.seed({ reference_no: 'ORDER-1', status: 2 });
      const c = carrier();
      const first = await c.book(request());
      const second = await c.book(request());
      const creates = remote.requests.filter((r) => r.method === 'POST' && r.path === '/api/v1/consignments/draft');
      expect(creates.map((r) => r.replayed)).toEqual([undefined, true]);
      expect(remote.sent('GET /api/v1/consignments/find/reference_no/ORDER-1')).toHaveLength(2);
      expect(remote.consignments.size).toBe(1);
      expect([first.carrierReference, second.carrierReference]).toEqual([String(raced.id), String(raced.id)]);
      expect(second.label!.content.equals(raced.label!.pdf)).toBe(true);
      expect(budget.calls).toBe(2);
    });

    it('processes a draft an earlier attempt created (its key expired) instead of creating another', async () => {
      const earlier = remote.seed({ reference_no: 'ORDER-1', status: 24, draft: { reference_no: 'ORDER-1' } });
      const booking = await carrier().book(request());
      expect(calls()).toEqual([
        'POST /api/v1/consignments/draft',
        'GET /api/v1/consignments/find/reference_no/ORDER-1',
        `POST /api/v1/consignments/draft/${earlier.id}/start-process`,
      ]);
      expect(remote.consignments.size).toBe(1);
      expect(earlier.status).toBe(2);
      expect(booking.carrierReference).toBe(String(earlier.id));
      expect(booking.trackingUrl).toBe(`https://track.example.com/${earlier.barcode}`);
      expect(booking.label!.content.equals(earlier.label!.pdf)).toBe(true);
      expect(booking.cost).toEqual(COST);
      expect(budget.calls).toBe(1);
    });

    it('retries a process that failed with a 503 on the draft the replayed create names', async () => {
      const c = carrier();
      remote.faults.push({
        method: 'POST',
        path: /start-process$/,
        status: 503,
        body: { status: false, errors: [{ message: 'Service unavailable' }] },
        times: 1,
      });
      expect(await failure(c.book(request()))).toBeInstanceOf(RemoteUnavailableError);
      expect(remote.consignments.get(9001)!.status).toBe(24);

      const booking = await c.book(request());
      expect(remote.consignments.size).toBe(1);
      expect(remote.sent('POST /api/v1/consignments/draft').map((r) => `${r.path} ${r.replayed ?? false}`)).toEqual([
        '/api/v1/consignments/draft false',
        '/api/v1/consignments/draft/9001/start-process false',
        '/api/v1/consignments/draft true',
        '/api/v1/consignments/draft/9001/start-process false',
      ]);
      expect(remote.consignments.get(9001)!.status).toBe(2);
      expect(booking.carrierReference).toBe('9001');
      expect(booking.label!.content.equals(remote.consignments.get(9001)!.label!.pdf)).toBe(true);
      expect(budget.calls).toBe(0);
    });

    it('recovers by details when the process answers "not a draft" because another attempt processed it', async () => {
      remote.processAnswersConflict = true;
      const booking = await carrier().book(request());
      expect(remote.consignments.size).toBe(1);
      expect(calls()).toEqual(RECOVERED_BY_DETAILS);
      expect(booking.trackingCode).toBe('RMT9001');
      expect(booking.label!.content.equals(remote.consignments.get(9001)!.label!.pdf)).toBe(true);
      expect(booking.cost).toEqual(COST);
      expect(budget.calls).toBe(1); // details only
    });

    it('refuses when the process answers "not a draft" and the consignment is still a draft', async () => {
      remote.processRefusesAsConflict = true;
      const error = await failure(carrier().book(request()));
      expect(error).toBeInstanceOf(CarrierRefusedError);
      expect((error as CarrierRefusedError).reason).toContain(NOT_A_DRAFT);
      expect(remote.sent('GET /api/v1/consignments/9001/details')).toHaveLength(1);
      expect(remote.sent('GET /api/v1/labels/')).toEqual([]);
    });

    it('refuses when a retried process answers "not a draft" and the details show the draft was cancelled meanwhile', async () => {
      const c = carrier();
      remote.faults.push({ method: 'POST', path: /start-process$/, status: 503, times: 1 });
      expect(await failure(c.book(request()))).toBeInstanceOf(RemoteUnavailableError);
      remote.consignments.get(9001)!.status = 10; // cancelled at the remote before the retry

      const error = await failure(c.book(request()));
      expect(error).toBeInstanceOf(CarrierRefusedError);
      expect((error as CarrierRefusedError).reason).toContain(NOT_A_DRAFT);
      expect(remote.sent('GET /api/v1/consignments/9001/details')).toHaveLength(1);
      expect(remote.sent('GET /api/v1/labels/')).toEqual([]);
      expect(remote.consignments.size).toBe(1);
    });

    it('refuses a reference whose remote consignment was cancelled, without processing anything', async () => {
      remote.seed({ reference_no: 'ORDER-1', status: 10 });
      const error = await failure(carrier().book(request()));
      expect(error).toBeInstanceOf(CarrierRefusedError);
      expect((error as CarrierRefusedError).reason).toMatch(/cancelled/);
      expect(calls()).toEqual(['POST /api/v1/consignments/draft', 'GET /api/v1/consignments/find/reference_no/ORDER-1']);
      expect(remote.consignments.size).toBe(1);
    });

    it('refuses with the remote reason when the create is answered 409 and the reference lookup finds nothing', async () => {
      remote.faults.push({
        method: 'POST',
        path: /^\/api\/v1\/consignments\/draft$/,
        status: 409,
        body: { status: false, errors: [{ message: 'reference_no: This reference number is already used.' }] },
      });
      const error = await failure(carrier().book(request()));
      expect(error).toBeInstanceOf(CarrierRefusedError);
      expect((error as CarrierRefusedError).reason).toBe('reference_no: This reference number is already used.');
      expect(remote.sent('GET /api/v1/consignments/find/reference_no/ORDER-1')).toHaveLength(1);
      expect(remote.consignments.size).toBe(0);
    });

    it('the same booking key with another body is refused by the remote (422), making nothing', async () => {
      const c = carrier();
      await c.book(request());
      const error = await failure(c.book(request({ draft: { ...draft, invoice_number: 'INV-8' } })));
      expect(error).toBeInstanceOf(CarrierRefusedError);
      expect((error as CarrierRefusedError).reason).toMatch(/Idempotency-Key/);
      expect(remote.consignments.size).toBe(1);
      expect(remote.sent('POST /api/v1/consignments/draft/9001/start-process')).toHaveLength(1);
    });

    it('another booking key for another reference makes another consignment', async () => {
      const c = carrier();
      await c.book(request());
      const other = await c.book(request({ bookingKey: '6f1c2a7e-0000-4000-8000-000000000002', reference: 'ORDER-2' }));
      expect(remote.consignments.size).toBe(2);
      expect(other.carrierReference).toBe('9002');
      expect(remote.consignments.get(9002)!.idempotencyKey).toBe('consignflow-6f1c2a7e-0000-4000-8000-000000000002');
      expect(other.cost.serviceName).toBe('Our shipping service (ORDER-2)');
    });

    it("sends the API key only to the remote's own origin when downloading a label", async () => {
      const c = remote.seed({ reference_no: 'ORDER-1', status: 2 });
      cdn.handler = (_req, res) => void res.writeHead(200, { 'content-type': 'application/pdf' }).end(c.label!.pdf);
      c.labels = [{ id: 1, file_name: 'x.pdf', file_url: `${cdn.origin}/files/x.pdf?sig=1`, tracking_code: c.barcode! }];
      const booking = await carrier().book(request());
      expect(cdn.received).toHaveLength(1);
      expect(cdn.received[0].url).toBe('/files/x.pdf?sig=1');
      expect(cdn.received[0].headers.apikey).toBeUndefined();
      expect(booking.label!.content.equals(c.label!.pdf)).toBe(true);
    });

    it('refuses a processed consignment whose lookup shows no label', async () => {
      const c = remote.seed({ reference_no: 'ORDER-1', status: 2 });
      c.labels = [];
      const error = await failure(carrier().book(request()));
      expect(error).toBeInstanceOf(CarrierRefusedError);
      expect((error as CarrierRefusedError).reason).toMatch(/no label/);
    });

    it('refuses when the label download of a recovered consignment fails', async () => {
      const c = remote.seed({ reference_no: 'ORDER-1', status: 2 });
      remote.faults.push({ method: 'GET', path: /^\/api\/v1\/labels\//, status: 404, body: { status: false, errors: [{ message: 'Label not found.' }] } });
      const error = await failure(carrier().book(request()));
      expect(error).toBeInstanceOf(CarrierRefusedError);
      expect((error as CarrierRefusedError).reason).toMatch(/label download answered HTTP 404/);
      expect(c.status).toBe(2);
    });

    describe('a spent lookup budget', () => {
      it('stops the recovery after a 409 on create before the lookup by reference is sent', async () => {
        remote.seed({ reference_no: 'ORDER-1', status: 2 });
        budget.busy = true;
        const error = await failure(carrier().book(request()));
        expect(error).toBeInstanceOf(CarrierBusyError);
        expect((error as CarrierBusyError).retryAfterMs).toBe(42_000);
        expect(calls()).toEqual(['POST /api/v1/consignments/draft']);
        expect(budget.calls).toBe(1);
      });

      it('stops the recovery after a 409 on process before the details lookup is sent; the retry then recovers', async () => {
        const c = carrier();
        const first = await c.book(request());
        remote.requests.length = 0;
        budget.busy = true;
        const error = await failure(c.book(request()));
        expect(error).toBeInstanceOf(CarrierBusyError);
        expect(calls()).toEqual(['POST /api/v1/consignments/draft', 'POST /api/v1/consignments/draft/9001/start-process']);

        budget.busy = false;
        const again = await c.book(request());
        expect(again.label!.content.equals(first.label!.content)).toBe(true);
        expect(remote.consignments.size).toBe(1);
      });
    });

    describe('faults', () => {
      const CREATE = /^\/api\/v1\/consignments\/draft$/;

      it('503 → RemoteUnavailableError', async () => {
        remote.faults.push({ path: /./, status: 503, body: { status: false, errors: [{ message: 'Temporal is down' }] } });
        const error = await failure(carrier().book(request()));
        expect(error).toBeInstanceOf(RemoteUnavailableError);
        expect((error as RemoteUnavailableError).carrierId).toBe(PROVIDER_ID);
        expect((error as Error).message).toContain('503');
        expect(remote.consignments.size).toBe(0);
      });

      it('429 with Retry-After: 7 on the create → CarrierBusyError retrying in 7 s', async () => {
        remote.faults.push(rateLimited('POST', CREATE, '7'));
        const error = await failure(carrier().book(request()));
        expect(error).toBeInstanceOf(CarrierBusyError);
        expect((error as CarrierBusyError).retryAfterMs).toBe(7_000);
        expect((error as CarrierBusyError).carrierId).toBe(PROVIDER_ID);
        expect(calls()).toEqual(['POST /api/v1/consignments/draft']);
        expect(remote.consignments.size).toBe(0);
      });

      it('429 without Retry-After on the create → CarrierBusyError with a default delay', async () => {
        remote.faults.push(rateLimited('POST', CREATE));
        const error = await failure(carrier().book(request()));
        expect(error).toBeInstanceOf(CarrierBusyError);
        expect((error as CarrierBusyError).retryAfterMs).toBeGreaterThanOrEqual(1_000);
        expect(remote.consignments.size).toBe(0);
      });

      it('429 on the lookup by reference of a recovery → CarrierBusyError', async () => {
        remote.seed({ reference_no: 'ORDER-1', status: 2 });
        remote.faults.push(rateLimited('GET', /find\/reference_no/, '3'));
        const error = await failure(carrier().book(request()));
        expect(error).toBeInstanceOf(CarrierBusyError);
        expect((error as CarrierBusyError).retryAfterMs).toBe(3_000);
      });

      it('401 (a wrong API key) → CarrierRefusedError', async () => {
        const error = await failure(carrier({ apiKey: 'not-the-key' }).book(request()));
        expect(error).toBeInstanceOf(CarrierRefusedError);
        expect((error as CarrierRefusedError).reason).toMatch(/API key.*401/);
        expect(remote.requests).toHaveLength(1);
        expect(remote.consignments.size).toBe(0);
      });

      it("400 → CarrierRefusedError naming the remote's field and message; the corrected retry with the same key creates", async () => {
        const c = carrier();
        const error = await failure(c.book(request({ draft: { ...draft, consignee: { country: 'TR' } } })));
        expect(error).toBeInstanceOf(CarrierRefusedError);
        expect((error as CarrierRefusedError).reason).toContain('consignee.name');
        expect((error as CarrierRefusedError).reason).toContain('This value should not be blank.');
        expect(remote.consignments.size).toBe(0);
        expect(remote.sent('POST /api/v1/consignments/draft/')).toEqual([]); // nothing to process

        // a refusal by validation is not remembered by the key
        const booking = await c.book(request());
        expect(booking.carrierReference).toBe('9001');
        const creates = remote.requests.filter((r) => r.method === 'POST' && r.path === '/api/v1/consignments/draft');
        expect(creates.map((r) => r.headers['idempotency-key'])).toEqual([KEY, KEY]);
        expect(creates.map((r) => r.replayed)).toEqual([undefined, undefined]);
      });

      it('a refused connection (closed port) → RemoteUnavailableError', async () => {
        const closed = createServer();
        await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
        const port = (closed.address() as AddressInfo).port;
        await new Promise((resolve) => closed.close(resolve));
        const error = await failure(carrier({ baseUrl: `http://127.0.0.1:${port}` }).book(request()));
        expect(error).toBeInstanceOf(RemoteUnavailableError);
        expect((error as Error).message).toBe('carrier 1001: the remote could not be reached (CONNECTION_FAILED)');
        // Nothing of the base_url (part of the credentials) in what reaches histories and answers.
        expect((error as Error).message).not.toContain('127.0.0.1');
        expect((error as Error).message).not.toContain(String(port));
      });

      it('a create answer that is not JSON → RemoteUnavailableError', async () => {
        remote.faults.push({ method: 'POST', path: CREATE, status: 201, headers: { 'content-type': 'text/html' }, raw: '<html>maintenance</html>' });
        const error = await failure(carrier().book(request()));
        expect(error).toBeInstanceOf(RemoteUnavailableError);
        expect((error as Error).message).toMatch(/not usable/);
        expect(calls()).toEqual(['POST /api/v1/consignments/draft']);
      });

      it('a created answer without a usable draft id → CarrierRefusedError, nothing processed', async () => {
        remote.faults.push({ method: 'POST', path: CREATE, status: 201, body: { status: true, message: 'Draft created.', data: { status: 24 } } });
        const error = await failure(carrier().book(request()));
        expect(error).toBeInstanceOf(CarrierRefusedError);
        expect(remote.sent('POST /api/v1/consignments/draft/')).toEqual([]);
      });
    });
  });

  describe('cancel', () => {
    const ref = (c: { id: number; barcode: string | null }) => ({
      bookingKey: 'k',
      trackingCode: c.barcode!,
      carrierReference: String(c.id),
      inTransit: false,
    });

    it('200 → accepted, addressed by the remote id', async () => {
      const c = remote.seed({ reference_no: 'ORDER-1', status: 2 });
      expect(await carrier().cancel(ref(c))).toEqual({ accepted: true });
      expect(remote.sent('POST').map((r) => r.path)).toEqual([`/api/v1/consignments/${c.id}/cancel`]);
      expect(remote.sent('POST')[0].headers.apikey).toBe(remote.apiKey);
      expect(c.status).toBe(10);
    });

    it('without a remote id, cancels by tracking code', async () => {
      const c = remote.seed({ reference_no: 'ORDER-1', status: 2 });
      expect(await carrier().cancel({ bookingKey: 'k', trackingCode: c.barcode!, carrierReference: null, inTransit: false })).toEqual({ accepted: true });
      expect(remote.sent('POST').map((r) => r.path)).toEqual([`/api/v1/consignments/${c.barcode}/cancel`]);
    });

    it('409 refusal → not accepted, with the remote reason', async () => {
      const c = remote.seed({ reference_no: 'ORDER-1', status: 5 });
      remote.cancelRefusal = 'Consignment cancel failed: in transit';
      const result = await carrier().cancel({ ...ref(c), inTransit: true });
      expect(result.accepted).toBe(false);
      expect(result.reason).toContain('Consignment cancel failed: in transit');
      expect(c.status).toBe(5);
    });

    it('409 "already cancelled" for a consignment the remote shows cancelled → accepted (a retried cancel)', async () => {
      const c = remote.seed({ reference_no: 'ORDER-1', status: 2 });
      const cr = carrier();
      expect(await cr.cancel(ref(c))).toEqual({ accepted: true });
      budget.calls = 0;
      expect(await cr.cancel(ref(c))).toEqual({ accepted: true });
      expect(remote.sent('GET').map((r) => r.path)).toEqual([`/api/v1/consignments/${c.id}/details`]);
      expect(budget.calls).toBe(1);
    });

    it('409 "already delivered" → not accepted', async () => {
      const c = remote.seed({ reference_no: 'ORDER-1', status: 7 });
      const result = await carrier().cancel(ref(c));
      expect(result).toEqual({ accepted: false, reason: 'Shipment already delivered' });
    });

    // A retried cancel's status check that fails for a while is a fault to retry, not a "no": the cancel did go through.
    it('a retried cancel whose status check finds the lookup budget spent → CarrierBusyError, not a refusal', async () => {
      const c = remote.seed({ reference_no: 'ORDER-1', status: 2 });
      const cr = carrier();
      expect(await cr.cancel(ref(c))).toEqual({ accepted: true });
      budget.busy = true;
      const error = await failure(cr.cancel(ref(c)));
      expect(error).toBeInstanceOf(CarrierBusyError);
      expect((error as CarrierBusyError).retryAfterMs).toBe(42_000);
      expect(remote.sent('GET')).toEqual([]);
      budget.busy = false;
      expect(await cr.cancel(ref(c))).toEqual({ accepted: true });
    });

    it('a retried cancel whose status check is answered 503 → RemoteUnavailableError, not a refusal', async () => {
      const c = remote.seed({ reference_no: 'ORDER-1', status: 2 });
      const cr = carrier();
      expect(await cr.cancel(ref(c))).toEqual({ accepted: true });
      remote.faults.push({ path: /details$/, status: 503, times: 1 });
      const error = await failure(cr.cancel(ref(c)));
      expect(error).toBeInstanceOf(RemoteUnavailableError);
      expect((error as Error).message).toContain('503');
      expect(await cr.cancel(ref(c))).toEqual({ accepted: true });
    });

    it('a 409 whose status check is refused (the lookup finds nothing) → not accepted, with the cancel reason', async () => {
      const c = remote.seed({ reference_no: 'ORDER-1', status: 2 });
      const cr = carrier();
      expect(await cr.cancel(ref(c))).toEqual({ accepted: true });
      remote.faults.push({ method: 'GET', path: /details$/, status: 404, body: { status: false, errors: [{ message: 'Consignment not found.' }] } });
      expect(await cr.cancel(ref(c))).toEqual({ accepted: false, reason: 'Shipment already cancelled' });
    });

    it('404 → not accepted; 503 → RemoteUnavailableError', async () => {
      const result = await carrier().cancel({ bookingKey: 'k', trackingCode: 'NOPE', carrierReference: '123', inTransit: false });
      expect(result).toEqual({ accepted: false, reason: 'Consignment not found.' });
      remote.faults.push({ path: /cancel$/, status: 503 });
      expect(await failure(carrier().cancel({ bookingKey: 'k', trackingCode: 'NOPE', carrierReference: '123', inTransit: false }))).toBeInstanceOf(
        RemoteUnavailableError,
      );
    });
  });

  describe('track', () => {
    const shipment = (id: number) => ({ bookingKey: 'k', trackingCode: 'RMT', carrierReference: String(id) });
    /** A remote consignment ORDER-1 in `status` with its status `history`. */
    const tracked = (status: number, history: HistoryEntry[]) => remote.seed({ reference_no: 'ORDER-1', status, history });

    it("turns the remote's status history into tracking events, leaving out statuses that have none", async () => {
      const c = tracked(7, [
        entry(24, '2025-03-14 08:00:00'),
        entry(2, '2025-03-14 09:00:00'),
        entry(4, '2025-03-14 10:15:00', { location: 'İstanbul hub', message: 'Picked up' }),
        entry(5, '2025-03-15 01:02:03', { location: 'Ankara' }),
        entry(7, '2025-03-15 23:59:59', { message: 'Signed by G. Hopper' }),
      ]);
      const events = await carrier().track(shipment(c.id));
      expect(events).toEqual([
        {
          eventId: `${c.id}:4:2025-03-14 10:15:00`,
          event: 'PICKED_UP',
          occurredAt: new Date('2025-03-14T10:15:00Z'),
          location: 'İstanbul hub',
          message: 'Picked up',
        },
        { eventId: `${c.id}:5:2025-03-15 01:02:03`, event: 'IN_TRANSIT', occurredAt: new Date('2025-03-15T01:02:03Z'), location: 'Ankara', message: undefined },
        {
          eventId: `${c.id}:7:2025-03-15 23:59:59`,
          event: 'DELIVERED',
          occurredAt: new Date('2025-03-15T23:59:59Z'),
          location: undefined,
          message: 'Signed by G. Hopper',
        },
      ]);
      expect(remote.requests.map((r) => `${r.method} ${r.path}`)).toEqual([`GET /api/v1/consignments/${c.id}/details`]);
      expect(budget.calls).toBe(1);

      // stable: the same history gives the same ids
      const again = await carrier().track(shipment(c.id));
      expect(again.map((e) => e.eventId)).toEqual(events.map((e) => e.eventId));
      expect(budget.calls).toBe(2);
    });

    it("maps remote status numbers by the settings' status_map before names", async () => {
      const c = tracked(77, [
        entry(24, '2025-03-14 08:00:00'),
        entry(77, '2025-03-16 12:00:00', { status_name: 'FOO' }),
        entry(78, '2025-03-16 13:00:00', { status_name: 'BAR' }),
      ]);
      const mapped = await carrier({ settings: { provider_id: 1, status_map: { '77': 7 } } }).track(shipment(c.id));
      expect(mapped).toEqual([
        {
          eventId: `${c.id}:77:2025-03-16 12:00:00`,
          event: 'DELIVERED',
          occurredAt: new Date('2025-03-16T12:00:00Z'),
          location: undefined,
          message: undefined,
        },
      ]);
      // without the map, FOO means nothing here
      expect(await carrier().track(shipment(c.id))).toEqual([]);
    });

    it('uses the clock for a history entry without a usable time', async () => {
      const c = tracked(5, [entry(5, '15/03/2025 01:02')]);
      const [event] = await carrier().track(shipment(c.id));
      expect(event.event).toBe('IN_TRANSIT');
      expect(event.occurredAt).toEqual(NOW);
    });

    it('asks nothing without a remote id', async () => {
      expect(await carrier().track({ bookingKey: 'k', trackingCode: 'RMT1', carrierReference: null })).toEqual([]);
      expect(await carrier().track({ bookingKey: 'k', trackingCode: 'RMT1' })).toEqual([]);
      expect(remote.requests).toEqual([]);
      expect(budget.calls).toBe(0);
    });

    it('a spent budget → CarrierBusyError and no request; an unknown id → CarrierRefusedError', async () => {
      budget.busy = true;
      expect(await failure(carrier().track(shipment(9001)))).toBeInstanceOf(CarrierBusyError);
      expect(remote.requests).toEqual([]);
      budget.busy = false;
      const error = await failure(carrier().track(shipment(4242)));
      expect(error).toBeInstanceOf(CarrierRefusedError);
      expect((error as CarrierRefusedError).reason).toBe('Consignment not found.');
    });
  });
});

describe('status webhook at the remote', () => {
  const credentials = () => ({ base_url: `${remote.origin}/`, api_key: remote.apiKey });

  it('registers with Authorization: APIKEY, the status event and our secret header; returns the webhook id', async () => {
    const id = await registerStatusWebhook(http, credentials(), {
      endpoint: 'https://cf.example.com/api/v1/providers/1001/remote-events',
      secret: 's3cret',
      description: 'd'.repeat(300),
    });
    expect(id).toBe('wh_1');
    const [sent] = remote.requests;
    expect(sent.method).toBe('POST');
    expect(sent.path).toBe('/api/v1/webhooks');
    expect(sent.headers.authorization).toBe(`APIKEY ${remote.apiKey}`);
    const body = JSON.parse(sent.body) as Record<string, unknown>;
    expect(body).toMatchObject({
      endpoint: 'https://cf.example.com/api/v1/providers/1001/remote-events',
      subscribedEvent: 'consignment.status.updated',
      securityType: 'header',
      securityData: [{ headerKey: STATUS_WEBHOOK_HEADER, headerValue: 's3cret' }],
    });
    expect((body.description as string).length).toBe(255);
    expect(remote.webhooks.has('wh_1')).toBe(true);
  });

  it('throws when the remote refuses the webhook', async () => {
    remote.faults.push({ path: /\/webhooks$/, status: 400, body: { status: false, errors: [{ field: 'endpoint', message: 'Invalid endpoint URL' }] } });
    await expect(registerStatusWebhook(http, credentials(), { endpoint: 'x', secret: 's', description: 'd' })).rejects.toThrow(
      /endpoint: Invalid endpoint URL/,
    );
  });

  it('deletes it; a webhook already gone counts as deleted; other failures throw', async () => {
    const id = await registerStatusWebhook(http, credentials(), { endpoint: 'https://cf.example.com/e', secret: 's', description: 'd' });
    await deleteStatusWebhook(http, credentials(), id);
    expect(remote.webhooks.size).toBe(0);
    const del = remote.sent('DELETE');
    expect(del.map((r) => r.path)).toEqual([`/api/v1/webhooks/${id}`]);
    expect(del[0].headers.apikey).toBe(remote.apiKey);

    await expect(deleteStatusWebhook(http, credentials(), id)).resolves.toBeUndefined(); // 404 now
    expect(remote.sent('DELETE')).toHaveLength(2);

    remote.faults.push({ method: 'DELETE', path: /webhooks/, status: 409, body: { status: false, errors: [{ message: 'locked' }] } });
    await expect(deleteStatusWebhook(http, credentials(), 'wh_9')).rejects.toThrow(/locked/);
  });
});
