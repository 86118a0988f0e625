import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { classify, httpStatusOf } from '../../api/errors';
import { toDeliveryResponse, toWebhookDetail } from '../../api/mappers/webhook.mapper';
import { DomainError } from '../../domain/errors';
import { DATA_TYPES, parseWebhookInput, SECURITY_TYPES, WEBHOOK_EVENTS, WEBHOOK_LIMITS, WEBHOOK_STATUS, type WebhookInput } from '../../domain/webhook';
import type { ConsolePageDeps } from '../console-deps';
import { attrs, html, type Html } from '../html';
import { consoleUrl, csrfField, page, sendPage, type Notice, type PageContext } from '../layout';
import { type Message, asNotices, formatWhen, pageNumber, refusalMessages, textOf } from '../views';

type WebhookView = ReturnType<typeof toWebhookDetail>;
type DeliveryView = ReturnType<typeof toDeliveryResponse>;

/** Webhooks a page of the list shows. */
const PAGE_SIZE = 50;
/** Attempts a page of the delivery log shows. */
const DELIVERY_PAGE_SIZE = 25;
/** Empty header rows the create form offers beyond the filled ones. */
const SPARE_HEADER_ROWS = 2;

/** The create form as typed: shown again with the refusals when the API's parser refuses it. */
interface WebhookForm {
  description: string;
  endpoint: string;
  subscribedEvent: string;
  data: string;
  status: string;
  headers: { key: string; value: string }[];
}

const EMPTY_FORM: WebhookForm = { description: '', endpoint: '', subscribedEvent: WEBHOOK_EVENTS[0], data: '', status: '1', headers: [] };

function readForm(body: Record<string, unknown> | undefined): WebhookForm {
  const b = body ?? {};
  const headers: WebhookForm['headers'] = [];
  for (let i = 0; i < WEBHOOK_LIMITS.securityDataEntries; i++) headers.push({ key: textOf(b[`header_key_${i}`]), value: textOf(b[`header_value_${i}`]) });
  while (headers.length > 0 && !headers[headers.length - 1].key && !headers[headers.length - 1].value) headers.pop();
  return {
    description: textOf(b.description),
    endpoint: textOf(b.endpoint),
    subscribedEvent: textOf(b.subscribedEvent),
    data: textOf(b.data),
    status: textOf(b.status),
    headers,
  };
}

/**
 * The form as the API's create body: the console offers the only security and data types there are, and leaves
 * out header rows left empty. `rowOf[i]` is the form row of securityData entry i (to place its refusals).
 */
function createBody(form: WebhookForm): { body: Record<string, unknown>; rowOf: number[] } {
  const rowOf: number[] = [];
  const securityData: { headerKey: string; headerValue: string }[] = [];
  form.headers.forEach((h, row) => {
    if (!h.key.trim() && !h.value.trim()) return;
    rowOf.push(row);
    securityData.push({ headerKey: h.key, headerValue: h.value });
  });
  return {
    body: {
      description: form.description,
      endpoint: form.endpoint,
      subscribedEvent: form.subscribedEvent,
      securityType: SECURITY_TYPES[0],
      dataType: DATA_TYPES[0],
      data: form.data,
      securityData,
      status: form.status === '0' ? WEBHOOK_STATUS.INACTIVE : WEBHOOK_STATUS.ACTIVE,
    },
    rowOf,
  };
}

/** Refusals by the form field they name (the API's field → the input's name); the others go above the form. */
function placeMessages(messages: Message[], rowOf: number[]): { byField: Map<string, string[]>; rest: Message[] } {
  const byField = new Map<string, string[]>();
  const rest: Message[] = [];
  for (const m of messages) {
    const header = /^securityData\.(\d+)\.(headerKey|headerValue)$/.exec(m.field ?? '');
    const name = header
      ? `header_${header[2] === 'headerKey' ? 'key' : 'value'}_${rowOf[Number(header[1])] ?? Number(header[1])}`
      : ['description', 'endpoint', 'subscribedEvent', 'data', 'status', 'securityData'].includes(m.field ?? '')
        ? m.field!
        : undefined;
    if (name) byField.set(name, [...(byField.get(name) ?? []), m.message]);
    else rest.push(m);
  }
  return { byField, rest };
}

