import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { classify, httpStatusOf } from '../../api/errors';
import { toOrderEventResponse, toOrderSourceResponse } from '../../api/mappers/order-source.mapper';
import { draftParts, PREFERENCE } from '../../domain/draft';
import { isMarketplace, ORDER_PLATFORMS, SHOP_PLATFORMS, type OrderEventState } from '../../domain/order-source';
import { parsePageRequest, type PageRequest } from '../../domain/pagination';
import type { ConsoleTextKey } from '../../i18n/console';
import { SUCCESS_MESSAGES, translate } from '../../i18n/messages';
import { parseOrderSourceInput } from '../../imports/order-source-input';
import type { ProviderInfo } from '../../services/providers.service';
import type { ConsolePageDeps } from '../console-deps';
import { attrs, html, type Html, type Renderable } from '../html';
import { consoleUrl, csrfField, page, sendPage, type Notice, type PageContext } from '../layout';
import { asNotices, formatWhen, refusalMessages, type Message } from '../views';

type SourceView = ReturnType<typeof toOrderSourceResponse>;
type EventView = ReturnType<typeof toOrderEventResponse>;
type OrderSourceService = NonNullable<ConsolePageDeps['orderSources']>;
type Refusal = Message;

/** Sources a page of the list shows. */
const SOURCES_PER_PAGE = 50;
/** Events a page of the log shows, newest first (the API's order). */
const EVENTS_PER_PAGE = 20;
/** While an event is still being made into a draft, the log asks again this often. */
const EVENT_POLL = 'every 5s';

/** The sender's fields the form offers: fields of the draft API's party, so a renamed one is a compile error. */
const SENDER_FIELDS = [
  ['name', 'OS_PARTY_NAME', 'organization'],
  ['attention_name', 'OS_PARTY_ATTENTION', 'name'],
  ['address', 'OS_PARTY_ADDRESS', 'street-address'],
  ['postal_code', 'OS_PARTY_POSTAL_CODE', 'postal-code'],
  ['city', 'OS_PARTY_CITY', 'address-level2'],
  ['state', 'OS_PARTY_STATE', 'address-level1'],
  ['country', 'OS_PARTY_COUNTRY', 'country'],
  ['phone_number', 'OS_PARTY_PHONE', 'tel'],
  ['email', 'OS_PARTY_EMAIL', 'email'],
  ['tax_number', 'OS_PARTY_TAX_NUMBER', 'off'],
] as const satisfies readonly (readonly [keyof typeof draftParts.party.shape, ConsoleTextKey, string])[];

/** The package defaults the form offers (the import options' package, without items). */
const PACKAGE_FIELDS = [
  ['weight', 'OS_WEIGHT'],
  ['length', 'OS_LENGTH'],
  ['width', 'OS_WIDTH'],
  ['height', 'OS_HEIGHT'],
] as const satisfies readonly (readonly [keyof typeof draftParts.package.shape, ConsoleTextKey])[];

const STATE_TEXT: Record<OrderEventState, ConsoleTextKey> = {
  received: 'OS_STATE_RECEIVED',
  drafted: 'OS_STATE_DRAFTED',
  processed: 'OS_STATE_PROCESSED',
  cancelled: 'OS_STATE_CANCELLED',
  duplicate: 'OS_STATE_DUPLICATE',
  failed: 'OS_STATE_FAILED',
};

const PLATFORM_NAMES: Record<(typeof ORDER_PLATFORMS)[number], string> = {
  shopify: 'Shopify',
  woocommerce: 'WooCommerce',
  trendyol: 'Trendyol',
  hepsiburada: 'Hepsiburada',
};

/** `consignor.name` → `f-consignor-name`: the id of a form field named by its API path. */
const fieldId = (path: string) => `f-${path.replace(/[^a-z0-9]+/gi, '-')}`;

/** What the create form sent, as text by field name (the API's field paths: `consignor.city`, `package.weight`). */
type FormValues = Record<string, string>;

function formValues(body: unknown): FormValues {
  const values: FormValues = {};
  if (typeof body !== 'object' || body === null) return values;
  for (const [name, value] of Object.entries(body)) if (typeof value === 'string' && name !== '_csrf') values[name] = value;
  return values;
}

