import { z } from 'zod';
import { documentedSchema } from '../validation';

/**
 * Route schemas for the OpenAPI document, from the zod schemas that validate input and shape answers.
 *
 * Bodies and answers are named schemas (components): the request schemas are the very ones Fastify validates
 * the body with (`io: 'input'`, what a client may send; src/api/validation.ts), the answer schemas are the ones
 * the mappers' return types are derived from (`io: 'output'`). Path and query parameters are converted where the
 * route is described. Answers are not serialised with their schemas: they leave as plain JSON.
 */

type Meta = { id: string; description?: string; examples?: unknown[] };
/** What a client sends (request bodies). */
export const requestSchemas = z.registry<Meta>();
/** What the service answers. */
export const answerSchemas = z.registry<Meta>();

/** Names a request body schema; returns it unchanged, so the parser and the document share the object. */
export function requestSchema<S extends z.ZodType>(id: string, schema: S, meta: Omit<Meta, 'id'> = {}): S {
  return named(requestSchemas, id, schema, meta);
}

function named<S extends z.ZodType>(registry: typeof requestSchemas, id: string, schema: S, meta: Omit<Meta, 'id'>): S {
  const taken = registry._idmap.get(id);
  if (taken && taken !== schema) throw new Error(`two schemas are named ${id}`);
  registry.add(schema, { id, ...meta });
  return schema;
}

/** Names an answer schema (a component of the document); returns it unchanged. */
export function answerSchema<S extends z.ZodType>(id: string, schema: S, meta: Omit<Meta, 'id'> = {}): S {
  return named(answerSchemas, id, schema, meta);
}

/** `{status: true, message, data}`: every success answer (docs/api.md, "Basics"). */
export function envelope<S extends z.ZodType>(id: string, data: S, description?: string) {
  return answerSchema(
    id,
    z.object({
      status: z.literal(true),
      message: z.string().nullable().meta({ description: 'what was done, in the language asked for; null for lookups and lists' }),
      data,
    }),
    description ? { description } : {},
  );
}

/** The failure envelope: `{status: false, errors: [{message, field?}]}`. */
export const ErrorEnvelope = answerSchema(
  'Error',
  z.object({
    status: z.literal(false),
    errors: z
      .array(
        z.object({
          message: z.string().meta({ description: 'in the language asked for (Accept-Language: en or tr)' }),
          field: z.string().optional().meta({ description: 'the input at fault, as a dotted path (consignee.name, packages.0.items.1.gtip)' }),
        }),
      )
      .min(1),
  }),
  { description: 'A refusal: every problem found, each with the input it concerns where there is one.' },
);

/** A page of a list (docs/api.md, the address search's paging): `results`, `page`, `lastPage`, `limit`, `total`. */
export function page<S extends z.ZodType>(results: S) {
  return z.object({ results: z.array(results), page: z.int().min(1), lastPage: z.int().min(1), limit: z.int().min(1), total: z.int().min(0) });
}

export const componentRef = (id: string) => ({ $ref: `#/components/schemas/${id}` });

function idOf(schema: z.ZodType, registry: typeof requestSchemas): string {
  const id = registry.get(schema)?.id;
  if (!id) throw new Error('a body or answer schema of a route must be named (requestSchema/answerSchema)');
  return id;
}

/** JSON Schema of a zod schema for a place inside an operation (parameters), without the `$schema` header. */
export function jsonSchemaOf(schema: z.ZodType, io: 'input' | 'output' = 'input'): Record<string, unknown> {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as Record<string, unknown>;
  return rest;
}

/** Every named schema as OpenAPI components, the refs between them pointing into `#/components/schemas`. */
export function components(): Record<string, unknown> {
  const convert = (registry: typeof requestSchemas, io: 'input' | 'output') => {
    const { schemas } = z.toJSONSchema(registry, { io, unrepresentable: 'any', target: 'draft-2020-12', uri: (id) => `#/components/schemas/${id}` }) as {
      schemas: Record<string, Record<string, unknown>>;
    };
    return Object.fromEntries(Object.entries(schemas).map(([id, { $schema: _s, $id: _i, ...schema }]) => [id, schema]));
  };
  const requests = convert(requestSchemas, 'input');
  const answers = convert(answerSchemas, 'output');
  const clash = Object.keys(requests).find((id) => id in answers);
  if (clash) throw new Error(`schema name ${clash} is both a request and an answer`);
  return { ...requests, ...answers };
}

