import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { stringify } from 'csv-stringify/sync';
import { classify } from '../../api/errors';
import { detailMapper, type ConsignmentDetail } from '../../api/mappers/consignment.mapper';
import type { ConsolePageDeps } from '../console-deps';
import type { ConsignmentDelivery } from '../../db/webhooks.repository';
import { sendLabelBatch } from '../../api/routes/label-batches.routes';
import { sendCustomsDocument } from '../../api/routes/consignments.routes';
import type { ConsignmentFilter } from '../../domain/consignment-filter';
import { parseConsignmentListQuery } from '../../domain/consignment-filter';
import { parseDraftInput, PREFERENCE } from '../../domain/draft';
import { DomainError } from '../../domain/errors';
import { toDraftInput } from '../../domain/processing-planner';
import { shipmentSpecOf } from '../../domain/shipment';
import { isDraft, STATUS, STATUS_CATALOG } from '../../domain/statuses';
import { parseLabelBatch } from '../../labels/label-batch';
import type { ConsideredQuote, ProviderInfo, ProviderService } from '../../services/providers.service';
import { attrs, html, type Html } from '../html';
import { consoleUrl, csrfField, page, sendPage, type Notice, type PageContext } from '../layout';
import { asNotices, formatWhen, refusalMessages } from '../views';

export type ConsignmentPageDeps = ConsolePageDeps;

/** A page of the list: what the console shows at once (the API's own limit). */
const PAGE_SIZE = 50;
/** Selected consignments one bulk action takes: a page's worth. */
const MAX_SELECTED = 100;
/** Bulk processing and cancelling run this many at once: each waits for its workflow (and a carrier). */
const BULK_CONCURRENCY = 4;

/** The filters of the list as the form and the links carry them (the API's query parameters). */
const FILTER_FIELDS = ['status', 'provider_id', 'reference_no', 'barcode', 'import_id', 'created_from', 'created_to'] as const;
type FilterQuery = Partial<Record<(typeof FILTER_FIELDS)[number] | 'page', string>>;

const STATUS_ORDER: number[] = Object.values(STATUS);

function pickFilters(query: Record<string, unknown>): FilterQuery {
  const out: FilterQuery = {};
  for (const name of [...FILTER_FIELDS, 'page'] as const) {
    const value = query[name];
    if (typeof value === 'string' && value.trim() !== '') out[name] = value.trim();
  }
  return out;
}

/** A signed label link as a path of this server (PUBLIC_BASE_URL may name another host than the browser uses). */
const localLink = (url: string) => {
  try {
    const parsed = new URL(url);
    return parsed.pathname + parsed.search;
  } catch {
    return url;
  }
};

function statusBadge(status: number, ctx: PageContext): Html {
  const entry = STATUS_CATALOG[status];
  return html`<span class="status s${status}">${entry ? entry[ctx.locale] : String(status)}</span>`;
}

