import { AccountCarrier, type AccountCarrierOptions } from './account-carrier';
import type { OutboundHttp, OutboundResponse } from '../http/outbound';
import type { DraftInput } from '../domain/draft';
import { PREFERENCE } from '../domain/draft';
import { STATUS, STATUS_CATALOG } from '../domain/statuses';
import { TRACKING_EVENT_STATUS, type TrackingEventName } from '../domain/tracking';
import {
  CarrierRefusedError,
  type Booking,
  type BookingRequest,
  type CancelResult,
  type Carrier,
  type Quote,
  type ShipmentRef,
  type TrackingEvent,
} from './carrier';
import { carrierCallFault, checkCarrierAnswer } from './carrier-http';

/**
 * The `consignment_api` carrier: a remote shipping service that speaks this very API (docs/carriers.md).
 * Booking creates the draft there and processes it, exactly once per consignment however often it is
 * retried: the remote consignment is found by our reference before anything is created, the create carries
 * an Idempotency-Key derived from our consignment, and a process answered "not a draft" is recovered by
 * lookup. Tracking is the remote's lookup; cancelling is the remote's cancel.
 */

export interface ConsignmentApiCredentials {
  base_url: string;
  api_key: string;
}

export interface ConsignmentApiSettings {
  provider_id?: number;
  preference?: 0 | 1 | 2;
  language?: 'tr' | 'en';
  /** remote status number → our status number, for remotes whose status names differ from ours */
  status_map?: Record<string, number>;
}

/** Spends one remote lookup from the account's shared budget; throws CarrierBusyError when it is spent. */
export type LookupBudget = () => Promise<void>;

export interface ConsignmentApiCarrierOptions extends AccountCarrierOptions<ConsignmentApiCredentials, ConsignmentApiSettings> {
  lookupBudget: LookupBudget;
}

/** The remote's answer envelope (docs/api.md): `{status, message, data, errors[]}`. */
interface Envelope<T> {
  status?: boolean;
  message?: string | null;
  data?: T;
  errors?: { message?: string; field?: string }[];
}

interface RemoteDetail {
  id: number;
  barcode: string | null;
  reference_no: string | null;
  status: number;
  status_message?: string;
  labels?: { file_url: string; file_name?: string; tracking_code?: string }[];
  details?: { status: number; status_name?: string; message?: string | null; status_datetime?: string; location?: string | null }[];
  provider?: { id: number; name: string } | null;
}

interface RemoteProcessed {
  consignment: number;
  barcode: string;
  providerTrackingCode?: string;
  trackingUrl?: string;
  contentType?: string;
  base64label?: string;
}

/** The webhook our account registers at the remote, and how its deliveries identify themselves. */
export const STATUS_WEBHOOK_HEADER = 'X-Consignflow-Account-Secret';

/** Our status for a remote history entry: by the settings' number map, else by status name. */
function ourStatus(entry: { status: number; status_name?: string }, map: Record<string, number> | undefined): number | undefined {
  const mapped = map?.[String(entry.status)];
  if (mapped !== undefined) return mapped;
  const byName = Object.entries(STATUS_CATALOG).find(([, s]) => s.name === entry.status_name);
  return byName ? Number(byName[0]) : undefined;
}

const EVENT_OF_STATUS = new Map<number, TrackingEventName>(
  Object.entries(TRACKING_EVENT_STATUS).map(([event, status]) => [status, event as TrackingEventName]),
);

/** `YYYY-MM-DD HH:MM:SS` (UTC, as the API writes it) → Date; anything else → undefined. */
function parseApiTime(text: string | undefined): Date | undefined {
  if (!text || !/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/.test(text)) return undefined;
  const date = new Date(`${text.replace(' ', 'T')}Z`);
  return Number.isNaN(date.getTime()) ? undefined : date;
}

/** The remote's refusal as one line: its messages with their fields. */
function reasonOf(res: OutboundResponse<Envelope<unknown> | null>): string {
  const errors = res.body?.errors ?? [];
  const text = errors
    .map((e) => (e.field ? `${e.field}: ${e.message ?? ''}` : (e.message ?? '')))
    .filter(Boolean)
    .join('; ');
  return text || res.body?.message || `HTTP ${res.status}`;
}