/**
 * The form as the API's create body, for the API's own parser to judge: blank optional fields are left out,
 * numbers are numbers (a decimal comma accepted), and text that is not a number is passed on for the parser to
 * refuse by name.
 */
function createBody(values: FormValues): Record<string, unknown> {
  const text = (name: string) => (values[name]?.trim() ? values[name] : undefined);
  const number = (name: string) => {
    const raw = text(name)?.trim();
    if (raw === undefined) return undefined;
    const n = Number(raw.replace(',', '.'));
    return Number.isFinite(n) ? n : raw;
  };
  const group = (prefix: string, names: readonly string[], read: (name: string) => unknown) => {
    const entries = names.map((name) => [name, read(`${prefix}.${name}`)] as const).filter(([, v]) => v !== undefined);
    return entries.length > 0 ? Object.fromEntries(entries) : undefined;
  };
  const body: Record<string, unknown> = {
    platform: values.platform ?? '',
    name: values.name ?? '',
    secret: values.secret ?? '',
    process: values.process === '1',
    consignor: group(
      'consignor',
      SENDER_FIELDS.map(([name]) => name),
      text,
    ),
    preference: number('preference'),
    provider_id: number('provider_id'),
    address_resolver_type: number('address_resolver_type'),
    package: group(
      'package',
      PACKAGE_FIELDS.map(([name]) => name),
      number,
    ),
  };
  return Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined));
}

/** A source as a PUT body that changes only its status (the secret left out: the stored one stays). */
function statusBody(source: SourceView, status: 0 | 1): Record<string, unknown> {
  return {
    platform: source.platform,
    name: source.name,
    process: source.process,
    status,
    consignor: source.consignor,
    preference: source.preference,
    provider_id: source.provider_id,
    address_resolver_type: source.address_resolver_type,
    package: source.package,
    // A marketplace's settings are kept as they are (its credentials, left out, stay stored).
    ...(isMarketplace(source.platform) && { settings: source.settings }),
  };
}

const isNotFound = (error: unknown) => classify(error)?.code === 'ORDER_SOURCE_NOT_FOUND';

