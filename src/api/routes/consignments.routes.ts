import type { FastifyReply, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import type { Caller } from '../../db/customers.repository';
import type { Queryable } from '../../db/database';
import { idempotent } from '../plugins/idempotency';
import { consignmentListQuery, parseConsignmentListQuery } from '../../domain/consignment-filter';
import { DomainError } from '../../domain/errors';
import { pageResponse } from '../../domain/pagination';
import { SUCCESS_MESSAGES, translate, type Locale } from '../../i18n/messages';
import type { LabelLinks } from '../../labels/label-links';
import { detailMapper, type ProviderDirectory, type ProviderInfo } from '../mappers/consignment.mapper';
import type { ConsignmentService } from '../../services/consignments.service';
import { CUSTOMS_DOCUMENT_KINDS, type CustomsService } from '../../services/customs.service';
import { z } from 'zod';
import { idParam, idParams, parseId, textParam } from './params';
import { parsedBy, type RoutesPlugin } from '../validation';
import { DetailAnswer } from '../mappers/consignment.mapper';
import { envelope, operation, page } from '../openapi/operation';

const DetailEnvelope = envelope('ConsignmentDetailAnswer', DetailAnswer);
const lookup = {
  tags: ['Consignments'],
  access: 'apiKey',
  rateLimited: true,
  answers: { 200: { description: 'The consignment in detail form.', schema: DetailEnvelope } },
  errors: [404],
} as const;

const findByReference = operation({
  ...lookup,
  operationId: 'findConsignmentByReference',
  summary: 'A consignment by its reference',
  description: 'Your `reference_no`. Rate-limited (300 a minute per API key, shared with the lookup by id).',
  // A reference no consignment can have is not found, not refused.
  params: parsedBy(z.object({ reference_no: textParam('the reference given at creation') }), (params) => {
    if (!params.reference_no.trim() || params.reference_no.length > 255) throw new DomainError('CONSIGNMENT_NOT_FOUND');
    return params;
  }),
});

const findById = operation({
  ...lookup,
  operationId: 'getConsignmentDetails',
  summary: 'A consignment by its id',
  description: 'Rate-limited (300 a minute per API key, shared with the lookup by reference).',
  params: idParams(z.object({ id: idParam }), 'consignment_id'),
});

const list = operation({
  operationId: 'listConsignments',
  summary: 'Your consignments, filtered',
  description:
    'Newest first, in detail form, a page at a time (`page`, `limit` up to 100; `lastPage` and `total` in the answer). Filters combine: every one given must hold. Rate-limited on its own budget (LIST_RATE_LIMIT_PER_MIN, 120 a minute per API key by default).',
  tags: ['Consignments'],
  access: 'apiKey',
  rateLimited: true,
  query: parsedBy(consignmentListQuery, parseConsignmentListQuery),
  answers: { 200: { description: 'A page of consignments.', schema: envelope('ConsignmentListAnswer', page(DetailAnswer)) } },
});

const cancel = operation({
  operationId: 'cancelConsignment',
  summary: 'Cancel a consignment',
  description:
    'By id, service barcode or reference, tried in that order. A draft is cancelled at once; a processed consignment is cancelled with its carrier first (409 when the carrier no longer allows it, e.g. delivered). Cancelling twice is 409.',
  tags: ['Consignments'],
  access: 'apiKey',
  // A value nothing can be named by is not found, not refused.
  params: parsedBy(z.object({ value: textParam('the id, the service barcode or the reference') }), (params) => {
    const value = params.value.trim();
    if (!value || value.length > 255) throw new DomainError('CONSIGNMENT_NOT_FOUND');
    return { value };
  }),
  idempotent: true,
  answers: { 200: { description: 'Cancelled.', schema: envelope('CancelAnswer', z.object({ consignment: z.int() })) } },
  errors: [404, 409, 503],
});

const customsDocument = operation({
  operationId: 'customsDocument',
  summary: 'A customs document of a consignment',
  description:
    "`cn22.pdf` (contents declared up to 300 SDR), `cn23.pdf` (above) or `proforma.pdf` (the proforma invoice), made from the consignment's items, parties and invoice number, in the language of `Accept-Language` (Turkish or English). The lookup's `permissions` say which apply; another is 409 with the reason. International consignments with items only, drafts included (to check the papers before shipping); not cancelled ones.",
  tags: ['Consignments'],
  access: 'apiKey',
  // Checked by sendCustomsDocument, which the console shares (an unknown file is 404, not 400).
  params: parsedBy(
    z.object({ id: idParam, file: z.enum(['cn22.pdf', 'cn23.pdf', 'proforma.pdf']).meta({ description: 'the document' }) }),
    (params): { id: string; file: string } => params,
  ),
  answers: { 200: { description: 'The document.', content: { 'application/pdf': { schema: { type: 'string', format: 'binary' } } } } },
  errors: [404, 409],
});

export interface ConsignmentRouteDeps {
  db: Queryable;
  consignments: ConsignmentService;
  describeProvider: ProviderDirectory;
  labelLinks: LabelLinks;
  /** rate limit of the two lookups (docs/api.md), when configured */
  lookupLimit?: preHandlerAsyncHookHandler;
  /** rate limit of the list, when configured */
  listLimit?: preHandlerAsyncHookHandler;
  customs: CustomsService;
}

/** A customs document of the caller's consignment (`cn22.pdf`, `cn23.pdf`, `proforma.pdf`), as the API and the console send it. */
export async function sendCustomsDocument(reply: FastifyReply, customs: CustomsService, caller: Caller, params: { id: string; file: string }, locale: Locale) {
  const id = parseId(params.id, 'consignment_id');
  const kind = CUSTOMS_DOCUMENT_KINDS.find((k) => params.file === `${k}.pdf`);
  if (!kind) throw new DomainError('CUSTOMS_DOCUMENT_UNKNOWN');
  const { pdf, fileName } = await customs.document(caller, id, kind, locale);
  return reply.type('application/pdf').header('content-disposition', `inline; filename="${fileName}"`).header('cache-control', 'private, no-store').send(pdf);
}

/** Consignments whose lookup answers the API keeps (a few kB each, per caller and language). */
const LOOKUP_ANSWERS = 2000;

/** the API (docs/api.md): cancellation, and lookups by reference and by id, scoped to the caller's customer. */
export function consignmentRoutes(deps: ConsignmentRouteDeps): RoutesPlugin {
  return async (app) => {
    type Found = Awaited<ReturnType<ConsignmentService['lookup']>>;
    const mapper = (request: { caller: Caller; locale: 'en' | 'tr' }) =>
      detailMapper(
        { describeProvider: deps.describeProvider, labelUrl: deps.labelLinks.url, documentUrl: deps.labelLinks.documentUrl, sdrRates: deps.customs.rates },
        request,
      );
    // The limits count every request, refused ones too: they run before the input is checked.
    const lookupLimit = deps.lookupLimit ? [deps.lookupLimit] : [];
    /**
     * Lookup answers as sent (the JSON as UTF-8 bytes, outside V8's heap), by consignment and version of its
     * details (the same version is the same details: ConsignmentService.lookup), then caller and language; the
     * least recently used consignment goes first. A repeated lookup skips the mapping and JSON.stringify; a
     * changed consignment comes with another version, a changed provider makes a new answer. Details without a
     * version are mapped each time.
     */
    const answers = new Map<string, WeakMap<Caller, Map<string, { provider?: ProviderInfo; body: Buffer }>>>();
    const sameProvider = (a?: ProviderInfo, b?: ProviderInfo) => a === b || (!!a && !!b && a.id === b.id && a.name === b.name && a.logo === b.logo);
    const lookupAnswer = async ({ details, version }: Found, request: FastifyRequest, reply: FastifyReply) => {
      reply.type('application/json; charset=utf-8');
      if (version === undefined) return JSON.stringify({ status: true, message: null, data: await mapper(request).detail(details) });
      const key = `${details.consignment.id}@${version}`;
      let byCaller = answers.get(key);
      answers.delete(key);
      if (!byCaller && answers.size >= LOOKUP_ANSWERS) answers.delete(answers.keys().next().value!);
      answers.set(key, (byCaller ??= new WeakMap()));
      const byLocale = byCaller.get(request.caller) ?? byCaller.set(request.caller, new Map()).get(request.caller)!;
      const provider = details.consignment.provider_id !== null ? await deps.describeProvider(details.consignment.provider_id) : undefined;
      const kept = byLocale.get(request.locale);
      if (kept && sameProvider(kept.provider, provider)) return kept.body;
      const body = Buffer.from(JSON.stringify({ status: true, message: null, data: await mapper(request).detail(details, provider) }));
      byLocale.set(request.locale, { provider, body });
      return body;
    };

    app.get('/consignments', { preValidation: deps.listLimit ? [deps.listLimit] : [], schema: list }, async (request) => {
      const { filter, page: pageRequest } = request.query;
      const { rows, total } = await deps.consignments.list(request.caller, filter, pageRequest);
      const { detail } = mapper(request);
      const results = await Promise.all(rows.map((found) => detail(found)));
      return { status: true, message: null, data: pageResponse(results, pageRequest, total) };
    });

    app.get('/consignments/find/reference_no/:reference_no', { preValidation: lookupLimit, schema: findByReference }, async (request, reply) => {
      const referenceNo = request.params.reference_no;
      const found = await deps.consignments.lookup({ referenceNo, customerId: request.caller.customerId });
      return lookupAnswer(found, request, reply);
    });

    app.get('/consignments/:id/details', { preValidation: lookupLimit, schema: findById }, async (request, reply) => {
      const { id } = request.params;
      const found = await deps.consignments.lookup({ id, customerId: request.caller.customerId });
      return lookupAnswer(found, request, reply);
    });

    app.get('/consignments/:id/documents/:file', { schema: customsDocument }, async (request, reply) =>
      sendCustomsDocument(reply, deps.customs, request.caller, request.params, request.locale),
    );

    app.post('/consignments/:value/cancel', { schema: cancel }, async (request, reply) => {
      const { value } = request.params;
      return idempotent(deps.db, request, reply, `cancel:${value}`, async (uuid, attempt) => {
        const result = await deps.consignments.cancel(request.caller, value, attempt && { key: uuid, attempt });
        return { status: 200, body: { status: true, message: translate(SUCCESS_MESSAGES.CONSIGNMENT_CANCELLED, request.locale), data: result } };
      });
    });
  };
}
