import { STATUS_CODES, type IncomingHttpHeaders } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { DomainError, type ErrorCode, type Issue } from '../domain/errors';
import { ERROR_MESSAGES, negotiateLocale, translate, type Locale } from '../i18n/messages';

/** HTTP status of each refusal (docs/api.md, "HTTP codes"); codes not listed are 400. */
const HTTP_STATUS: Partial<Record<ErrorCode, number>> = {
  INVALID_API_KEY: 401,
  INVALID_CARRIER_TOKEN: 401,
  ROUTE_NOT_FOUND: 404,
  CONSIGNMENT_NOT_FOUND: 404,
  NOT_DRAFT: 409,
  DRAFT_NOT_FOUND: 404,
  ALREADY_DELIVERED: 409,
  ALREADY_CANCELLED: 409,
  CANCEL_FAILED: 409,
  LABEL_NOT_FOUND: 404,
  LABEL_LINK_INVALID: 403,
  LABEL_VOIDED: 410,
  SHUTTING_DOWN: 503,
  LABEL_BATCH_EMPTY: 409,
  CUSTOMS_DOCUMENT_UNKNOWN: 404,
  CUSTOMS_NOT_INTERNATIONAL: 409,
  CUSTOMS_NO_ITEMS: 409,
  CUSTOMS_CN22_OVER_CEILING: 409,
  CUSTOMS_CN23_WITHIN_CEILING: 409,
  DOCUMENT_NOT_FOUND: 404,
  DOCUMENT_LINK_INVALID: 403,
  DOCUMENT_TOO_LARGE: 413,
  DOCUMENT_TYPE_UNSUPPORTED: 415,
  MULTIPART_REQUIRED: 415,
  NOT_SANDBOX_CONSIGNMENT: 409,
  WEBHOOK_NOT_FOUND: 404,
  CARRIER_ACCOUNT_NOT_FOUND: 404,
  ORDER_SOURCE_NOT_FOUND: 404,
  ORDER_SIGNATURE_INVALID: 401,
  ORDER_CREDENTIAL_INVALID: 401,
  WEBHOOK_EVENT_NOT_FOUND: 404,
  WEBHOOK_INACTIVE: 409,
  REFERENCE_USED: 409,
  IMPORT_NOT_FOUND: 404,
  IMPORT_FINISHED: 409,
  IMPORT_FILE_TOO_LARGE: 413,
  BODY_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  MALFORMED_MULTIPART: 400,
  REQUEST_TIMEOUT: 408,
  HEADERS_TOO_LARGE: 431,
  IDEMPOTENCY_KEY_REUSED: 422,
  RATE_LIMITED: 429,
  SERVICE_UNAVAILABLE: 503,
  CARRIER_UNAVAILABLE: 503,
  INTERNAL_ERROR: 500,
};

export function httpStatusOf(code: ErrorCode): number {
  return HTTP_STATUS[code] ?? 400;
}

export interface ErrorEnvelope {
  status: false;
  errors: { message: string; field?: string }[];
}

export function errorEnvelope(issues: Issue[], locale: Locale): ErrorEnvelope {
  return {
    status: false,
    errors: issues.map((issue) => ({
      message: translate(ERROR_MESSAGES[issue.code], locale, issue.params),
      ...(issue.field ? { field: issue.field } : {}),
    })),
  };
}

export function sendError(reply: FastifyReply, error: DomainError, locale: Locale): FastifyReply {
  return reply.code(httpStatusOf(error.code)).send(errorEnvelope(error.issues, locale));
}

/**
 * Requests Node's HTTP parser refuses before Fastify sees them (a NUL or a bare line break in a header, a
 * broken request line, headers over the size limit, a request too slow to arrive): the envelope, in English
 * (no header could be read), then the connection closes, as Node's own answer does.
 */