export function orderSourcePages(deps: ConsolePageDeps): FastifyPluginAsync {
  const service = (): OrderSourceService => deps.orderSources;
  const show = (s: Parameters<typeof toOrderSourceResponse>[0]) => toOrderSourceResponse(s, service().deliveryUrl(s));
  const providersOf = async (request: FastifyRequest) => deps.providerService.list(request.caller.customerId);

  const listView = async (request: FastifyRequest, pageRequest: PageRequest) => {
    const { rows, total } = await service().list(request.caller, pageRequest);
    return { sources: rows.map(show), total, page: pageRequest.page };
  };

  const eventsView = async (request: FastifyRequest, id: string, pageNo: number) => {
    const pageRequest = { page: pageNo, limit: EVENTS_PER_PAGE };
    const { rows, total } = await service().events(request.caller, id, pageRequest);
    return { events: rows.map((e) => toOrderEventResponse(e, request.console.locale)), total, page: pageNo };
  };

  /** `page` of a query as the API reads it; a bad one is page 1 rather than an error page. */
  const pageOf = (query: unknown) => {
    try {
      return parsePageRequest({ page: (query as { page?: unknown })?.page }).page;
    } catch {
      return 1;
    }
  };

  const detail = async (request: FastifyRequest, reply: FastifyReply, id: string, notices: Notice[], status = 200) => {
    const source = show(await service().get(request.caller, id));
    const events = await eventsView(request, id, pageOf(request.query));
    return sendPage(reply.code(status), detailPage(request.console, { source, events, notices }));
  };

  return async (app) => {
    app.get<{ Querystring: Record<string, unknown> }>('/order-sources', { schema: { hide: true } }, async (request, reply) => {
      const ctx = request.console;
      const notices: Notice[] = [];
      if (request.query.done === 'deleted') notices.push({ kind: 'info', text: translate(SUCCESS_MESSAGES.ORDER_SOURCE_DELETED, ctx.locale) });
      const view = await listView(request, { page: pageOf(request.query), limit: SOURCES_PER_PAGE });
      return sendPage(reply, listPage(ctx, { ...view, providers: await providersOf(request), values: {}, refusals: [], notices }));
    });

    app.post<{ Body: Record<string, unknown> }>('/order-sources', { schema: { hide: true } }, async (request, reply) => {
      const ctx = request.console;
      const values = formValues(request.body);
      try {
        const created = await service().create(request.caller, parseOrderSourceInput(createBody(values), 'create'));
        return reply.redirect(consoleUrl(`/order-sources/${created.id}`, { done: 'created' }), 303);
      } catch (error) {
        const refusals = refusalMessages(error, ctx.locale);
        if (!refusals) throw error;
        const view = await listView(request, { page: 1, limit: SOURCES_PER_PAGE });
        // The secret is not sent back into the page: it is typed again.
        const { secret: _secret, ...kept } = values;
        return sendPage(
          reply.code(httpStatusOf(classify(error)!.code)),
          listPage(ctx, {
            ...view,
            providers: await providersOf(request),
            values: kept,
            refusals,
            notices: [{ kind: 'error', text: ctx.t('FORM_HAS_ERRORS') }],
          }),
        );
      }
    });

    app.get<{ Params: { id: string }; Querystring: Record<string, unknown> }>('/order-sources/:id', { schema: { hide: true } }, async (request, reply) => {
      const ctx = request.console;
      const done = request.query.done;
      const notices: Notice[] = [];
      if (done === 'created') notices.push({ kind: 'info', text: translate(SUCCESS_MESSAGES.ORDER_SOURCE_CREATED, ctx.locale) });
      if (done === 'disabled') notices.push({ kind: 'info', text: ctx.t('OS_DISABLED_DONE') });
      if (done === 'enabled') notices.push({ kind: 'info', text: ctx.t('OS_ENABLED_DONE') });
      return detail(request, reply, request.params.id, notices);
    });

    // The event log alone: what the log's htmx refresh and its pager swap in.
    app.get<{ Params: { id: string }; Querystring: Record<string, unknown> }>(
      '/order-sources/:id/events',
      { schema: { hide: true } },
      async (request, reply) => {
        const events = await eventsView(request, request.params.id, pageOf(request.query));
        return sendPage(reply, eventLog(request.console, request.params.id, events));
      },
    );

    // Disabling or enabling is the API's PUT with every field as it is and the status changed.
    app.post<{ Params: { id: string }; Body: Record<string, unknown> }>('/order-sources/:id/status', { schema: { hide: true } }, async (request, reply) => {
      const ctx = request.console;
      const { id } = request.params;
      const status = request.body?.status === '1' ? 1 : 0;
      const current = show(await service().get(request.caller, id));
      try {
        await service().replace(request.caller, id, parseOrderSourceInput(statusBody(current, status), 'replace'));
      } catch (error) {
        const refusals = refusalMessages(error, ctx.locale);
        if (!refusals || isNotFound(error)) throw error;
        return detail(request, reply, id, asNotices(refusals), httpStatusOf(classify(error)!.code));
      }
      return reply.redirect(consoleUrl(`/order-sources/${id}`, { done: status === 1 ? 'enabled' : 'disabled' }), 303);
    });

    app.post<{ Params: { id: string } }>('/order-sources/:id/delete', { schema: { hide: true } }, async (request, reply) => {
      await service().remove(request.caller, request.params.id);
      return reply.redirect(consoleUrl('/order-sources', { done: 'deleted' }), 303);
    });
  };
}

function stateBadge(ctx: PageContext, active: boolean): Html {
  return html`<span class="status ${active ? 'os-active' : 'os-disabled'}">${ctx.t(active ? 'OS_ACTIVE' : 'OS_DISABLED')}</span>`;
}

