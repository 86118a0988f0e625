import { z } from 'zod';
import { DomainError } from './errors';
import { EXPECTED_INTEGER, parseOrRefuse, refuse } from './validation';

/** The status change event (docs/api.md): one per change of a consignment's status, cancellation included. */
export const STATUS_UPDATED_EVENT = 'consignment.status.updated';

/** A draft was deleted (DELETE /consignments/draft/{id}): its last event. */
export const DELETED_EVENT = 'consignment.deleted';

/** Every event a webhook can subscribe to (the API (docs/api.md) leaves the list to us). */
export const WEBHOOK_EVENTS = [STATUS_UPDATED_EVENT, DELETED_EVENT] as const;

/**
 * An event a write put in the outbox (docs/webhooks.md). `dispatched`: handed over already as it was stored (no
 * active webhook subscribed to it), so the lifecycle workflow does not publish it; absent in workflow histories
 * from before it existed (those published every event).
 */
export interface WrittenEvent {
  eventId: string;
  dispatched?: boolean;
}
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

/** `header`: each securityData entry is sent as a request header (docs/api.md). The only type so far. */
export const SECURITY_TYPES = ['header'] as const;
/** The delivery body is JSON. */
export const DATA_TYPES = ['JSON'] as const;

export const WEBHOOK_STATUS = { INACTIVE: 0, ACTIVE: 1 } as const;
export type WebhookStatus = (typeof WEBHOOK_STATUS)[keyof typeof WEBHOOK_STATUS];

/** the API (docs/api.md) bounds, plus a cap on securityData entries (not in the API contract: it keeps a request bounded). */
export const WEBHOOK_LIMITS = { text: 255, securityDataEntries: 20 } as const;

/**
 * Headers the service sets on every delivery (or that would break HTTP framing): securityData may not
 * name them. Compared case-insensitively.
 */
export const RESERVED_HEADERS: ReadonlySet<string> = new Set([
  'host',
  'content-type',
  'content-length',
  'content-encoding',
  'transfer-encoding',
  'connection',
  'keep-alive',
  'upgrade',
  'te',
  'trailer',
  'expect',
  'proxy-authorization',
  'proxy-connection',
  'user-agent',
  'webhook-id',
  'webhook-timestamp',
  'webhook-signature',
]);

export interface SecurityHeader {
  headerKey: string;
  headerValue: string;
}

export interface WebhookInput {
  description: string;
  endpoint: string;
  subscribedEvent: WebhookEvent;
  securityType: (typeof SECURITY_TYPES)[number];
  dataType: (typeof DATA_TYPES)[number];
  data: string;
  securityData: SecurityHeader[];
  status: WebhookStatus;
}

/** http(s) URL with a host and no credentials (keys belong in securityData), or undefined. */
export function parseEndpointUrl(text: string): URL | undefined {
  // URL() would quietly drop tabs and newlines; a URL with spaces or control characters is refused instead.
  if ([...text].some((c) => /\s/.test(c) || c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f)) return undefined;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  if (!url.hostname || url.username || url.password) return undefined;
  return url;
}

// RFC 9110 token characters, and field values without control characters other than tab.
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const HEADER_VALUE = /^[\t\u0020-\u007e\u0080-\u00ff]*$/;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const lengthOf = (s: string) => [...s].length;
type Mode = 'create' | 'replace' | 'patch';

/** Trimmed text within the API contract's bound (counted in characters); `required` refuses a blank one. */
const text = (required: boolean) =>
  z
    .string()
    .trim()
    .min(required ? 1 : 0)
    .refine((v) => lengthOf(v) <= WEBHOOK_LIMITS.text, refuse('TOO_LONG', { max: WEBHOOK_LIMITS.text }))
    .meta({ maxLength: WEBHOOK_LIMITS.text });
/** One of `choices`, matched case-insensitively and stored as the choice is spelt. */
const choice = <T extends string>(choices: readonly [T, ...T[]]) =>
  text(true)
    .refine((v) => choices.some((c) => c.toLowerCase() === v.toLowerCase()), refuse('INVALID_CHOICE'))
    .transform((v) => choices.find((c) => c.toLowerCase() === v.toLowerCase()) as T)
    .meta({ enum: [...choices], description: 'any case' });

const securityHeader = z.object({
  headerKey: text(true).refine((key) => {
    const lower = key.toLowerCase();
    return HEADER_NAME.test(key) && !RESERVED_HEADERS.has(lower) && !lower.startsWith('proxy-');
  }, refuse('INVALID_HEADER_KEY')),
  headerValue: text(true).refine((value) => HEADER_VALUE.test(value), refuse('INVALID_HEADER_VALUE')),
});