export function webhookPages(deps: ConsolePageDeps): FastifyPluginAsync {
  const webhooks = deps.webhooks;

  const showList = async (
    request: FastifyRequest,
    reply: FastifyReply,
    view: { form?: WebhookForm; byField?: Map<string, string[]>; notices?: Notice[]; pageNo?: number; code?: number },
  ) => {
    const pageNo = view.pageNo ?? 1;
    const { rows, total } = await webhooks.list(request.caller, { page: pageNo, limit: PAGE_SIZE });
    return sendPage(
      reply.code(view.code ?? 200),
      listPage(request.console, {
        rows: rows.map(toWebhookDetail),
        total,
        pageNo,
        form: view.form ?? EMPTY_FORM,
        byField: view.byField ?? new Map(),
        notices: view.notices ?? [],
      }),
    );
  };

  const showDetail = async (
    request: FastifyRequest<{ Params: { webhook_id: string }; Querystring?: unknown }>,
    reply: FastifyReply,
    view: { notices: Notice[]; pageNo?: number; eventId?: string; code?: number },
  ) => {
    const webhook = toWebhookDetail(await webhooks.get(request.caller, request.params.webhook_id));
    const pageNo = view.pageNo ?? 1;
    const { rows, total } = await webhooks.deliveries(request.caller, webhook.webhook_id, { page: pageNo, limit: DELIVERY_PAGE_SIZE, eventId: view.eventId });
    const deliveries = rows.map(toDeliveryResponse);
    // When each failing queue (this webhook × a consignment) tries again: its workflow's pending attempt.
    const failing = new Set(
      latestAttempts(deliveries).flatMap((d, i) => (d && !deliveries[i].success && deliveries[i].consignment !== null ? [deliveries[i].consignment!] : [])),
    );
    const retries = new Map(
      await Promise.all([...failing].map(async (id) => [id, await webhooks.nextAttempt(request.caller, webhook.webhook_id, id)] as const)),
    );
    return sendPage(
      reply.code(view.code ?? 200),
      detailPage(request.console, { webhook, deliveries, retries, total, pageNo, eventId: view.eventId, notices: view.notices }),
    );
  };

  /** Sets the webhook's status as the API's PATCH does (`{ "status": 0 | 1 }`); a customer's choice clears the service's reason. */
  const setStatus = async (
    request: FastifyRequest<{ Params: { webhook_id: string }; Body: Record<string, unknown> }>,
    reply: FastifyReply,
    status: WebhookInput['status'],
  ) => {
    const patch = parseWebhookInput({ status }, 'patch');
    await webhooks.update(request.caller, request.params.webhook_id, patch);
    const done = status === WEBHOOK_STATUS.ACTIVE ? 'enabled' : 'disabled';
    if (request.body?.back === 'list') return reply.redirect(consoleUrl('/webhooks', { done }), 303);
    return reply.redirect(consoleUrl(`/webhooks/${request.params.webhook_id}`, { done }), 303);
  };

  return async (app) => {
    app.get<{ Querystring: Record<string, unknown> }>('/webhooks', { schema: { hide: true } }, async (request, reply) => {
      const { t } = request.console;
      const done = request.query.done;
      const notices: Notice[] = [];
      if (done === 'disabled') notices.push({ kind: 'info', text: t('WH_DONE_DISABLED') });
      if (done === 'enabled') notices.push({ kind: 'info', text: t('WH_DONE_ENABLED') });
      if (done === 'deleted') notices.push({ kind: 'info', text: t('WH_DONE_DELETED') });
      return showList(request, reply, { notices, pageNo: pageNumber(request.query.page, PAGE_SIZE) });
    });

    app.post<{ Body: Record<string, unknown> }>('/webhooks', { schema: { hide: true } }, async (request, reply) => {
      const ctx = request.console;
      const form = readForm(request.body);
      const { body, rowOf } = createBody(form);
      try {
        const input = parseWebhookInput(body, 'create') as WebhookInput;
        const { webhook, secret } = await webhooks.create(request.caller, input);
        // The secret is in this answer only (as in the API's 201): not in a URL, not on any later page.
        return sendPage(reply.code(201), createdPage(ctx, toWebhookDetail(webhook), secret));
      } catch (error) {
        const messages = refusalMessages(error, ctx.locale);
        if (!messages) throw error;
        const { byField, rest } = placeMessages(messages, rowOf);
        const notices: Notice[] = [{ kind: 'error', text: ctx.t('FORM_HAS_ERRORS') }, ...asNotices(rest)];
        return showList(request, reply, { form, byField, notices, code: httpStatusOf(classify(error)!.code) });
      }
    });

    app.get<{ Params: { webhook_id: string }; Querystring: Record<string, unknown> }>(
      '/webhooks/:webhook_id',
      { schema: { hide: true } },
      async (request, reply) => {
        const { t } = request.console;
        const notices: Notice[] = [];
        const done = request.query.done;
        if (done === 'disabled') notices.push({ kind: 'info', text: t('WH_DONE_DISABLED') });
        if (done === 'enabled') notices.push({ kind: 'info', text: t('WH_DONE_ENABLED') });
        if (done === 'redelivered') notices.push({ kind: 'info', text: t('WH_DONE_REDELIVERED') });
        // As the API reads `event_id`: trimmed, lower case (event ids are UUIDs).
        const event = textOf(request.query.event_id).trim().toLowerCase().slice(0, 255);
        return showDetail(request, reply, { notices, pageNo: pageNumber(request.query.page, DELIVERY_PAGE_SIZE), eventId: event || undefined });
      },
    );

    app.post<{ Params: { webhook_id: string }; Body: Record<string, unknown> }>('/webhooks/:webhook_id/disable', { schema: { hide: true } }, (request, reply) =>
      setStatus(request, reply, WEBHOOK_STATUS.INACTIVE),
    );
    app.post<{ Params: { webhook_id: string }; Body: Record<string, unknown> }>('/webhooks/:webhook_id/enable', { schema: { hide: true } }, (request, reply) =>
      setStatus(request, reply, WEBHOOK_STATUS.ACTIVE),
    );

    app.post<{ Params: { webhook_id: string } }>('/webhooks/:webhook_id/delete', { schema: { hide: true } }, async (request, reply) => {
      await webhooks.remove(request.caller, request.params.webhook_id);
      return reply.redirect(consoleUrl('/webhooks', { done: 'deleted' }), 303);
    });

    app.post<{ Params: { webhook_id: string; event_id: string } }>(
      '/webhooks/:webhook_id/deliveries/:event_id/redeliver',
      { schema: { hide: true } },
      async (request, reply) => {
        const ctx = request.console;
        const eventId = request.params.event_id.trim();
        try {
          if (!eventId) throw new DomainError('WEBHOOK_EVENT_NOT_FOUND');
          await webhooks.redeliver(request.caller, request.params.webhook_id, eventId);
        } catch (error) {
          const messages = refusalMessages(error, ctx.locale);
          // The webhook itself not found (or not the caller's) is the not-found page; other refusals show on its page.
          if (!messages || classify(error)!.code === 'WEBHOOK_NOT_FOUND') throw error;
          return showDetail(request, reply, { notices: asNotices(messages), code: httpStatusOf(classify(error)!.code) });
        }
        return reply.redirect(consoleUrl(`/webhooks/${request.params.webhook_id}`, { done: 'redelivered' }), 303);
      },
    );
  };
}