function listPage(
  ctx: PageContext,
  view: { sources: SourceView[]; total: number; page: number; providers: ProviderInfo[]; values: FormValues; refusals: Refusal[]; notices: Notice[] },
): Html {
  const { t } = ctx;
  const pages = Math.max(1, Math.ceil(view.total / SOURCES_PER_PAGE));
  const table =
    view.sources.length === 0
      ? html`<p class="empty">${t('OS_NONE')}</p>`
      : html`<section class="card"><table class="list">
  <caption>${t('OS_LIST_CAPTION')}</caption>
  <thead><tr>
    <th scope="col">${t('OS_NAME')}</th><th scope="col">${t('OS_PLATFORM')}</th><th scope="col">${t('OS_STATE')}</th>
    <th scope="col">${t('OS_SECRET_HINT')}</th><th scope="col">${t('CREATED_AT')}</th>
  </tr></thead>
  <tbody>
  ${view.sources.map(
    (s) => html`<tr>
    <th scope="row"><a href="${consoleUrl(`/order-sources/${s.id}`)}">${s.name}</a></th>
    <td>${PLATFORM_NAMES[s.platform]}</td>
    <td>${stateBadge(ctx, s.status === 1)}</td>
    <td><code>${s.secret_hint}</code></td>
    <td>${formatWhen(s.created_at, ctx.locale)}</td>
  </tr>`,
  )}
  </tbody>
</table>
${
  pages > 1
    ? html`<nav class="pager" aria-label="${t('PAGES')}">
  ${view.page > 1 ? html`<a rel="prev" href="${consoleUrl('/order-sources', { page: view.page - 1 })}">${t('PREVIOUS_PAGE')}</a>` : null}
  <span>${t('PAGE_OF', { page: view.page, pages, total: view.total })}</span>
  ${view.page < pages ? html`<a rel="next" href="${consoleUrl('/order-sources', { page: view.page + 1 })}">${t('NEXT_PAGE')}</a>` : null}
</nav>`
    : null
}</section>`;
  return page(ctx, t('NAV_ORDER_SOURCES'), [html`<p class="hint">${t('OS_INTRO')}</p>`, table, createForm(ctx, view.providers, view.values, view.refusals)], {
    notices: view.notices,
    current: '/order-sources',
  });
}

/** The create form; refusals naming a field are shown under it, the others above the form. */
function createForm(ctx: PageContext, providers: ProviderInfo[], values: FormValues, refusals: Refusal[]): Html {
  const { t } = ctx;
  const shown = new Set<Refusal>();
  const errorsFor = (path: string): Html | null => {
    // A group's call (`consignor`) after its fields' takes what no field of the form showed (`consignor.state_code`).
    const mine = refusals.filter((r) => !shown.has(r) && (r.field === path || (r.field?.startsWith(`${path}.`) ?? false)));
    mine.forEach((r) => shown.add(r));
    return mine.length > 0 ? html`${mine.map((r) => html`<p class="field-error" id="${fieldId(path)}-error">${r.message}</p>`)}` : null;
  };
  const described = (path: string) => (refusals.some((r) => r.field === path) ? `${fieldId(path)}-error` : undefined);
  const textField = (path: string, label: string, extra: Record<string, string | number | boolean | undefined> = {}) => {
    const error = errorsFor(path);
    return html`<div><label for="${fieldId(path)}">${label}</label><input id="${fieldId(path)}" name="${path}" value="${values[path] ?? ''}"${attrs({
      'aria-invalid': error ? 'true' : undefined,
      'aria-describedby': described(path),
      ...extra,
    })}>${error}</div>`;
  };
  const option = (path: string, value: string, label: Renderable) =>
    html`<option value="${value}"${attrs({ selected: (values[path] ?? '') === value })}>${label}</option>`;
  const select = (path: string, label: string, options: Html[]) => {
    const error = errorsFor(path);
    return html`<div><label for="${fieldId(path)}">${label}</label><select id="${fieldId(path)}" name="${path}"${attrs({
      'aria-invalid': error ? 'true' : undefined,
      'aria-describedby': described(path),
    })}>${options}</select>${error}</div>`;
  };

  const secretField = () => {
    const error = errorsFor('secret');
    return html`<div><label for="${fieldId('secret')}">${t('OS_SECRET')}</label>
    <input id="${fieldId('secret')}" name="secret" type="password" autocomplete="new-password" spellcheck="false" required minlength="8" maxlength="512"${attrs(
      {
        'aria-invalid': error ? 'true' : undefined,
        'aria-describedby': [described('secret'), 'secret-help'].filter(Boolean).join(' '),
      },
    )}>${error}
    <p class="hint" id="secret-help">${t('OS_SECRET_HELP')}</p></div>`;
  };
  const basics = html`<div class="grid os-form">
  ${select(
    'platform',
    t('OS_PLATFORM'),
    // Marketplace sources take API credentials and settings: made through the API (docs/order-feeds.md, "Marketplaces").
    SHOP_PLATFORMS.map((p) => option('platform', p, PLATFORM_NAMES[p])),
  )}
  ${textField('name', t('OS_NAME'), { required: true, maxlength: 255 })}
  ${secretField()}
</div>`;
  const sender = html`<fieldset><legend>${t('OS_SENDER')}</legend><div class="grid os-form">
  ${SENDER_FIELDS.map(([name, label, autocomplete]) =>
    textField(`consignor.${name}`, t(label), { autocomplete, required: name === 'name', maxlength: name === 'country' ? 3 : undefined }),
  )}
</div>${errorsFor('consignor')}</fieldset>`;
  const carrier = html`<fieldset><legend>${t('OS_PREFERENCE')}</legend><div class="grid os-form">
  ${select('preference', t('OS_PREFERENCE'), [
    option('preference', '', t('OS_PREFERENCE_NONE')),
    option('preference', String(PREFERENCE.CHEAPEST), t('OS_PREFERENCE_CHEAPEST')),
    option('preference', String(PREFERENCE.FASTEST), t('OS_PREFERENCE_FASTEST')),
    option('preference', String(PREFERENCE.SPECIFIC), t('OS_PREFERENCE_SPECIFIC')),
  ])}
  ${select('provider_id', t('OS_PROVIDER'), [
    option('provider_id', '', t('OS_PROVIDER_NONE')),
    ...providers.filter((p) => p.status === 1).map((p) => option('provider_id', String(p.id), `${p.name} (#${p.id})`)),
  ])}
  ${select('address_resolver_type', t('OS_RESOLVER'), [
    option('address_resolver_type', '', t('OS_RESOLVER_NONE')),
    option('address_resolver_type', '0', t('OS_RESOLVER_0')),
    option('address_resolver_type', '1', t('OS_RESOLVER_1')),
    option('address_resolver_type', '2', t('OS_RESOLVER_2')),
  ])}