/** The draft as the remote takes it: our account choice replaced by the remote's own, our document ids dropped. */
export function remoteDraftBody(draft: DraftInput, reference: string, settings: ConsignmentApiSettings): Record<string, unknown> {
  const { provider_id: _ours, preference: ourPreference, documents: _documents, ...fields } = draft;
  let preference: number;
  let providerId: number | null = null;
  if (settings.provider_id !== undefined) {
    preference = settings.preference ?? PREFERENCE.SPECIFIC;
    providerId = settings.provider_id;
  } else {
    // The draft named this account (preference 0); the remote then chooses by the account's preference,
    // or by the draft's own when it asked for cheapest or fastest, or cheapest. (Settings never hold a
    // specific preference without a provider_id: see the account settings' schema.)
    const chosen = settings.preference ?? ourPreference;
    preference = chosen === PREFERENCE.FASTEST ? PREFERENCE.FASTEST : PREFERENCE.CHEAPEST;
  }
  const body: Record<string, unknown> = { ...fields, preference, reference_no: reference };
  if (providerId !== null) body.provider_id = providerId;
  return body;
}

export class ConsignmentApiCarrier extends AccountCarrier<ConsignmentApiCredentials, ConsignmentApiSettings> implements Carrier {
  readonly kind = 'consignment_api';
  /** The remote decides; a refusal comes back with its reason. */
  readonly supportsCancelInTransit = true;
  /** Its webhook only says "look again": statuses are read by lookup (see the lifecycle workflow). */
  readonly supportsPush = false;
  readonly supportsQuotes = false;
  declare protected readonly options: ConsignmentApiCarrierOptions;

  constructor(options: ConsignmentApiCarrierOptions) {
    super(options, options.credentials.base_url);
  }

  /** The remote prices when it books: drafts name this account to use it. */
  async quote(): Promise<Quote | null> {
    return null;
  }

  /**
   * The Idempotency-Key of the remote draft. Booking here is its own look-up: a retry's create answers with the
   * draft the first try made, or the lookup by reference finds it, and a processed one is recovered with its label.
   */
  sentKey(req: BookingRequest): string {
    return `consignflow-${req.bookingKey}`;
  }

  async book(req: BookingRequest): Promise<Booking> {
    // 1. The draft at the remote. The Idempotency-Key makes a retried create answer with the draft the first
    //    attempt made (the remote keeps keys 24 hours); past that, our reference is taken there (409) and the
    //    lookup by reference finds it. Either way a retry never makes a second remote consignment.
    let remote: RemoteDetail | undefined;
    const created = await this.call<{ id: number; status: number }>('POST', '/api/v1/consignments/draft', {
      json: remoteDraftBody(req.draft, req.reference, this.options.settings),
      headers: { 'idempotency-key': this.sentKey(req) },
    });
    if (created.status === 409) {
      remote = await this.findByReference(req.reference);
      if (!remote) throw new CarrierRefusedError(this.id, reasonOf(created));
    } else if ((created.status !== 201 && created.status !== 200) || !Number.isSafeInteger(Number(created.body?.data?.id))) {
      throw new CarrierRefusedError(this.id, reasonOf(created));
    } else {
      remote = { id: Number(created.body!.data!.id), barcode: null, reference_no: req.reference, status: STATUS.NEW_DRAFT };
    }
    if (remote.status === STATUS.CANCELLED) {
      throw new CarrierRefusedError(
        this.id,
        `the remote consignment ${remote.id} with reference ${req.reference} was cancelled; process with another reference_no`,
      );
    }
    // 2. Process it there, unless that already happened.
    if (remote.status === STATUS.NEW_DRAFT) {
      const processed = await this.call<RemoteProcessed>('POST', `/api/v1/consignments/draft/${remote.id}/start-process`, {
        json: req.labelFormat === 'zpl' ? { label_format: 'zpl' } : {},
      });
      if (processed.status === 200 && processed.body?.data) return this.bookingOf(processed.body.data, req);
      if (processed.status === 400 && processed.body?.errors?.some((e) => e.field === 'label_format')) {
        throw new CarrierRefusedError(this.id, `the remote service does not make ${req.labelFormat.toUpperCase()} labels`);
      }
      if (processed.status !== 409 && processed.status !== 404) throw new CarrierRefusedError(this.id, reasonOf(processed));
      // "Not in draft status": a retried process whose first attempt succeeded. The lookup says how it ended.
      remote = await this.details(remote.id);
      if (remote.status === STATUS.NEW_DRAFT || remote.status === STATUS.CANCELLED) throw new CarrierRefusedError(this.id, reasonOf(processed));
    }
    return this.recover(remote, req);
  }