function statusBadge(ctx: PageContext, w: WebhookView): Html {
  return w.status === WEBHOOK_STATUS.ACTIVE
    ? html`<span class="status wh-active">${ctx.t('WH_ACTIVE')}</span>`
    : html`<span class="status wh-disabled">${ctx.t('WH_DISABLED')}</span>`;
}

function statusButton(ctx: PageContext, w: WebhookView, back: 'list' | 'detail'): Html {
  const { t } = ctx;
  const active = w.status === WEBHOOK_STATUS.ACTIVE;
  return html`<form method="post" action="${consoleUrl(`/webhooks/${w.webhook_id}/${active ? 'disable' : 'enable'}`)}" class="inline">${csrfField(ctx)}
  <input type="hidden" name="back" value="${back}">
  <button type="submit"${attrs({ class: active ? 'danger' : undefined, 'aria-label': t(active ? 'WH_DISABLE_LABEL' : 'WH_ENABLE_LABEL', { id: w.webhook_id }) })}>${t(active ? 'WH_DISABLE' : 'WH_ENABLE')}</button>
</form>`;
}

/** An input with its label, hint and the refusals of its field (linked by aria-describedby). */
function inputField(
  ctx: PageContext,
  f: { id: string; name: string; label: string; value: string; errors?: string[]; hint?: string; type?: string; required?: boolean; maxlength?: number },
): Html {
  const described = [f.hint ? `${f.id}-hint` : '', f.errors?.length ? `${f.id}-error` : ''].filter(Boolean).join(' ');
  return html`<div class="field">
  <label for="${f.id}">${f.label}</label>
  <input id="${f.id}" name="${f.name}" value="${f.value}"${attrs({
    type: f.type ?? 'text',
    required: f.required,
    maxlength: f.maxlength,
    spellcheck: f.type === 'url' ? 'false' : undefined,
    'aria-invalid': f.errors?.length ? 'true' : undefined,
    'aria-describedby': described || undefined,
  })}>
  ${f.hint ? html`<p class="hint" id="${f.id}-hint">${f.hint}</p>` : null}
  ${fieldErrors(f.id, f.errors)}
</div>`;
}