</div></fieldset>`;
  const pkg = html`<fieldset><legend>${t('OS_PACKAGE')}</legend><p class="hint">${t('OS_PACKAGE_HELP')}</p><div class="grid os-form">
  ${PACKAGE_FIELDS.map(([name, label]) => textField(`package.${name}`, t(label), { inputmode: 'decimal' }))}
</div>${errorsFor('package')}</fieldset>`;
  const processError = errorsFor('process');
  const processBox = html`<p><input type="checkbox" id="${fieldId('process')}" name="process" value="1"${attrs({ checked: values.process === '1' })}>
  <label for="${fieldId('process')}" class="inline-label">${t('OS_PROCESS')}</label></p>${processError}`;
  // Whatever names no field of the form (or a field it does not have) is listed above it.
  const rest = refusals.filter((r) => !shown.has(r));
  return html`<section class="card" aria-labelledby="create-title">
<h2 id="create-title">${t('OS_CREATE_TITLE')}</h2>
${rest.length > 0 ? html`<ul class="errors" role="alert">${rest.map((r) => html`<li>${r.field ? html`<code>${r.field}</code>: ` : null}${r.message}</li>`)}</ul>` : null}
<form method="post" action="${consoleUrl('/order-sources')}" class="stack" novalidate>
${csrfField(ctx)}
${basics}
<h3>${t('OS_DEFAULTS')}</h3>
<p class="hint">${t('OS_DEFAULTS_HELP')}</p>
${sender}
${carrier}
${pkg}
${processBox}
<button type="submit">${t('OS_CREATE')}</button>
</form>
</section>`;
}

function detailPage(ctx: PageContext, view: { source: SourceView; events: { events: EventView[]; total: number; page: number }; notices: Notice[] }): Html {
  const { t } = ctx;
  const s = view.source;
  const active = s.status === 1;
  const consignor = s.consignor ?? {};
  const senderLines = SENDER_FIELDS.map(([name]) => consignor[name])
    .filter((v): v is string => typeof v === 'string' && v !== '')
    .join(', ');
  const preference =
    s.preference === PREFERENCE.CHEAPEST
      ? t('OS_PREFERENCE_CHEAPEST')
      : s.preference === PREFERENCE.FASTEST
        ? t('OS_PREFERENCE_FASTEST')
        : s.preference === PREFERENCE.SPECIFIC
          ? t('OS_PREFERENCE_SPECIFIC')
          : t('OS_PREFERENCE_NONE');
  const pkg = s.package ?? {};
  const packageText = PACKAGE_FIELDS.filter(([name]) => pkg[name] != null)
    .map(([name, label]) => `${t(label)}: ${String(pkg[name])}`)
    .join(' · ');
  const resolver: Record<number, ConsoleTextKey> = { 0: 'OS_RESOLVER_0', 1: 'OS_RESOLVER_1', 2: 'OS_RESOLVER_2' };
  const delivery = html`<section class="card" aria-labelledby="delivery-title">
  <h2 id="delivery-title">${t('OS_DELIVERY_URL')}</h2>
  <label for="delivery-url" class="visually-hidden">${t('OS_DELIVERY_URL')}</label>
  <div class="copy-field">
    <input id="delivery-url" type="text" readonly value="${s.delivery_url}" spellcheck="false" aria-describedby="delivery-help">
    <button type="button" data-copy="delivery-url" data-copied="${t('OS_COPIED')}">${t('OS_COPY')}</button>
    <span id="delivery-url-copied" role="status" class="hint"></span>
  </div>
  <p class="hint" id="delivery-help">${t('OS_DELIVERY_HELP')}</p>