  async cancel(req: ShipmentRef & { inTransit: boolean }): Promise<CancelResult> {
    const target = req.carrierReference ?? req.trackingCode;
    const res = await this.call<{ consignment: number }>('POST', `/api/v1/consignments/${encodeURIComponent(target)}/cancel`, {});
    if (res.status === 200) return { accepted: true };
    if (res.status === 409 || res.status === 404) {
      // A retried cancel whose first attempt went through reads "already cancelled": that is a yes. The
      // lookup that tells may fail for a retry (busy, down): that failure propagates, it is not a "no".
      const remote = res.status === 409 && req.carrierReference ? await this.details(Number(req.carrierReference)).catch(refusedAsUndefined) : undefined;
      if (remote?.status === STATUS.CANCELLED) return { accepted: true };
      return { accepted: false, reason: reasonOf(res) };
    }
    throw new CarrierRefusedError(this.id, reasonOf(res));
  }

  /** The remote's status history as tracking events (entries whose status has no tracking event are left out). */
  async track(shipment: ShipmentRef): Promise<TrackingEvent[]> {
    // Every booking of this carrier keeps the remote id; without one there is nothing to ask about.
    if (!shipment.carrierReference) return [];
    const remote = await this.details(Number(shipment.carrierReference));
    const events: TrackingEvent[] = [];
    for (const entry of remote.details ?? []) {
      const status = ourStatus(entry, this.options.settings.status_map);
      const event = status === undefined ? undefined : EVENT_OF_STATUS.get(status);
      if (!event) continue;
      events.push({
        eventId: `${remote.id}:${entry.status}:${entry.status_datetime ?? ''}`,
        event,
        occurredAt: parseApiTime(entry.status_datetime) ?? this.now(),
        location: entry.location ?? undefined,
        message: entry.message ?? undefined,
      });
    }
    return events;
  }

  private bookingOf(done: RemoteProcessed, req: BookingRequest): Booking {
    const label = done.base64label ? { content: Buffer.from(done.base64label, 'base64'), contentType: done.contentType ?? 'application/pdf' } : undefined;
    if (!label || label.content.length === 0) throw new CarrierRefusedError(this.id, 'the remote processed the consignment without returning its label');
    return {
      trackingCode: done.barcode,
      trackingUrl: done.trackingUrl ?? '',
      pickupBooked: false,
      bookedAt: this.now(),
      cost: this.costOf(req),
      carrierReference: String(done.consignment),
      label,
    };
  }

  /** A consignment the remote processed earlier: its label is downloaded from the link its lookup gives. */
  private async recover(remote: RemoteDetail, req: BookingRequest): Promise<Booking> {
    const link = remote.labels?.[0]?.file_url;
    if (!link || !remote.barcode) throw new CarrierRefusedError(this.id, `the remote consignment ${remote.id} is processed but has no label`);
    // The lookup's link is the label as the remote lists it (its PDF); a ZPL label asked for by the lost
    // attempt cannot be fetched through the contract, so the recovered label is the listed one.
    const file = await this.send('GET', link, { headers: this.sameOrigin(link) ? this.headers() : {} });
    if (file.status !== 200) throw new CarrierRefusedError(this.id, `the remote label download answered HTTP ${file.status}`);
    const contentType = String(file.headers['content-type'] ?? 'application/pdf').split(';')[0];
    return {
      trackingCode: remote.barcode,
      trackingUrl: '',
      pickupBooked: false,
      bookedAt: this.now(),
      cost: this.costOf(req),
      carrierReference: String(remote.id),
      label: { content: file.body, contentType },
    };
  }

  /** The remote's answer to processing carries no price: costs stay with the remote service (docs/carriers.md). */
  private costOf(req: BookingRequest): Quote {
    return { providerId: this.id, baseCost: 0, currency: 'TRY', transitDays: 0, serviceName: `${this.name} (${req.reference})` };
  }