function fieldErrors(id: string, errors: string[] | undefined): Html | null {
  return errors?.length ? html`<p class="field-error" id="${id}-error">${errors.map((e, i) => html`${i ? html`<br>` : null}${e}`)}</p>` : null;
}

function createForm(ctx: PageContext, form: WebhookForm, byField: Map<string, string[]>): Html {
  const { t } = ctx;
  const rows = Math.min(WEBHOOK_LIMITS.securityDataEntries, Math.max(form.headers.length + SPARE_HEADER_ROWS, 3));
  const headerRows = Array.from({ length: rows }, (_, i) => {
    const h = form.headers[i] ?? { key: '', value: '' };
    return html`<div class="wh-header-row">
  ${inputField(ctx, { id: `wh-header-key-${i}`, name: `header_key_${i}`, label: t('WH_HEADER_NAME', { n: i + 1 }), value: h.key, errors: byField.get(`header_key_${i}`), maxlength: WEBHOOK_LIMITS.text })}
  ${inputField(ctx, { id: `wh-header-value-${i}`, name: `header_value_${i}`, label: t('WH_HEADER_VALUE', { n: i + 1 }), value: h.value, errors: byField.get(`header_value_${i}`), maxlength: WEBHOOK_LIMITS.text })}
</div>`;
  });
  const eventErrors = byField.get('subscribedEvent');
  const statusErrors = byField.get('status');
  // novalidate: the service's parser decides, so refusals read as the API words them, in the page's language.
  return html`<section class="card" aria-labelledby="wh-create-heading">
<h2 id="wh-create-heading">${t('WH_CREATE_HEADING')}</h2>
<form method="post" action="${consoleUrl('/webhooks')}" class="stack" novalidate>${csrfField(ctx)}
  ${inputField(ctx, { id: 'wh-description', name: 'description', label: t('WH_DESCRIPTION'), value: form.description, errors: byField.get('description'), required: true, maxlength: WEBHOOK_LIMITS.text })}
  ${inputField(ctx, { id: 'wh-endpoint', name: 'endpoint', label: t('WH_ENDPOINT'), value: form.endpoint, errors: byField.get('endpoint'), hint: t('WH_ENDPOINT_HINT'), type: 'url', required: true, maxlength: WEBHOOK_LIMITS.text })}
  <div class="field">
    <label for="wh-event">${t('WH_EVENT')}</label>
    <select id="wh-event" name="subscribedEvent"${attrs({ 'aria-invalid': eventErrors ? 'true' : undefined, 'aria-describedby': eventErrors ? 'wh-event-error' : undefined })}>
      ${WEBHOOK_EVENTS.map((e) => html`<option value="${e}"${attrs({ selected: form.subscribedEvent === e })}>${e}</option>`)}
    </select>
    ${fieldErrors('wh-event', eventErrors)}
  </div>
  <fieldset class="wh-headers"${attrs({ 'aria-describedby': byField.get('securityData') ? 'wh-headers-hint wh-headers-error' : 'wh-headers-hint' })}>
    <legend>${t('WH_HEADERS')}</legend>
    <p class="hint" id="wh-headers-hint">${t('WH_HEADERS_HINT')}</p>
    ${fieldErrors('wh-headers', byField.get('securityData'))}
    ${headerRows}
  </fieldset>
  ${inputField(ctx, { id: 'wh-data', name: 'data', label: t('WH_DATA'), value: form.data, errors: byField.get('data'), maxlength: WEBHOOK_LIMITS.text })}
  <div class="field">
    <label for="wh-status">${t('WH_INITIAL_STATUS')}</label>
    <select id="wh-status" name="status"${attrs({ 'aria-invalid': statusErrors ? 'true' : undefined, 'aria-describedby': statusErrors ? 'wh-status-error' : undefined })}>
      <option value="1"${attrs({ selected: form.status !== '0' })}>${t('WH_ACTIVE')}</option>
      <option value="0"${attrs({ selected: form.status === '0' })}>${t('WH_DISABLED')}</option>
    </select>
    ${fieldErrors('wh-status', statusErrors)}
  </div>
  <button type="submit">${t('WH_CREATE')}</button>
</form>
</section>`;
}