// ---------------------------------------------------------------------------------------------------------------

/** Who may call an operation (securitySchemes of the document). */
export type Access = 'apiKey' | 'public' | 'carrierToken' | 'statusWebhookSecret' | 'orderWebhookSignature' | 'signedLink';

const SECURITY: Record<Access, Record<string, string[]>[]> = {
  apiKey: [{ ApiKeyHeader: [] }, { ApiKeyAuthorization: [] }],
  public: [],
  carrierToken: [{ CarrierToken: [] }],
  statusWebhookSecret: [{ StatusWebhookSecret: [] }, { StatusWebhookBasic: [] }],
  // No API key: the platform's HMAC signature of the body (checked by the handler; a scheme can only name the header).
  orderWebhookSignature: [{ ShopifyHmac: [] }, { WooCommerceSignature: [] }],
  // The link's own `hash` parameter authorises it.
  signedLink: [],
};

const RATE_LIMIT_HEADERS = {
  'RateLimit-Limit': { description: 'requests allowed per window', schema: { type: 'integer' } },
  'RateLimit-Remaining': { description: 'requests left in the current window', schema: { type: 'integer' } },
  'RateLimit-Reset': { description: 'seconds until the window frees a request', schema: { type: 'integer' } },
  'RateLimit-Policy': { description: 'the limit and its window in seconds, e.g. `300;w=60`', schema: { type: 'string' } },
};
const COMMON_HEADERS = {
  'X-Request-Id': { description: 'the request id of the log lines about this request', schema: { type: 'string' } },
  'Content-Language': { description: 'the language of the messages: `en` or `tr`', schema: { type: 'string', enum: ['en', 'tr'] } },
};

/** What each refusal status means; an operation lists the ones it can answer. */
const ERROR_STATUS: Record<number, string> = {
  400: 'The input is refused: every problem, each naming its field (also a malformed body or text with NUL bytes).',
  401: 'The API key (or the carrier token, webhook secret or order webhook signature) is missing or wrong.',
  403: 'The link is not signed for this file.',
  404: 'Not found; a resource of another customer is not found either.',
  408: 'The request took too long to arrive.',
  409: 'The resource is not in a state that allows this (e.g. not a draft any more).',
  410: 'Gone: the label was voided when its consignment was cancelled.',
  413: 'The body is over the size limit.',
  415: 'The body is not JSON (or not one of the media types listed).',
  422: 'The Idempotency-Key was used before with another body.',
  429: 'Too many requests: wait `Retry-After` seconds.',
  503: 'A service it needs (database, Temporal, the carrier) is unavailable; try again.',
};

export type Answer = {
  description: string;
  /** a named answer schema (JSON); omitted with `content` for other media types */
  schema?: z.ZodType;
  /** media types other than JSON (a PDF, a CSV), beside the JSON schema or alone */
  content?: Record<string, { schema: Record<string, unknown> }>;
  headers?: Record<string, { description: string; schema: Record<string, unknown> }>;
};

type Part = z.ZodType | undefined;

export interface Operation<P extends Part = Part, Q extends Part = Part, B extends Part = Part> {
  operationId: string;
  summary: string;
  description?: string;
  tags: readonly string[];
  access: Access;
  /** the path parameters: a zod object, or a parser of one (`parsedBy`) */
  params?: P;
  query?: Q;
  /** a named request schema (JSON body; or a parser of one), validated by Fastify */
  body?: B;
  /** a hand-stated content map of a body Fastify does not parse (multipart), for the document only */
  bodyContent?: { required: boolean; content: Record<string, unknown> };
  /** the body may be left out (start-process) */
  bodyOptional?: boolean;
  bodyExample?: unknown;
  idempotent?: boolean;
  rateLimited?: boolean;
  answers: Record<number, Answer>;
  /** refusals this operation can answer besides the ones every operation of its kind can */
  errors?: readonly number[];
  /**
   * OpenAPI links from an answer to the operations its ids open (clients and contract fuzzers follow them):
   * status → operationId → that operation's parameters as runtime expressions (`$response.body#/data/id`).
   */
  links?: Record<number, Record<string, Record<string, string>>>;
}

const ACCEPT_LANGUAGE = z
  .string()
  .optional()
  .meta({ description: 'the language of every message: `tr` (also `tr-TR`, q-values) or `en` (default)', examples: ['tr'] });