  private async findByReference(reference: string): Promise<RemoteDetail | undefined> {
    await this.options.lookupBudget();
    const res = await this.call<RemoteDetail>('GET', `/api/v1/consignments/find/reference_no/${encodeURIComponent(reference)}`);
    if (res.status === 404) return undefined;
    if (res.status !== 200 || !res.body?.data) throw new CarrierRefusedError(this.id, reasonOf(res));
    return res.body.data;
  }

  private async details(id: number): Promise<RemoteDetail> {
    await this.options.lookupBudget();
    const res = await this.call<RemoteDetail>('GET', `/api/v1/consignments/${id}/details`);
    if (res.status !== 200 || !res.body?.data) throw new CarrierRefusedError(this.id, reasonOf(res));
    return res.body.data;
  }

  private headers(): Record<string, string> {
    return { apikey: this.options.credentials.api_key, 'accept-language': this.options.settings.language ?? 'en' };
  }

  private sameOrigin(url: string): boolean {
    try {
      return new URL(url).origin === new URL(this.base).origin;
    } catch {
      return false;
    }
  }

  /**
   * One call to the remote's API. Answers that a retry can fix (429 with its Retry-After, 5xx, 408) and
   * network faults throw for a retry; 401 is a refusal naming the credentials; other answers are returned.
   */
  private async call<T>(
    method: 'GET' | 'POST' | 'DELETE',
    path: string,
    body?: { json?: unknown; headers?: Record<string, string> },
  ): Promise<OutboundResponse<Envelope<T> | null>> {
    let res: OutboundResponse<Envelope<T> | null>;
    try {
      res = await this.options.http.json<Envelope<T>>({
        method,
        url: `${this.base}${path}`,
        headers: { ...this.headers(), ...body?.headers },
        ...(body && 'json' in body ? { json: body.json } : {}),
      });
    } catch (error) {
      throw this.fault(error);
    }
    return this.checked(res);
  }

  private async send(method: 'GET', url: string, options: { headers: Record<string, string> }): Promise<OutboundResponse> {
    try {
      return this.checked(await this.options.http.request({ method, url, headers: options.headers }));
    } catch (error) {
      throw this.fault(error);
    }
  }

  private checked<R extends OutboundResponse<unknown>>(res: R): R {
    return checkCarrierAnswer(this.id, res, { name: 'the remote', secret: 'API key' });
  }

  private fault(error: unknown): Error {
    return carrierCallFault(this.id, error);
  }
}

/** A refusal reads as "nothing to tell"; a fault a retry can fix propagates. */
function refusedAsUndefined(error: unknown): undefined {
  if (error instanceof CarrierRefusedError) return undefined;
  throw error;
}

/** Registers the account's status webhook at the remote; returns its webhook id there. */
export async function registerStatusWebhook(
  http: OutboundHttp,
  credentials: ConsignmentApiCredentials,
  webhook: { endpoint: string; secret: string; description: string },
): Promise<string> {
  const res = await http.json<Envelope<{ webhook_id: string }>>({
    method: 'POST',
    url: `${credentials.base_url.replace(/\/+$/, '')}/api/v1/webhooks`,
    headers: { authorization: `APIKEY ${credentials.api_key}`, 'accept-language': 'en' },
    json: {
      description: webhook.description.slice(0, 255),
      endpoint: webhook.endpoint,
      subscribedEvent: 'consignment.status.updated',
      securityType: 'header',
      dataType: 'JSON',
      data: '',
      securityData: [{ headerKey: STATUS_WEBHOOK_HEADER, headerValue: webhook.secret }],
      status: 1,
    },
  });
  const id = res.body?.data?.webhook_id;
  if ((res.status !== 201 && res.status !== 200) || !id) throw new Error(`the remote refused the status webhook: ${reasonOf(res)}`);
  return id;
}

/** Deletes the account's status webhook at the remote (a webhook already gone counts as deleted). */
export async function deleteStatusWebhook(http: OutboundHttp, credentials: ConsignmentApiCredentials, webhookId: string): Promise<void> {
  const res = await http.json<Envelope<unknown>>({
    method: 'DELETE',
    url: `${credentials.base_url.replace(/\/+$/, '')}/api/v1/webhooks/${encodeURIComponent(webhookId)}`,
    headers: { apikey: credentials.api_key, 'accept-language': 'en' },
  });
  if (res.status !== 200 && res.status !== 204 && res.status !== 404) throw new Error(`the remote did not delete the status webhook: ${reasonOf(res)}`);
}