const webhookFields = {
  description: text(true),
  endpoint: text(true)
    .refine((v) => parseEndpointUrl(v) !== undefined, refuse('INVALID_ENDPOINT_URL'))
    .meta({ format: 'uri', description: 'http(s) URL; private, loopback and link-local targets are refused unless WEBHOOK_ALLOW_PRIVATE=1' }),
  subscribedEvent: text(true)
    .refine((v) => (WEBHOOK_EVENTS as readonly string[]).includes(v), refuse('UNKNOWN_WEBHOOK_EVENT', { events: WEBHOOK_EVENTS.join(', ') }))
    .transform((v) => v as WebhookEvent)
    .meta({ enum: [...WEBHOOK_EVENTS] }),
  securityType: choice(SECURITY_TYPES),
  dataType: choice(DATA_TYPES),
  // Optional in the API contract ("the sample sends an empty string"): stored and returned as sent.
  data: text(false)
    .nullish()
    .transform((v) => v ?? ''),
  status: z
    .int({ error: (iss) => (iss.code === 'invalid_type' ? EXPECTED_INTEGER : undefined) })
    .refine((v) => v === WEBHOOK_STATUS.ACTIVE || v === WEBHOOK_STATUS.INACTIVE, refuse('INVALID_CHOICE'))
    .transform((v) => v as WebhookStatus)
    .meta({ enum: [WEBHOOK_STATUS.INACTIVE, WEBHOOK_STATUS.ACTIVE], description: '1 active, 0 inactive' }),
  securityData: z
    .array(securityHeader)
    .max(WEBHOOK_LIMITS.securityDataEntries)
    // Run also when an entry was refused, so a repeated header is reported beside the other problems.
    .superRefine(
      (headers, ctx) => {
        const seen = new Set<string>();
        headers.forEach((entry, i) => {
          const key = isObject(entry) && typeof entry.headerKey === 'string' ? entry.headerKey.trim().toLowerCase() : undefined;
          if (key === undefined) return;
          if (seen.has(key)) ctx.addIssue({ code: 'custom', message: 'duplicate', path: [i, 'headerKey'], ...refuse('INVALID_HEADER_KEY') });
          seen.add(key);
        });
      },
      { when: (payload) => Array.isArray(payload.value) },
    )
    .meta({ description: 'headers sent with every delivery (`header` security type)' }),
};

/**
 * Webhook bodies (docs/api.md): `create` and `replace` (PUT) need every field the API marks required; `patch`
 * validates the fields present. Texts are trimmed; `securityType` and `dataType` are matched case-insensitively
 * and stored as `header`/`JSON`.
 */
export const webhookSchemas = {
  create: z.object(webhookFields),
  replace: z.object(webhookFields),
  patch: z.object(webhookFields).partial(),
};

const FIELD_ORDER = Object.keys(webhookFields);
/** Problems in the order of the fields, entries of a list by position (a check on the whole list reports last otherwise). */
function compareFields(a = '', b = ''): number {
  const rank = (field: string) => field.split('.').map((part, i) => (i === 0 ? FIELD_ORDER.indexOf(part) : Number(part) || 0));
  const [x, y] = [rank(a), rank(b)];
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i] - y[i];
  return x.length - y.length;
}

/** Validates a webhook body for `mode`; throws VALIDATION_FAILED listing every problem, each with its field. */
export function parseWebhookInput(body: unknown, mode: Mode): Partial<WebhookInput> {
  if (!isObject(body)) throw new DomainError('VALIDATION_FAILED', [{ code: 'INVALID_TYPE', params: { type: 'object' } }]);
  // In a patch, null is a value sent (and refused where the field is required); absent means "unchanged".
  let parsed: Partial<WebhookInput>;
  try {
    parsed = parseOrRefuse(webhookSchemas[mode], body) as Partial<WebhookInput>;
  } catch (error) {
    if (error instanceof DomainError) error.issues.sort((a, b) => compareFields(a.field, b.field));
    throw error;
  }
  if (mode === 'patch' && body.data === undefined) delete parsed.data;
  return Object.fromEntries(Object.entries(parsed).filter(([, v]) => v !== undefined)) as Partial<WebhookInput>;
}

const eventEnvelope = {
  id: z.uuid().meta({ description: 'the event id, stable across retries and redeliveries (also the `webhook-id` header)' }),
  created_at: z.iso.datetime().meta({ description: 'when the change was stored (ISO 8601, UTC)' }),
};

/** The body of a status change delivery (docs/webhooks.md); the outbox stores it as built here. */
export const statusEventSchema = z.object({
  ...eventEnvelope,
  event: z.literal(STATUS_UPDATED_EVENT),
  data: z.object({
    consignment: z.int().meta({ description: 'the consignment id' }),
    uuid: z.uuid(),
    reference_no: z.string().nullable(),
    barcode: z.string().nullable(),
    status: z.int().meta({ description: 'the new status (README, status catalog)' }),
    status_name: z.string(),
    status_message: z.string().meta({ description: 'in English' }),
    previous_status: z.int().nullable(),
    location: z.string().nullable(),
    occurred_at: z.iso.datetime().meta({ description: "when it happened (a carrier's event time)" }),
  }),
});
export type StatusEventPayload = z.output<typeof statusEventSchema>;

/** The body of a deletion delivery: the draft as it was, by its ids. */
export const deletedEventSchema = z.object({
  ...eventEnvelope,
  event: z.literal(DELETED_EVENT),
  data: z.object({
    consignment: z.int().meta({ description: 'the id the draft had' }),
    uuid: z.uuid(),
    reference_no: z.string().nullable().meta({ description: 'free to use again' }),
    status: z.int().meta({ description: 'its status when deleted (24)' }),
    deleted_at: z.iso.datetime(),
  }),
});
export type DeletedEventPayload = z.output<typeof deletedEventSchema>;