const IDEMPOTENCY_KEY = z
  .string()
  .regex(/^[\x21-\x7e]{1,255}$/)
  .optional()
  .meta({
    description: 'a retry with the same key (within 24 h) answers the first outcome instead of doing it again; the same key with another body is 422',
    examples: ['order-1001-try'],
  });

/** A route's schema: the zod schemas Fastify validates the request with (and types the handler by). */
export interface RouteSchema<P extends Part, Q extends Part, B extends Part> {
  params: P;
  querystring: Q;
  body: B;
}

/** Each route schema's description for the OpenAPI document (@fastify/swagger reads it through documentOf). */
const documents = new WeakMap<object, Record<string, unknown>>();

/** What @fastify/swagger describes a route by: its operation's document form, or the schema as given (hidden routes). */
export function documentOf(schema: unknown): Record<string, unknown> | undefined {
  return (typeof schema === 'object' && schema !== null && documents.get(schema)) || (schema as Record<string, unknown> | undefined);
}

/** Whether a route takes a request without a body (its handler then gets `{}`). */
export function bodyIsOptional(schema: unknown): boolean {
  return documentOf(schema)?.['x-body-optional'] === true;
}

/** The route schema of an operation: validation by its zod schemas, and its description for the document. */
export function operation<P extends Part = undefined, Q extends Part = undefined, B extends Part = undefined>(op: Operation<P, Q, B>): RouteSchema<P, Q, B> {
  const route = { params: op.params, querystring: op.query, body: op.body } as RouteSchema<P, Q, B>;
  for (const part of ['params', 'querystring', 'body'] as const) if (route[part] === undefined) delete route[part];
  documents.set(route, describe(op));
  return route;
}

function describe(op: Operation): Record<string, unknown> {
  const headers = z.object({
    'accept-language': ACCEPT_LANGUAGE,
    ...(op.idempotent ? { 'idempotency-key': IDEMPOTENCY_KEY } : {}),
  });
  const errorStatuses = new Set<number>([400, ...(op.errors ?? [])]);
  if (op.access !== 'public' && op.access !== 'signedLink') errorStatuses.add(401);
  if (op.body || op.bodyContent) [413, 415].forEach((s) => errorStatuses.add(s));
  if (op.rateLimited) errorStatuses.add(429);
  // An Idempotency-Key used before with another body.
  if (op.idempotent) errorStatuses.add(422);

  const response: Record<string, unknown> = {};
  for (const [status, answer] of Object.entries(op.answers)) {
    const content = { ...(answer.schema ? { 'application/json': { schema: componentRef(idOf(answer.schema, answerSchemas)) } } : {}), ...answer.content };
    response[status] = {
      description: answer.description,
      headers: { ...COMMON_HEADERS, ...(op.rateLimited ? RATE_LIMIT_HEADERS : {}), ...answer.headers },
      ...(Object.keys(content).length > 0 ? { content } : {}),
    };
  }
  for (const status of [...errorStatuses].sort()) {
    response[String(status)] = {
      description: ERROR_STATUS[status],
      headers: {
        ...COMMON_HEADERS,
        ...(op.rateLimited ? RATE_LIMIT_HEADERS : {}),
        ...(status === 429 ? { 'Retry-After': { description: 'seconds to wait', schema: { type: 'integer' } } } : {}),
      },
      content: { 'application/json': { schema: componentRef('Error') } },
    };
  }

  let body: Record<string, unknown> | undefined;
  if (op.body) {
    body = { ...componentRef(idOf(documentedSchema(op.body), requestSchemas)), ...(op.bodyExample !== undefined ? { examples: [op.bodyExample] } : {}) };
  }
  return {
    operationId: op.operationId,
    summary: op.summary,
    ...(op.description ? { description: op.description } : {}),
    tags: [...op.tags],
    security: SECURITY[op.access],
    headers: jsonSchemaOf(headers),
    ...(op.params ? { params: jsonSchemaOf(documentedSchema(op.params)) } : {}),
    ...(op.query ? { querystring: jsonSchemaOf(documentedSchema(op.query)) } : {}),
    ...(body ? { body } : {}),
    ...(op.bodyContent ? { 'x-request-body': op.bodyContent } : {}),
    ...(op.bodyOptional ? { 'x-body-optional': true } : {}),
    ...(op.links ? { 'x-links': op.links } : {}),
    response,
  };
}