function pager(ctx: PageContext, path: string, query: Record<string, string | undefined>, pageNo: number, total: number, size: number): Html | null {
  const { t } = ctx;
  const pages = Math.max(1, Math.ceil(total / size));
  if (pages === 1) return null;
  return html`<nav class="pager" aria-label="${t('PAGES')}">
  ${pageNo > 1 ? html`<a rel="prev" href="${consoleUrl(path, { ...query, page: String(pageNo - 1) })}">${t('PREVIOUS_PAGE')}</a>` : null}
  <span>${t('PAGE_OF', { page: pageNo, pages, total })}</span>
  ${pageNo < pages ? html`<a rel="next" href="${consoleUrl(path, { ...query, page: String(pageNo + 1) })}">${t('NEXT_PAGE')}</a>` : null}
</nav>`;
}

function listPage(
  ctx: PageContext,
  view: { rows: WebhookView[]; total: number; pageNo: number; form: WebhookForm; byField: Map<string, string[]>; notices: Notice[] },
): Html {
  const { t } = ctx;
  const table =
    view.rows.length === 0
      ? html`<p class="empty">${t('WH_NONE')}</p>`
      : html`<table class="list webhooks">
  <thead><tr>
    <th scope="col">${t('WH_DESCRIPTION')}</th><th scope="col">${t('WH_ENDPOINT')}</th><th scope="col">${t('WH_EVENT')}</th>
    <th scope="col">${t('WH_STATUS')}</th><th scope="col">${t('WH_CREATED_AT')}</th><th scope="col">${t('WH_ACTIONS')}</th>
  </tr></thead>
  <tbody>
  ${view.rows.map(
    (w) => html`<tr data-webhook="${w.webhook_id}">
    <th scope="row"><a href="${consoleUrl(`/webhooks/${w.webhook_id}`)}">${w.description}</a><div class="hint"><code>${w.webhook_id}</code></div></th>
    <td class="wh-endpoint"><code>${w.endpoint}</code></td>
    <td><code>${w.subscribedEvent}</code></td>
    <td>${statusBadge(ctx, w)}${w.disabled_reason ? html`<div class="hint">${w.disabled_reason}</div>` : null}</td>
    <td>${formatWhen(w.created_at, ctx.locale, { seconds: true })}</td>
    <td>${statusButton(ctx, w, 'list')}</td>
  </tr>`,
  )}
  </tbody>
</table>`;
  return page(
    ctx,
    t('NAV_WEBHOOKS'),
    html`<section class="card" aria-labelledby="wh-list-heading">
<h2 id="wh-list-heading">${t('WH_LIST_HEADING')}</h2>
<p class="hint">${t('WH_LIST_HINT')}</p>
${table}
${pager(ctx, '/webhooks', {}, view.pageNo, view.total, PAGE_SIZE)}
</section>
${createForm(ctx, view.form, view.byField)}`,
    { notices: view.notices, current: '/webhooks' },
  );
}

