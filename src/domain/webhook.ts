import { DomainError, type Issue } from './errors';

/** The status change event (docs/api.md): one per change of a consignment's status, cancellation included. */
export const STATUS_UPDATED_EVENT = 'consignment.status.updated';

/** Every event a webhook can subscribe to (the API (docs/api.md) leaves the list to us). */
export const WEBHOOK_EVENTS = [STATUS_UPDATED_EVENT] as const;
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

/**
 * Validates a webhook body: `create` and `replace` (PUT) need every field the API (docs/api.md) marks required;
 * `patch` validates the fields present. Throws VALIDATION_FAILED listing every problem, each with its field.
 * Texts are trimmed; `securityType` and `dataType` are matched case-insensitively and stored as `header`/`JSON`.
 */
export function parseWebhookInput(body: unknown, mode: Mode): Partial<WebhookInput> {
  if (!isObject(body)) throw new DomainError('VALIDATION_FAILED', [{ code: 'INVALID_TYPE', params: { type: 'object' } }]);
  const issues: Issue[] = [];
  const out: Partial<WebhookInput> = {};
  const present = (key: string) => mode !== 'patch' || body[key] !== undefined;

  /** A required (or optional) string within the the API contract bound; undefined after an issue. */
  const text = (value: unknown, field: string, required: boolean): string | undefined => {
    if (value === undefined || value === null) {
      if (required) issues.push({ code: 'NOT_BLANK', field });
      return required ? undefined : '';
    }
    if (typeof value !== 'string') {
      issues.push({ code: 'INVALID_TYPE', field, params: { type: 'string' } });
      return undefined;
    }
    const trimmed = value.trim();
    if (required && trimmed === '') {
      issues.push({ code: 'NOT_BLANK', field });
      return undefined;
    }
    if (lengthOf(trimmed) > WEBHOOK_LIMITS.text) {
      issues.push({ code: 'TOO_LONG', field, params: { max: WEBHOOK_LIMITS.text } });
      return undefined;
    }
    return trimmed;
  };

  if (present('description')) {
    const v = text(body.description, 'description', true);
    if (v !== undefined) out.description = v;
  }
  if (present('endpoint')) {
    const v = text(body.endpoint, 'endpoint', true);
    if (v !== undefined) {
      if (parseEndpointUrl(v)) out.endpoint = v;
      else issues.push({ code: 'INVALID_ENDPOINT_URL', field: 'endpoint' });
    }
  }
  if (present('subscribedEvent')) {
    const v = text(body.subscribedEvent, 'subscribedEvent', true);
    if (v !== undefined) {
      if ((WEBHOOK_EVENTS as readonly string[]).includes(v)) out.subscribedEvent = v as WebhookEvent;
      else issues.push({ code: 'UNKNOWN_WEBHOOK_EVENT', field: 'subscribedEvent', params: { events: WEBHOOK_EVENTS.join(', ') } });
    }
  }
  if (present('securityType')) {
    const v = text(body.securityType, 'securityType', true);
    const known = v === undefined ? undefined : SECURITY_TYPES.find((t) => t.toLowerCase() === v.toLowerCase());
    if (known) out.securityType = known;
    else if (v !== undefined) issues.push({ code: 'INVALID_CHOICE', field: 'securityType' });
  }
  if (present('dataType')) {
    const v = text(body.dataType, 'dataType', true);
    const known = v === undefined ? undefined : DATA_TYPES.find((t) => t.toLowerCase() === v.toLowerCase());
    if (known) out.dataType = known;
    else if (v !== undefined) issues.push({ code: 'INVALID_CHOICE', field: 'dataType' });
  }
  // Optional in the API (docs/api.md) ("the sample sends an empty string"): stored and returned as sent.
  if (mode !== 'patch' || body.data !== undefined) {
    const v = text(body.data, 'data', false);
    if (v !== undefined) out.data = v;
  }
  if (present('status')) {
    const v = body.status;
    if (v === undefined || v === null) issues.push({ code: 'NOT_BLANK', field: 'status' });
    else if (typeof v !== 'number' || !Number.isInteger(v)) issues.push({ code: 'INVALID_TYPE', field: 'status', params: { type: 'integer' } });
    else if (v !== WEBHOOK_STATUS.ACTIVE && v !== WEBHOOK_STATUS.INACTIVE) issues.push({ code: 'INVALID_CHOICE', field: 'status' });
    else out.status = v;
  }
  if (present('securityData')) {
    const headers = securityData(body.securityData, issues);
    if (headers) out.securityData = headers;
  }

  if (issues.length > 0) throw new DomainError('VALIDATION_FAILED', issues);
  return out;
}

function securityData(value: unknown, issues: Issue[]): SecurityHeader[] | undefined {
  const field = 'securityData';
  if (value === undefined || value === null) {
    issues.push({ code: 'NOT_BLANK', field });
    return undefined;
  }
  if (!Array.isArray(value)) {
    issues.push({ code: 'INVALID_TYPE', field, params: { type: 'array' } });
    return undefined;
  }
  if (value.length > WEBHOOK_LIMITS.securityDataEntries) {
    issues.push({ code: 'TOO_MANY_ENTRIES', field, params: { max: WEBHOOK_LIMITS.securityDataEntries } });
    return undefined;
  }
  const before = issues.length;
  const seen = new Set<string>();
  const headers: SecurityHeader[] = [];
  value.forEach((entry, i) => {
    const at = `${field}.${i}`;
    if (!isObject(entry)) {
      issues.push({ code: 'INVALID_TYPE', field: at, params: { type: 'object' } });
      return;
    }
    const entryText = (key: 'headerKey' | 'headerValue'): string | undefined => {
      const v = entry[key];
      const f = `${at}.${key}`;
      if (v === undefined || v === null) issues.push({ code: 'NOT_BLANK', field: f });
      else if (typeof v !== 'string') issues.push({ code: 'INVALID_TYPE', field: f, params: { type: 'string' } });
      else if (v.trim() === '') issues.push({ code: 'NOT_BLANK', field: f });
      else if (lengthOf(v.trim()) > WEBHOOK_LIMITS.text) issues.push({ code: 'TOO_LONG', field: f, params: { max: WEBHOOK_LIMITS.text } });
      else return v.trim();
      return undefined;
    };
    const key = entryText('headerKey');
    const headerValue = entryText('headerValue');
    if (key !== undefined) {
      const lower = key.toLowerCase();
      if (!HEADER_NAME.test(key) || RESERVED_HEADERS.has(lower) || lower.startsWith('proxy-') || seen.has(lower)) {
        issues.push({ code: 'INVALID_HEADER_KEY', field: `${at}.headerKey` });
      }
      seen.add(lower);
    }
    if (headerValue !== undefined && !HEADER_VALUE.test(headerValue)) issues.push({ code: 'INVALID_HEADER_VALUE', field: `${at}.headerValue` });
    if (key !== undefined && headerValue !== undefined) headers.push({ headerKey: key, headerValue });
  });
  return issues.length === before ? headers : undefined;
}