export function clientErrorHandler(error: Error & { code?: string }, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const code: ErrorCode =
    error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 'REQUEST_TIMEOUT' : error.code === 'HPE_HEADER_OVERFLOW' ? 'HEADERS_TOO_LARGE' : 'MALFORMED_REQUEST';
  const status = httpStatusOf(code);
  const body = JSON.stringify(errorEnvelope([{ code }], 'en'));
  const head = [
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}`,
    'Content-Type: application/json; charset=utf-8',
    'Content-Language: en',
    `Content-Length: ${Buffer.byteLength(body)}`,
    'Connection: close',
  ];
  if (socket.writable) socket.end(`${head.join('\r\n')}\r\n\r\n${body}`);
  else socket.destroy();
}

/** Fastify's own refusals (body parsing, limits) as our codes. */
const FASTIFY_CODES: Record<string, ErrorCode> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'UNSUPPORTED_MEDIA_TYPE',
  FST_ERR_CTP_BODY_TOO_LARGE: 'BODY_TOO_LARGE',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'MALFORMED_JSON',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'MALFORMED_JSON',
  FST_ERR_CTP_INVALID_JSON_BODY: 'MALFORMED_JSON',
};

/**
 * The router's refusal of a path it cannot decode (invalid UTF-8), before any hook ran: the envelope in the
 * caller's language (the i18n hook has not set it yet); no field, as the route is not known.
 */
export function routerErrorHandler(_error: Error, request: { headers: IncomingHttpHeaders }, reply: unknown): void {
  const locale = negotiateLocale(request.headers['accept-language']);
  void sendError((reply as FastifyReply).header('content-language', locale), new DomainError('VALIDATION_FAILED', [{ code: 'INVALID_TEXT' }]), locale);
}

/** @fastify/multipart's refusals of a body as our codes (its file size limit is the route's to name, with the limit). */
const MULTIPART_CODES: Record<string, ErrorCode> = {
  FST_INVALID_MULTIPART_CONTENT_TYPE: 'UNSUPPORTED_MEDIA_TYPE',
  // More parts than a route takes is a malformed request, not a large one (413 is for bytes).
  FST_PARTS_LIMIT: 'MULTIPART_TOO_MANY_PARTS',
  FST_FILES_LIMIT: 'MULTIPART_TOO_MANY_PARTS',
  FST_FIELDS_LIMIT: 'MULTIPART_TOO_MANY_PARTS',
  FST_PROTO_VIOLATION: 'MALFORMED_MULTIPART',
  FST_MP_PREMATURE_CLOSE: 'MALFORMED_MULTIPART',
};

/** What busboy (under @fastify/multipart) throws, without a code, when the body is not well-formed multipart. */
const BUSBOY_MALFORMED =
  /^((Part|Preamble) terminated early due to unexpected end of multipart data|Unexpected end of multipart data|Unexpected end of form|Multipart: Boundary not found|Boundary required|Malformed part header|Missing Content-Type-header\.|Unsupported Content-Type\.)$/;

/** Socket errors of a connection to a dependency that is away. */
const SOCKET_UNAVAILABLE = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ECONNABORTED']);
/**
 * PostgreSQL's SQLSTATEs of a server stopping, restarting or recovering, or full: class 08 (connection
 * exception), 57P01 admin shutdown, 57P02 crash shutdown, 57P03 cannot connect now ("not yet accepting
 * connections" while it replays its WAL), 53300 too many connections.
 */
const PG_UNAVAILABLE = /^(08...|57P0[123]|53300)$/;

/** Faults of a dependency (Temporal, the database) that a retry may cure: 503, not 500. */
function isUnavailable(error: unknown): boolean {
  const e = error as { code?: unknown; name?: string; message?: string };
  return (
    e?.code === 14 || // gRPC UNAVAILABLE
    (typeof e?.code === 'string' && (SOCKET_UNAVAILABLE.has(e.code) || PG_UNAVAILABLE.test(e.code))) ||
    e?.name === 'ServiceError' ||
    /connection (terminated|refused)|Connection is closed|Failed to connect/i.test(e?.message ?? '')
  );
}

export function classify(error: unknown): DomainError | undefined {
  // Refusals decided in a workflow or activity arrive as DomainErrors already (the starters translate them).
  if (error instanceof DomainError) return error;
  const fastifyError = error as FastifyError;
  if (fastifyError?.code && FASTIFY_CODES[fastifyError.code]) return new DomainError(FASTIFY_CODES[fastifyError.code]);
  if (fastifyError?.code && MULTIPART_CODES[fastifyError.code]) return new DomainError(MULTIPART_CODES[fastifyError.code]);
  if (fastifyError?.code === undefined && BUSBOY_MALFORMED.test(fastifyError?.message ?? '')) return new DomainError('MALFORMED_MULTIPART');
  if (error instanceof SyntaxError && (fastifyError.statusCode === 400 || fastifyError.statusCode === undefined)) return new DomainError('MALFORMED_JSON');
  if (isUnavailable(error)) return new DomainError('SERVICE_UNAVAILABLE');
  return undefined;
}

/** One error handler: every failure leaves as the envelope; unexpected ones are logged and hidden. */
export function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: unknown, request: FastifyRequest, reply: FastifyReply) => {
    const known = classify(error);
    if (known) {
      if (known.code === 'SERVICE_UNAVAILABLE') request.log.warn({ err: error }, 'dependency unavailable');
      return sendError(reply, known, request.locale);
    }
    const status = (error as FastifyError)?.statusCode;
    if (status && status >= 400 && status < 500) {
      request.log.info({ err: error }, 'request refused by the framework');
      return sendError(reply, new DomainError('VALIDATION_FAILED'), request.locale);
    }
    request.log.error({ err: error }, 'unexpected error');
    return sendError(reply, new DomainError('INTERNAL_ERROR'), request.locale);
  });
  app.setNotFoundHandler((request, reply) =>
    sendError(reply, new DomainError('ROUTE_NOT_FOUND', { params: { method: request.method, url: request.url.split('?')[0] } }), request.locale),
  );
}