/** Runs `work` for every item, `limit` at a time, keeping each one's outcome. */
async function eachLimited<T, R>(items: T[], limit: number, work: (item: T) => Promise<R>): Promise<PromiseSettledResult<R>[]> {
  const results: PromiseSettledResult<R>[] = new Array(items.length);
  let next = 0;
  const runner = async () => {
    while (next < items.length) {
      const i = next++;
      try {
        results[i] = { status: 'fulfilled', value: await work(items[i]) };
      } catch (reason) {
        results[i] = { status: 'rejected', reason };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, runner));
  return results;
}

/** Selected ids from a form: `id` once or repeated; anything that is not a positive id is left out. */
function selectedIds(body: unknown): number[] {
  const raw = (body as { id?: unknown } | undefined)?.id;
  const ids = [raw ?? []].flat().map((v) => Number(v));
  return [...new Set(ids.filter((n) => Number.isSafeInteger(n) && n > 0))].slice(0, MAX_SELECTED);
}

/** The process form's carrier choice as a draft patch: cheapest, fastest, a provider, or the draft's own choice. */
function choicePatch(choice: unknown) {
  if (choice === 'cheapest') return parseDraftInput({ preference: PREFERENCE.CHEAPEST }, 'update');
  if (choice === 'fastest') return parseDraftInput({ preference: PREFERENCE.FASTEST }, 'update');
  const providerId = Number(choice);
  if (Number.isSafeInteger(providerId) && providerId > 0) return parseDraftInput({ preference: PREFERENCE.SPECIFIC, provider_id: providerId }, 'update');
  return null;
}

function choiceField(ctx: PageContext, providers: ProviderInfo[], id: string): Html {
  const { t } = ctx;
  return html`<label for="${id}">${t('CARRIER_CHOICE')}</label>
<select id="${id}" name="choice">
  <option value="draft">${t('CHOICE_AS_DRAFT')}</option>
  <option value="cheapest">${t('CHOICE_CHEAPEST')}</option>
  <option value="fastest">${t('CHOICE_FASTEST')}</option>
  ${providers.filter((p) => p.status === 1).map((p) => html`<option value="${p.id}">${p.name} (#${p.id})</option>`)}
</select>`;
}

export function consignmentPages(deps: ConsignmentPageDeps): FastifyPluginAsync {
  const mapperFor = (request: FastifyRequest) =>
    detailMapper(
      { describeProvider: deps.describeProvider, labelUrl: deps.labelLinks.url, documentUrl: deps.labelLinks.documentUrl, sdrRates: deps.customs.rates },
      { caller: request.caller, locale: request.console.locale },
    );
  const providersOf = async (request: FastifyRequest) => deps.providerService.list(request.caller.customerId);

  /** The list's filters parsed as the API parses them: the filter, or the refusal to show instead of a list. */
  const parseFilters = (query: FilterQuery): { filter: ConsignmentFilter; page: number } | { refusal: DomainError } => {
    try {
      const parsed = parseConsignmentListQuery({ ...query, limit: String(PAGE_SIZE) });
      return { filter: parsed.filter, page: parsed.page.page };
    } catch (error) {
      if (error instanceof DomainError) return { refusal: error };
      throw error;
    }
  };

  return async (app) => {
    app.get<{ Querystring: Record<string, unknown> }>('/consignments', { schema: { hide: true } }, async (request, reply) => {
      const ctx = request.console;
      const { t } = ctx;
      const query = pickFilters(request.query);
      const parsed = parseFilters(query);
      const notices: Notice[] = [];
      let rows: ConsignmentDetail[] = [];
      let total = 0;
      let counts = new Map<number, number>();
      if ('refusal' in parsed) {
        notices.push(...asNotices(refusalMessages(parsed.refusal, ctx.locale) ?? []));
      } else {
        const [listed, byStatus] = await Promise.all([
          deps.consignments.list(request.caller, parsed.filter, { page: parsed.page, limit: PAGE_SIZE }),
          deps.consignments.countByStatus(request.caller, parsed.filter),
        ]);
        const { detail } = mapperFor(request);
        rows = await Promise.all(listed.rows.map((found) => detail(found)));
        total = listed.total;
        counts = byStatus;
      }
      if (request.query.done === 'deleted') notices.push({ kind: 'info', text: t('DONE_DELETED') });
      const providers = await providersOf(request);
      return sendPage(reply, listPage(ctx, { query, rows, total, counts, page: 'page' in parsed ? parsed.page : 1, providers, notices }));
    });

    app.get<{ Querystring: Record<string, unknown> }>('/consignments.csv', { schema: { hide: true } }, async (request, reply) => {
      const ctx = request.console;
      const query = pickFilters(request.query);
      const parsed = parseFilters(query);
      if ('refusal' in parsed) throw parsed.refusal;
      // The whole filtered list, a page of the API's size at a time (at most 100 pages: 10,000 rows).
      const lines: string[][] = [];
      const { detail } = mapperFor(request);
      for (let pageNo = 1; pageNo <= 100; pageNo++) {
        const listed = await deps.consignments.list(request.caller, parsed.filter, { page: pageNo, limit: 100 });
        for (const found of listed.rows) {
          const c = await detail(found);
          lines.push([
            String(c.id),
            c.reference_no ?? '',
            String(c.status),
            STATUS_CATALOG[c.status]?.[ctx.locale] ?? '',
            c.barcode ?? '',
            c.labels[0]?.tracking_code ?? '',
            c.provider?.name ?? '',
            c.consignee.name ?? '',
            c.consignee.city ?? '',
            c.consignee.country ?? '',
            String(c.weight),
            String(c.desi),
            String(c.total_cost),
            c.currency_code,
            c.created_at,
          ]);
        }
        if (pageNo * 100 >= listed.total) break;
      }
      const header = [
        'id',
        'reference_no',
        'status',
        'status_name',
        'barcode',
        'tracking_code',
        'carrier',
        'consignee',
        'city',
        'country',
        'weight',
        'desi',
        'total_cost',
        'currency',
        'created_at',
      ];
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', 'attachment; filename="consignments.csv"')
        .header('cache-control', 'no-store')
        .send('\ufeff' + stringify([header, ...lines]));
    });

    app.post<{ Body: Record<string, unknown> }>('/consignments/labels', { schema: { hide: true } }, async (request, reply) => {
      const ids = selectedIds(request.body);
      const [format, layout] = String(request.body?.print ?? 'pdf-a4').split('-');
      const { keys, entries, print } = parseLabelBatch({ consignments: ids, format, ...(format === 'pdf' && { layout: layout === 'label' ? 'label' : 'a4' }) });
      const batch = await deps.labelBatches.forConsignments(request.caller.customerId, keys, entries, print, request.console.locale);
      return sendLabelBatch(reply, batch);
    });

    app.post<{ Body: Record<string, unknown> }>('/consignments/bulk', { schema: { hide: true } }, async (request, reply) => {
      const ctx = request.console;
      const ids = selectedIds(request.body);
      const action = request.body?.action === 'cancel' ? 'cancel' : 'process';
      const patch = action === 'process' ? choicePatch(request.body?.choice) : null;
      const outcomes = await eachLimited(ids, BULK_CONCURRENCY, (id) =>
        action === 'cancel' ? deps.consignments.cancel(request.caller, String(id)) : deps.consignments.processDraft(request.caller, id, patch, 'pdf'),
      );
      for (const [i, outcome] of outcomes.entries()) {
        if (outcome.status === 'rejected' && !classify(outcome.reason)) request.log.error({ err: outcome.reason, consignment: ids[i] }, 'bulk action failed');
      }
      return sendPage(reply, bulkResultPage(ctx, action, ids, outcomes));
    });

    app.get<{ Params: { id: string; file: string } }>('/consignments/:id/documents/:file', { schema: { hide: true } }, async (request, reply) =>
      sendCustomsDocument(reply, deps.customs, request.caller, request.params, request.console.locale),
    );

    app.get<{ Params: { id: string } }>('/consignments/:id', { schema: { hide: true } }, async (request, reply) => {
      const ctx = request.console;
      const id = Number(request.params.id);
      if (!Number.isSafeInteger(id) || id < 1) throw new DomainError('CONSIGNMENT_NOT_FOUND');
      const found = await deps.consignments.find({ id, customerId: request.caller.customerId });
      const consignment = await mapperFor(request).detail(found);
      const providers = await providersOf(request);
      const [quotes, deliveries] = await Promise.all([
        isDraft(found.consignment.status) ? draftQuotes(deps.providerService, request.caller.customerId, found.consignment) : undefined,
        deps.webhooks.deliveriesOfConsignment(request.caller, id),
      ]);
      const notices: Notice[] = [];
      const done = (request.query as { done?: string }).done;
      if (done === 'processed') notices.push({ kind: 'info', text: ctx.t('DONE_PROCESSED') });
      if (done === 'cancelled') notices.push({ kind: 'info', text: ctx.t('DONE_CANCELLED') });
      const view = {
        consignment,
        providers,
        quotes,
        deliveries,
        notices,
        trackingUrl: found.consignment.tracking_url,
        workflowUrl: workflowLink(deps, found.consignment.uuid),
      };
      return sendPage(reply, detailPage(ctx, view));
    });

    /** A single action on the detail page: done → back to the page with a notice; refused → the page with the refusal. */
    const act = async (
      request: FastifyRequest<{ Params: { id: string }; Body: Record<string, unknown> }>,
      reply: import('fastify').FastifyReply,
      action: 'process' | 'cancel' | 'delete',
    ) => {
      const ctx = request.console;
      const id = Number(request.params.id);
      if (!Number.isSafeInteger(id) || id < 1) throw new DomainError('CONSIGNMENT_NOT_FOUND');
      try {
        if (action === 'process')
          await deps.consignments.processDraft(request.caller, id, choicePatch(request.body?.choice), request.body?.label_format === 'zpl' ? 'zpl' : 'pdf');
        else if (action === 'cancel') await deps.consignments.cancel(request.caller, String(id));
        else await deps.consignments.deleteDraft(request.caller, id);
      } catch (error) {
        const messages = refusalMessages(error, ctx.locale);
        if (!messages || classify(error)?.code === 'CONSIGNMENT_NOT_FOUND' || classify(error)?.code === 'DRAFT_NOT_FOUND') throw error;
        const found = await deps.consignments.find({ id, customerId: request.caller.customerId });
        const consignment = await mapperFor(request).detail(found);
        const notices = asNotices(messages);
        return sendPage(
          reply.code(classify(error) ? 409 : 500),
          detailPage(ctx, {
            consignment,
            providers: await providersOf(request),
            notices,
            trackingUrl: found.consignment.tracking_url,
            workflowUrl: workflowLink(deps, found.consignment.uuid),
          }),
        );
      }
      if (action === 'delete') return reply.redirect(consoleUrl('/consignments', { done: 'deleted' }), 303);
      return reply.redirect(consoleUrl(`/consignments/${id}`, { done: action === 'process' ? 'processed' : 'cancelled' }), 303);
    };
    app.post<{ Params: { id: string }; Body: Record<string, unknown> }>('/consignments/:id/process', { schema: { hide: true } }, (request, reply) =>
      act(request, reply, 'process'),
    );
    app.post<{ Params: { id: string }; Body: Record<string, unknown> }>('/consignments/:id/cancel', { schema: { hide: true } }, (request, reply) =>
      act(request, reply, 'cancel'),
    );
    app.post<{ Params: { id: string }; Body: Record<string, unknown> }>('/consignments/:id/delete', { schema: { hide: true } }, (request, reply) =>
      act(request, reply, 'delete'),
    );
  };
}

function workflowLink(deps: ConsignmentPageDeps, uuid: string): string | undefined {
  if (!deps.temporalUiUrl) return undefined;
  return `${deps.temporalUiUrl.replace(/\/$/, '')}/namespaces/${encodeURIComponent(deps.temporalNamespace)}/workflows/${encodeURIComponent(`consignment:${uuid}`)}`;
}

/** What each provider the customer can use would charge for a draft, as cheapest/fastest would compare them. */
async function draftQuotes(providers: ProviderService, customerId: number, record: Parameters<typeof toDraftInput>[0]): Promise<ConsideredQuote[]> {
  const draft = toDraftInput(record);
  try {
    return (await providers.choose(customerId, shipmentSpecOf(draft), { from: draft.consignor!, to: draft.consignee! }, PREFERENCE.CHEAPEST)).considered;
  } catch {
    return [];
  }
}

function listPage(
  ctx: PageContext,
  view: {
    query: FilterQuery;
    rows: ConsignmentDetail[];
    total: number;
    counts: Map<number, number>;
    page: number;
    providers: ProviderInfo[];
    notices: Notice[];
  },
): Html {
  const { t } = ctx;
  const { query } = view;
  const all = [...view.counts.values()].reduce((a, b) => a + b, 0);
  const tabLink = (status?: number) => consoleUrl('/consignments', { ...query, status: status === undefined ? undefined : String(status), page: undefined });
  const tabs = html`<nav class="tabs" aria-label="${t('STATUS_TABS')}"><ul>
  <li><a href="${tabLink()}"${attrs({ 'aria-current': query.status === undefined ? 'page' : undefined })}>${t('ALL_STATUSES')} <span class="count">${all}</span></a></li>
  ${STATUS_ORDER.filter((s) => (view.counts.get(s) ?? 0) > 0 || query.status === String(s)).map(
    (s) =>
      html`<li><a href="${tabLink(s)}"${attrs({ 'aria-current': query.status === String(s) ? 'page' : undefined })}>${STATUS_CATALOG[s][ctx.locale]} <span class="count">${view.counts.get(s) ?? 0}</span></a></li>`,
  )}
</ul></nav>`;
  const filters = html`<form method="get" action="${consoleUrl('/consignments')}" class="filters" role="search">
  ${query.status ? html`<input type="hidden" name="status" value="${query.status}">` : null}
  <div><label for="f-provider">${t('CARRIER')}</label><select id="f-provider" name="provider_id"><option value="">${t('ANY_CARRIER')}</option>${view.providers.map(
    (p) => html`<option value="${p.id}"${attrs({ selected: query.provider_id === String(p.id) })}>${p.name}</option>`,
  )}</select></div>
  <div><label for="f-reference">${t('REFERENCE_PREFIX')}</label><input id="f-reference" name="reference_no" value="${query.reference_no ?? ''}" maxlength="255"></div>
  <div><label for="f-barcode">${t('BARCODE')}</label><input id="f-barcode" name="barcode" value="${query.barcode ?? ''}" maxlength="255"></div>
  <div><label for="f-import">${t('IMPORT_ID')}</label><input id="f-import" name="import_id" value="${query.import_id ?? ''}" maxlength="36"></div>
  <div><label for="f-from">${t('CREATED_FROM')}</label><input id="f-from" name="created_from" type="date" value="${query.created_from ?? ''}"></div>
  <div><label for="f-to">${t('CREATED_TO')}</label><input id="f-to" name="created_to" type="date" value="${query.created_to ?? ''}"></div>
  <div class="actions"><button type="submit">${t('FILTER')}</button> <a href="${consoleUrl('/consignments')}">${t('CLEAR')}</a></div>
</form>`;
  const pages = Math.max(1, Math.ceil(view.total / PAGE_SIZE));
  const pager = html`<nav class="pager" aria-label="${t('PAGES')}">
  ${view.page > 1 ? html`<a rel="prev" href="${consoleUrl('/consignments', { ...query, page: String(view.page - 1) })}">${t('PREVIOUS_PAGE')}</a>` : null}
  <span>${t('PAGE_OF', { page: view.page, pages, total: view.total })}</span>
  ${view.page < pages ? html`<a rel="next" href="${consoleUrl('/consignments', { ...query, page: String(view.page + 1) })}">${t('NEXT_PAGE')}</a>` : null}
</nav>`;
  const table =
    view.rows.length === 0
      ? html`<p class="empty">${t('NO_CONSIGNMENTS')}</p>`
      : html`<form method="post" action="${consoleUrl('/consignments/labels')}" id="bulk">
  ${csrfField(ctx)}
  <div class="bulk" role="group" aria-label="${t('WITH_SELECTED')}">
    <span>${t('WITH_SELECTED')}</span>
    <label for="print" class="visually-hidden">${t('LABEL_LAYOUT')}</label>
    <select id="print" name="print">
      <option value="pdf-a4">${t('PRINT_A4')}</option>
      <option value="pdf-label">${t('PRINT_LABEL')}</option>
      <option value="zpl">${t('PRINT_ZPL')}</option>
    </select>
    <button type="submit">${t('PRINT_LABELS')}</button>
    <span class="sep"></span>
    <label for="bulk-choice" class="visually-hidden">${t('CARRIER_CHOICE')}</label>
    <select id="bulk-choice" name="choice">
      <option value="draft">${t('CHOICE_AS_DRAFT')}</option>
      <option value="cheapest">${t('CHOICE_CHEAPEST')}</option>
      <option value="fastest">${t('CHOICE_FASTEST')}</option>
      ${view.providers.filter((p) => p.status === 1).map((p) => html`<option value="${p.id}">${p.name} (#${p.id})</option>`)}
    </select>
    <button type="submit" name="action" value="process" formaction="${consoleUrl('/consignments/bulk')}">${t('PROCESS_SELECTED')}</button>
    <button type="submit" name="action" value="cancel" formaction="${consoleUrl('/consignments/bulk')}" class="danger">${t('CANCEL_SELECTED')}</button>
  </div>
  <table class="list">
    <thead><tr>
      <th scope="col"><input type="checkbox" data-select-all="id" aria-label="${t('SELECT_ALL')}"></th>
      <th scope="col">${t('ID')}</th><th scope="col">${t('REFERENCE')}</th><th scope="col">${t('STATUS')}</th><th scope="col">${t('CARRIER')}</th>
      <th scope="col">${t('BARCODE')}</th><th scope="col">${t('CONSIGNEE')}</th><th scope="col">${t('CREATED_AT')}</th>
    </tr></thead>
    <tbody>
    ${view.rows.map(
      (c) => html`<tr>
      <td><input type="checkbox" name="id" value="${c.id}" aria-label="${t('SELECT_ONE', { id: c.id })}"></td>
      <td><a href="${consoleUrl(`/consignments/${c.id}`)}">${c.id}</a></td>
      <td>${c.reference_no ?? '—'}</td>
      <td>${statusBadge(c.status, ctx)}</td>
      <td>${c.provider?.name ?? '—'}</td>
      <td>${c.barcode ?? '—'}</td>
      <td>${[c.consignee.name, c.consignee.city].filter(Boolean).join(', ')}</td>
      <td>${formatWhen(c.created_at, ctx.locale)}</td>
    </tr>`,
    )}
    </tbody>
  </table>
</form>`;
  const exportLink = html`<p class="export"><a href="${consoleUrl('/consignments.csv', { ...query, page: undefined })}" download>${t('EXPORT_CSV')}</a></p>`;
  const notices = [...view.notices];
  return page(ctx, t('NAV_CONSIGNMENTS'), [tabs, filters, exportLink, table, pager], { notices, current: '/consignments' });
}

function party(label: string, p: ConsignmentDetail['consignor'], ctx: PageContext): Html {
  const lines = [p.name, p.attention_name, p.address, [p.postal_code, p.state, p.city].filter(Boolean).join(' '), p.country].filter(Boolean);
  return html`<section class="card party"><h2>${label}</h2><address>${lines.map((l, i) => html`${i ? html`<br>` : null}${l}`)}</address>
  <p>${[p.phone, p.email].filter(Boolean).join(' · ') || ctx.t('NONE')}</p></section>`;
}

function detailPage(
  ctx: PageContext,
  view: {
    consignment: ConsignmentDetail;
    providers: ProviderInfo[];
    quotes?: ConsideredQuote[];
    deliveries?: ConsignmentDelivery[];
    notices: Notice[];
    trackingUrl: string | null;
    workflowUrl?: string;
  },
): Html {
  const { t } = ctx;
  const c = view.consignment;
  const draft = isDraft(c.status);
  const cancellable = c.status !== STATUS.CANCELLED && c.status !== STATUS.DELIVERED && c.status !== STATUS.RETURNED;
  const summary = html`<dl class="facts">
  <dt>${t('STATUS')}</dt><dd>${statusBadge(c.status, ctx)}</dd>
  <dt>${t('REFERENCE')}</dt><dd>${c.reference_no ?? '—'}</dd>
  <dt>${t('BARCODE')}</dt><dd>${c.barcode ?? '—'}</dd>
  <dt>${t('CARRIER')}</dt><dd>${c.provider ? `${c.provider.name} (#${c.provider.id})` : '—'}</dd>
  <dt>${t('TRACKING_CODE')}</dt><dd>${
    view.trackingUrl
      ? html`<a href="${view.trackingUrl}" target="_blank" rel="noopener">${c.labels[0]?.tracking_code ?? view.trackingUrl}</a>`
      : (c.labels[0]?.tracking_code ?? '—')
  }</dd>
  <dt>${t('WEIGHT_DESI')}</dt><dd>${c.weight} kg · ${c.desi} desi</dd>
  <dt>${t('TOTAL_COST')}</dt><dd>${c.total_cost.toFixed(2)} ${c.currency_code}</dd>
  <dt>${t('CREATED_AT')}</dt><dd>${formatWhen(c.created_at, ctx.locale)}</dd>
  ${view.workflowUrl ? html`<dt>${t('WORKFLOW')}</dt><dd><a href="${view.workflowUrl}" target="_blank" rel="noopener">${t('OPEN_IN_TEMPORAL')}</a></dd>` : null}
</dl>`;
  const labels =
    c.labels.length === 0
      ? null
      : html`<section class="card"><h2>${t('LABELS')}</h2><ul>${c.labels.map(
          (l) =>
            html`<li><a href="${localLink(l.file_url)}" download>${l.file_name}</a> · <a href="${localLink(l.file_url.replace(/\.pdf(\?|$)/, '.zpl$1'))}" download>ZPL</a></li>`,
        )}</ul></section>`;
  const documents = [
    c.permissions.can_create_cn22 ? 'cn22.pdf' : null,
    c.permissions.can_create_cn23 ? 'cn23.pdf' : null,
    c.permissions.can_create_proforma_invoice ? 'proforma.pdf' : null,
  ].filter((d): d is string => d !== null);
  const papers =
    documents.length === 0 && c.documents.length === 0
      ? null
      : html`<section class="card"><h2>${t('DOCUMENTS')}</h2><ul>
  ${documents.map((d) => html`<li><a href="${consoleUrl(`/consignments/${c.id}/documents/${d}`)}" download>${d}</a></li>`)}
  ${c.documents.map((d) => html`<li>${d.file_url ? html`<a href="${localLink(d.file_url)}" download>${d.file_name}</a>` : d.file_name}</li>`)}
</ul></section>`;
  const packages = html`<section class="card"><h2>${t('PACKAGES')}</h2>
${
  c.packages.length === 0
    ? html`<p>${t('NONE')}</p>`
    : html`<table class="list"><thead><tr><th scope="col">#</th><th scope="col">${t('QUANTITY')}</th><th scope="col">${t('ITEMS')}</th></tr></thead><tbody>
  ${c.packages.map(
    (p, i) =>
      html`<tr><td>${i + 1}</td><td>${p.quantity}</td><td>${p.items.map((item) => html`<div>${item.quantity ?? 1} × ${item.description ?? ''}</div>`)}</td></tr>`,
  )}
</tbody></table>`
}</section>`;
  const timeline = html`<section class="card"><h2>${t('HISTORY')}</h2><ol class="timeline">
${[...c.details]
  .reverse()
  .map(
    (d) =>
      html`<li><time datetime="${d.status_datetime ?? ''}">${formatWhen(d.status_datetime, ctx.locale)}</time> ${statusBadge(d.status, ctx)} <span>${d.message}</span>${d.location ? html` · <span>${d.location}</span>` : null}</li>`,
  )}
</ol></section>`;
  const quotes =
    view.quotes && view.quotes.length > 0
      ? html`<table class="list quotes"><caption>${t('QUOTES')}</caption><thead><tr><th scope="col">${t('CARRIER')}</th><th scope="col">${t('PRICE')}</th><th scope="col">${t('TRANSIT_DAYS')}</th><th scope="col">${t('NOTE')}</th></tr></thead><tbody>
  ${view.quotes.map(
    (q) =>
      html`<tr><td>${q.name} (#${q.providerId})</td><td>${q.quote ? `${q.quote.baseCost.toFixed(2)} ${q.quote.currency}` : '—'}</td><td>${q.quote?.transitDays ?? '—'}</td><td>${q.note ?? ''}</td></tr>`,
  )}
</tbody></table>`
      : null;
  const actions = html`<section class="card actions">
  <h2>${t('ACTIONS')}</h2>
  ${
    draft
      ? html`<form method="post" action="${consoleUrl(`/consignments/${c.id}/process`)}" class="stack">${csrfField(ctx)}
    ${quotes}
    ${choiceField(ctx, view.providers, 'choice')}
    <label for="label_format">${t('LABEL_FORMAT')}</label>
    <select id="label_format" name="label_format"><option value="pdf">PDF</option><option value="zpl">ZPL</option></select>
    <button type="submit">${t('PROCESS')}</button>
  </form>
  <p><a href="${consoleUrl(`/drafts/${c.id}/edit`)}">${t('EDIT_DRAFT')}</a></p>
  <form method="post" action="${consoleUrl(`/consignments/${c.id}/delete`)}" class="inline">${csrfField(ctx)}<button type="submit" class="danger">${t('DELETE_DRAFT')}</button></form>`
      : null
  }
  ${cancellable ? html`<form method="post" action="${consoleUrl(`/consignments/${c.id}/cancel`)}" class="inline">${csrfField(ctx)}<button type="submit" class="danger">${t('CANCEL_CONSIGNMENT')}</button></form>` : null}
</section>`;
  const deliveries =
    view.deliveries && view.deliveries.length > 0
      ? html`<section class="card"><h2>${t('WEBHOOK_DELIVERIES')}</h2><table class="list"><thead><tr>
  <th scope="col">${t('DELIVERED_AT')}</th><th scope="col">${t('WEBHOOK')}</th><th scope="col">${t('STATUS')}</th><th scope="col">${t('ATTEMPT')}</th><th scope="col">${t('HTTP_STATUS')}</th>
</tr></thead><tbody>
${view.deliveries.map(
  (d) => html`<tr class="${d.success ? 'ok' : 'failed'}">
  <td>${formatWhen(d.attemptedAt, ctx.locale)}</td>
  <td><a href="${consoleUrl(`/webhooks/${d.webhookId}`)}">${d.endpoint}</a></td>
  <td>${d.status === null ? d.event : statusBadge(d.status, ctx)}</td>
  <td>${d.attempt}${d.redelivery ? ` (${t('REDELIVERY')})` : ''}</td>
  <td>${d.httpStatus ?? d.error ?? '—'}</td>
</tr>`,
)}
</tbody></table></section>`
      : null;
  return page(
    ctx,
    t('CONSIGNMENT_TITLE', { id: c.id }),
    html`<p><a href="${consoleUrl('/consignments')}">← ${t('NAV_CONSIGNMENTS')}</a></p>
<div class="grid">${summary}${actions}</div>
<div class="grid">${party(t('CONSIGNOR'), c.consignor, ctx)}${party(t('CONSIGNEE'), c.consignee, ctx)}</div>
${labels}${papers}${packages}${timeline}${deliveries}`,
    { notices: view.notices, current: '/consignments' },
  );
}

function bulkResultPage(ctx: PageContext, action: 'process' | 'cancel', ids: number[], outcomes: PromiseSettledResult<unknown>[]): Html {
  const { t } = ctx;
  const ok = outcomes.filter((o) => o.status === 'fulfilled').length;
  return page(
    ctx,
    action === 'process' ? t('BULK_PROCESS_TITLE') : t('BULK_CANCEL_TITLE'),
    html`<p>${t('BULK_SUMMARY', { ok, failed: ids.length - ok })}</p>
${ids.length === 0 ? html`<p class="empty">${t('NOTHING_SELECTED')}</p>` : null}
<table class="list"><thead><tr><th scope="col">${t('ID')}</th><th scope="col">${t('RESULT')}</th></tr></thead><tbody>
${ids.map((id, i) => {
  const outcome = outcomes[i];
  const messages = outcome.status === 'rejected' ? (refusalMessages(outcome.reason, ctx.locale) ?? [{ message: t('ERROR_TITLE') }]) : [];
  return html`<tr class="${outcome.status === 'fulfilled' ? 'ok' : 'failed'}"><td><a href="${consoleUrl(`/consignments/${id}`)}">${id}</a></td><td>${
    outcome.status === 'fulfilled' ? t('RESULT_OK') : messages.map((m) => html`<div>${m.field ? html`<code>${m.field}</code>: ` : null}${m.message}</div>`)
  }</td></tr>`;
})}
</tbody></table>
<p><a href="${consoleUrl('/consignments')}">← ${t('NAV_CONSIGNMENTS')}</a></p>`,
    { current: '/consignments' },
  );
}