function facts(ctx: PageContext, w: WebhookView): Html {
  const { t } = ctx;
  return html`<dl class="facts">
  <dt>${t('WH_ID')}</dt><dd><code>${w.webhook_id}</code></dd>
  <dt>${t('WH_STATUS')}</dt><dd>${statusBadge(ctx, w)}</dd>
  ${w.disabled_reason ? html`<dt>${t('WH_DISABLED_REASON')}</dt><dd>${w.disabled_reason} (${formatWhen(w.disabled_at, ctx.locale, { seconds: true })})</dd>` : null}
  ${w.failing_since ? html`<dt>${t('WH_FAILING_SINCE')}</dt><dd>${formatWhen(w.failing_since, ctx.locale, { seconds: true })}</dd>` : null}
  <dt>${t('WH_ENDPOINT')}</dt><dd class="wh-endpoint"><code>${w.endpoint}</code></dd>
  <dt>${t('WH_EVENT')}</dt><dd><code>${w.subscribedEvent}</code></dd>
  <dt>${t('WH_HEADER_NAMES')}</dt><dd>${w.securityData.length ? w.securityData.map((h, i) => html`${i ? ', ' : null}<code>${h.headerKey}</code>`) : t('NONE')}</dd>
  ${w.data ? html`<dt>${t('WH_DATA')}</dt><dd>${w.data}</dd>` : null}
  <dt>${t('WH_CREATED_AT')}</dt><dd>${formatWhen(w.created_at, ctx.locale, { seconds: true })}</dd>
  <dt>${t('WH_UPDATED_AT')}</dt><dd>${formatWhen(w.updated_at, ctx.locale, { seconds: true })}</dd>
</dl>`;
}

function createdPage(ctx: PageContext, w: WebhookView, secret: string): Html {
  const { t } = ctx;
  return page(
    ctx,
    t('WH_CREATED_TITLE'),
    html`<section class="card" aria-labelledby="wh-secret-heading">
  <h2 id="wh-secret-heading">${t('WH_SECRET')}</h2>
  <p class="notice info" role="status" id="wh-secret-once">${t('WH_SECRET_ONCE')}</p>
  <label for="wh-secret" class="visually-hidden">${t('WH_SECRET')}</label>
  <input id="wh-secret" class="wh-secret" readonly value="${secret}" aria-describedby="wh-secret-once" spellcheck="false" autocomplete="off">
  <p><button type="button" data-copy="wh-secret" data-copied="${t('WH_COPIED')}">${t('WH_COPY')}</button> <span id="wh-secret-copied" role="status"></span></p>
</section>
<section class="card"><h2>${w.description}</h2>${facts(ctx, w)}</section>
<p><a href="${consoleUrl(`/webhooks/${w.webhook_id}`)}">${t('WH_OPEN')}</a> · <a href="${consoleUrl('/webhooks')}">${t('NAV_WEBHOOKS')}</a></p>`,
    { current: '/webhooks' },
  );
}

/** Newest first: on the first page, an event's first row is its latest attempt (the one a retry follows). */
function latestAttempts(deliveries: DeliveryView[]): boolean[] {
  const seen = new Set<string>();
  return deliveries.map((d) => (seen.has(d.event_id) ? false : (seen.add(d.event_id), true)));
}