</section>`;
  const settings = html`<section class="card" aria-labelledby="settings-title">
  <h2 id="settings-title">${t('OS_SETTINGS')}</h2>
  <dl class="facts">
    <dt>${t('OS_PLATFORM')}</dt><dd>${PLATFORM_NAMES[s.platform]}</dd>
    <dt>${t('OS_STATE')}</dt><dd>${stateBadge(ctx, active)}</dd>
    <dt>${t('OS_SECRET_HINT')}</dt><dd><code>${s.secret_hint}</code></dd>
    <dt>${t('OS_SENDER')}</dt><dd>${senderLines || t('NONE')}</dd>
    <dt>${t('OS_PREFERENCE')}</dt><dd>${preference}${s.provider_id != null ? ` · ${t('OS_PROVIDER')} #${s.provider_id}` : ''}</dd>
    <dt>${t('OS_RESOLVER')}</dt><dd>${s.address_resolver_type != null ? t(resolver[s.address_resolver_type] ?? 'OS_RESOLVER_NONE') : t('OS_RESOLVER_NONE')}</dd>
    <dt>${t('OS_PACKAGE')}</dt><dd>${packageText || t('NONE')}</dd>
    <dt>${t('OS_PROCESS_SHORT')}</dt><dd>${t(s.process ? 'YES' : 'NO')}</dd>
    <dt>${t('CREATED_AT')}</dt><dd>${formatWhen(s.created_at, ctx.locale)}</dd>
    <dt>${t('OS_UPDATED_AT')}</dt><dd>${formatWhen(s.updated_at, ctx.locale)}</dd>
  </dl>
</section>`;
  const actions = html`<section class="card actions" aria-labelledby="actions-title">
  <h2 id="actions-title">${t('ACTIONS')}</h2>
  <form method="post" action="${consoleUrl(`/order-sources/${s.id}/status`)}" class="stack">${csrfField(ctx)}
    <input type="hidden" name="status" value="${active ? '0' : '1'}">
    <button type="submit"${attrs({ class: active ? 'danger' : undefined })}>${t(active ? 'OS_DISABLE' : 'OS_ENABLE')}</button>
    <p class="hint">${t('OS_DISABLE_HELP')}</p>
  </form>
  <form method="post" action="${consoleUrl(`/order-sources/${s.id}/delete`)}" class="stack">${csrfField(ctx)}
    <button type="submit" class="danger">${t('OS_DELETE')}</button>
    <p class="hint">${t('OS_DELETE_HELP')}</p>
  </form>