function detailPage(
  ctx: PageContext,
  view: {
    webhook: WebhookView;
    deliveries: DeliveryView[];
    /** the next attempt of each consignment's failing queue (undefined: none waits) */
    retries: Map<number, Date | undefined>;
    total: number;
    pageNo: number;
    eventId?: string;
    notices: Notice[];
  },
): Html {
  const { t } = ctx;
  const w = view.webhook;
  const active = w.status === WEBHOOK_STATUS.ACTIVE;
  const here = `/webhooks/${w.webhook_id}`;
  const latest = latestAttempts(view.deliveries);
  const stateOf = (d: DeliveryView, i: number) => {
    if (d.success) return html`<span class="status wh-delivered">${t('WH_STATE_DELIVERED')}</span>`;
    const next = d.consignment !== null ? view.retries.get(d.consignment) : undefined;
    if (active && latest[i] && view.pageNo === 1)
      return html`<span class="status wh-retrying">${t('WH_STATE_RETRYING')}</span>${
        next ? html` <span class="hint">${t('WH_NEXT_RETRY', { at: formatWhen(next, ctx.locale, { seconds: true }) })}</span>` : null
      }`;
    return html`<span class="status wh-failed">${t('WH_STATE_FAILED')}</span>`;
  };
  const log =
    view.deliveries.length === 0
      ? html`<p class="empty">${t('WH_NO_DELIVERIES')}</p>`
      : html`<table class="list deliveries">
  <thead><tr>
    <th scope="col">${t('WH_EVENT_ID')}</th><th scope="col">${t('WH_CONSIGNMENT')}</th><th scope="col">${t('WH_ATTEMPT')}</th><th scope="col">${t('WH_ATTEMPTED_AT')}</th>
    <th scope="col">${t('WH_HTTP_STATUS')}</th><th scope="col">${t('WH_LATENCY')}</th><th scope="col">${t('WH_ERROR')}</th>
    <th scope="col">${t('WH_STATE')}</th><th scope="col">${t('WH_ACTIONS')}</th>
  </tr></thead>
  <tbody>
  ${view.deliveries.map(
    (d, i) => html`<tr class="${d.success ? 'ok' : 'failed'}" data-event="${d.event_id}">
    <th scope="row"><a href="${consoleUrl(here, { event_id: d.event_id })}"><code>${d.event_id}</code></a></th>
    <td>${d.consignment === null ? '—' : html`<a href="${consoleUrl(`/consignments/${d.consignment}`)}">${d.consignment}</a>`}</td>
    <td>${d.attempt}${d.redelivery ? html` <span class="hint">(${t('WH_REDELIVERY')})</span>` : null}</td>
    <td><time datetime="${d.attempted_at}">${formatWhen(d.attempted_at, ctx.locale, { seconds: true })}</time></td>
    <td class="http-status">${d.http_status ?? '—'}</td>
    <td>${d.latency_ms} ms</td>
    <td>${d.error ?? ''}</td>
    <td>${stateOf(d, i)}</td>
    <td>${
      latest[i] && active
        ? html`<form method="post" action="${consoleUrl(`${here}/deliveries/${d.event_id}/redeliver`)}" class="inline">${csrfField(ctx)}<button type="submit" aria-label="${t('WH_REDELIVER_LABEL', { event: d.event_id })}">${t('WH_REDELIVER')}</button></form>`
        : null
    }</td>
  </tr>`,
  )}
  </tbody>
</table>`;
  return page(
    ctx,
    t('WH_DETAIL_TITLE', { name: w.description }),
    html`<p><a href="${consoleUrl('/webhooks')}">← ${t('NAV_WEBHOOKS')}</a></p>
<div class="grid">
  <section class="card">${facts(ctx, w)}</section>
  <section class="card actions"><h2>${t('WH_ACTIONS')}</h2>
    <p>${statusButton(ctx, w, 'detail')}</p>
    <form method="post" action="${consoleUrl(`${here}/delete`)}" class="inline">${csrfField(ctx)}<button type="submit" class="danger">${t('WH_DELETE')}</button></form>
  </section>
</div>
<section class="card" aria-labelledby="wh-log-heading">
  <h2 id="wh-log-heading">${t('WH_DELIVERIES')}</h2>
  <p class="hint">${t('WH_DELIVERIES_HINT')} <a href="${consoleUrl(here, { event_id: view.eventId, page: view.pageNo > 1 ? view.pageNo : undefined })}">${t('WH_REFRESH')}</a></p>
  ${view.eventId ? html`<p>${t('WH_ONLY_EVENT', { event: view.eventId })} <a href="${consoleUrl(here)}">${t('WH_ALL_EVENTS')}</a></p>` : null}
  ${active ? null : html`<p class="hint">${t('WH_REDELIVER_INACTIVE')}</p>`}
  ${log}
  ${pager(ctx, here, { event_id: view.eventId }, view.pageNo, view.total, DELIVERY_PAGE_SIZE)}
</section>`,
    { notices: view.notices, current: '/webhooks' },
  );
}