</section>`;
  return page(
    ctx,
    t('OS_TITLE', { name: s.name }),
    html`<p><a href="${consoleUrl('/order-sources')}">← ${t('NAV_ORDER_SOURCES')}</a></p>
${delivery}
<div class="grid">${settings}${actions}</div>
${eventLog(ctx, s.id, view.events)}`,
    { notices: view.notices, current: '/order-sources' },
  );
}

/**
 * The event log of a source, newest first; the page's own block and the fragment its refresh swaps in. While an
 * event of the first page is still being made into a draft, it asks for itself again (htmx), so its state
 * changes in place; without script, the refresh link does the same.
 */
export function eventLog(ctx: PageContext, sourceId: string, view: { events: EventView[]; total: number; page: number }): Html {
  const { t } = ctx;
  const pages = Math.max(1, Math.ceil(view.total / EVENTS_PER_PAGE));
  const pending = view.page === 1 && view.events.some((e) => e.state === 'received');
  const here = (pageNo: number) => consoleUrl(`/order-sources/${sourceId}`, { page: pageNo > 1 ? pageNo : undefined });
  const fragment = (pageNo: number) => consoleUrl(`/order-sources/${sourceId}/events`, { page: pageNo > 1 ? pageNo : undefined });
  const pageLink = (pageNo: number, rel: 'prev' | 'next', text: string) =>
    html`<a rel="${rel}" href="${here(pageNo)}" hx-get="${fragment(pageNo)}" hx-target="#event-log" hx-swap="outerHTML">${text}</a>`;
  return html`<section class="card" id="event-log" aria-labelledby="events-title"${attrs({
    'hx-get': pending ? fragment(1) : undefined,
    'hx-trigger': pending ? EVENT_POLL : undefined,
    'hx-swap': pending ? 'outerHTML' : undefined,
  })}>
  <h2 id="events-title">${t('OS_EVENTS')}</h2>
  <p><a href="${here(view.page)}">${t('OS_REFRESH')}</a>${pending ? html` · <span class="hint" role="status">${t('OS_EVENTS_PENDING')}</span>` : null}</p>
  ${
    view.events.length === 0
      ? html`<p class="empty">${t('OS_EVENTS_NONE')}</p>`
      : html`<table class="list events">
    <thead><tr>
      <th scope="col">${t('OS_EVENT_ID')}</th><th scope="col">${t('OS_RECEIVED_AT')}</th><th scope="col">${t('OS_TOPIC')}</th>
      <th scope="col">${t('OS_ORDER')}</th><th scope="col">${t('OS_STATE')}</th><th scope="col">${t('OS_CONSIGNMENT')}</th><th scope="col">${t('OS_EVENT_ERRORS')}</th>
    </tr></thead>
    <tbody>
    ${view.events.map(
      (e) => html`<tr data-event="${e.id}"${attrs({ class: e.state === 'failed' ? 'failed' : undefined })}>
      <td>${e.id}</td>
      <td><time datetime="${e.received_at}">${formatWhen(e.received_at, ctx.locale)}</time></td>
      <td><code>${e.topic}</code></td>
      <td>${e.order_no ?? e.order_id ?? '—'}</td>
      <td><span class="status ev-${e.state}" data-state="${e.state}">${t(STATE_TEXT[e.state])}</span></td>
      <td>${e.consignment != null ? html`<a href="${consoleUrl(`/consignments/${e.consignment}`)}">${e.consignment}</a>` : '—'}</td>
      <td>${e.errors.map((m) => html`<div>${m.field ? html`<code>${m.field}</code>: ` : null}${m.message}</div>`)}</td>
    </tr>`,
    )}
    </tbody>
  </table>`
  }
  ${
    pages > 1
      ? html`<nav class="pager" aria-label="${t('PAGES')}">
    ${view.page > 1 ? pageLink(view.page - 1, 'prev', t('PREVIOUS_PAGE')) : null}
    <span>${t('PAGE_OF', { page: view.page, pages, total: view.total })}</span>
    ${view.page < pages ? pageLink(view.page + 1, 'next', t('NEXT_PAGE')) : null}
  </nav>`
      : null
  }
</section>`;
}
