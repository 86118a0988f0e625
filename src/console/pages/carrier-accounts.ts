import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { classify, httpStatusOf } from '../../api/errors';
import { toCarrierAccountResponse } from '../../api/mappers/carrier-account.mapper';
import { providerIdOf } from '../../api/routes/params';
import { CARRIER_ACCOUNT_STATUS, CARRIER_KINDS, carrierAccountBodies, parseCarrierAccountInput } from '../../domain/carrier-account';
import { DomainError, type Issue } from '../../domain/errors';
import type { ProviderInfo } from '../../services/providers.service';
import type { ConsolePageDeps } from '../console-deps';
import { attrs, html, type Html } from '../html';
import { consoleUrl, csrfField, page, sendPage, type Notice, type PageContext } from '../layout';
import { type Message, asNotices, formatWhen, pageNumber, refusalMessages, textOf } from '../views';

type AccountView = ReturnType<typeof toCarrierAccountResponse>;

/** Accounts a page of the list shows. */
const PAGE_SIZE = 50;
/** The JSON a textarea takes: credentials and settings are small (a rate table of 100 bands is a few kB). */
const MAX_JSON_CHARS = 64 * 1024;

/** The fields of the create form as typed (credentials are never shown again, not even after a refusal). */
interface CreateForm {
  carrier: string;
  description: string;
  settings: string;
  status: string;
}
const EMPTY_FORM: CreateForm = { carrier: 'dhl_express', description: '', settings: '', status: '1' };

/** The API's top-level fields the forms have an input for; a refusal of `credentials.password` shows at `credentials`. */
const FORM_FIELDS = ['carrier', 'description', 'credentials', 'settings', 'status'] as const;
type FormField = (typeof FORM_FIELDS)[number];

/**
 * What each kind takes, read from the API's own body schemas (the OpenAPI document's), so the hints follow the
 * parser: `name?` marks an optional field.
 */
const FIELDS_PER_KIND: { kind: string; credentials: string[]; settings: string[] }[] = (() => {
  const union = carrierAccountBodies.create as unknown as { options: z.ZodObject[] };
  const unwrap = (s: z.ZodType) => (s instanceof z.ZodOptional ? (s.unwrap() as z.ZodType) : s);
  const keys = (s: z.ZodType) =>
    s instanceof z.ZodObject ? Object.entries(s.shape).map(([name, field]) => `${name}${(field as z.ZodType).safeParse(undefined).success ? '?' : ''}`) : [];
  return union.options.map((option) => ({
    kind: String((option.shape.carrier as z.ZodLiteral).value),
    credentials: keys(unwrap(option.shape.credentials as z.ZodType)),
    settings: keys(unwrap(option.shape.settings as z.ZodType)),
  }));
})();

/**
 * A textarea's JSON object, or the refusal of its field. Blank is `undefined` (settings may be left out). The API
 * would refuse a malformed body as a whole; here the field that holds it is named.
 */
function jsonField(text: string, field: 'credentials' | 'settings', issues: Issue[]): Record<string, unknown> | undefined {
  if (!text.trim()) return undefined;
  let value: unknown;
  try {
    value = text.length <= MAX_JSON_CHARS ? JSON.parse(text) : undefined;
  } catch {
    value = undefined;
  }
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value as Record<string, unknown>;
  issues.push({ code: 'INVALID_TYPE', field, params: { type: 'object' } });
  return undefined;
}

/**
 * Parses a body as the API's POST or PUT does, after the textareas' JSON (`undefined`: that form has no such
 * field). A refusal names every field at fault: a textarea that is not a JSON object, and what the parser finds
 * in the other fields.
 */
function parseBody(body: Record<string, unknown>, texts: { credentials?: string; settings?: string }, mode: 'create' | 'replace') {
  const issues: Issue[] = [];
  if (texts.credentials !== undefined && !texts.credentials.trim()) issues.push({ code: 'NOT_BLANK', field: 'credentials' });
  const credentials = texts.credentials === undefined ? undefined : jsonField(texts.credentials, 'credentials', issues);
  const settings = texts.settings === undefined ? undefined : jsonField(texts.settings, 'settings', issues);
  const refused = new Set(issues.map((i) => i.field));
  const complete = {
    ...body,
    // A textarea refused already is checked no further (an empty object stands in for it).
    ...(texts.credentials !== undefined && { credentials: credentials ?? {} }),
    ...(texts.settings !== undefined && { settings: settings ?? {} }),
  };
  try {
    const input = parseCarrierAccountInput(complete, mode);
    if (issues.length) throw new DomainError('VALIDATION_FAILED', issues);
    return input;
  } catch (error) {
    if (!(error instanceof DomainError) || error.code !== 'VALIDATION_FAILED' || error.issues === issues) throw error;
    throw new DomainError('VALIDATION_FAILED', [...issues, ...error.issues.filter((i) => !refused.has((i.field ?? '').split('.')[0]))]);
  }
}

/** Refusals by the form field they name; the others go above the form. */
function placeMessages(messages: Message[]): { byField: Map<FormField, Message[]>; rest: Message[] } {
  const byField = new Map<FormField, Message[]>();
  const rest: Message[] = [];
  for (const m of messages) {
    const top = (m.field ?? '').split('.')[0] as FormField;
    if (m.field && FORM_FIELDS.includes(top)) byField.set(top, [...(byField.get(top) ?? []), m]);
    else rest.push(m);
  }
  return { byField, rest };
}

const DONE_TEXTS = {
  created: 'CA_DONE_CREATED',
  rotated: 'CA_DONE_ROTATED',
  saved: 'CA_DONE_SAVED',
  disabled: 'CA_DONE_DISABLED',
  enabled: 'CA_DONE_ENABLED',
  deleted: 'CA_DONE_DELETED',
} as const;

function doneNotice(ctx: PageContext, done: unknown): Notice[] {
  return typeof done === 'string' && done in DONE_TEXTS ? [{ kind: 'info', text: ctx.t(DONE_TEXTS[done as keyof typeof DONE_TEXTS]) }] : [];
}

type DetailForm = 'rotate' | 'edit';

export function carrierAccountPages(deps: ConsolePageDeps): FastifyPluginAsync {
  const accounts = deps.carrierAccounts;

  const showList = async (
    request: FastifyRequest,
    reply: FastifyReply,
    view: { form?: CreateForm; byField?: Map<FormField, Message[]>; notices?: Notice[]; pageNo?: number; code?: number },
  ) => {
    const pageNo = view.pageNo ?? 1;
    const [{ rows, total }, providers] = await Promise.all([
      accounts.list(request.caller, { page: pageNo, limit: PAGE_SIZE }),
      deps.providerService.list(request.caller.customerId),
    ]);
    return sendPage(
      reply.code(view.code ?? 200),
      listPage(request.console, {
        rows: rows.map(toCarrierAccountResponse),
        total,
        pageNo,
        providers,
        form: view.form ?? EMPTY_FORM,
        byField: view.byField ?? new Map(),
        notices: view.notices ?? [],
      }),
    );
  };

  /** The account of the path, or "not found" (another customer's, a deleted one, or no id at all). */
  const accountOf = async (request: FastifyRequest<{ Params: { provider_id: string } }>) => {
    const id = providerIdOf(request.params.provider_id);
    if (id === undefined) throw new DomainError('CARRIER_ACCOUNT_NOT_FOUND');
    return toCarrierAccountResponse(await accounts.get(request.caller, id));
  };

  const showDetail = async (
    request: FastifyRequest<{ Params: { provider_id: string } }>,
    reply: FastifyReply,
    view: { notices: Notice[]; refused?: { form: DetailForm; byField: Map<FormField, Message[]>; description?: string; settings?: string }; code?: number },
  ) => sendPage(reply.code(view.code ?? 200), detailPage(request.console, { account: await accountOf(request), ...view }));

  /**
   * A PUT of the account as it is, with `change` applied: what the API's replace takes (every field; credentials
   * left out are kept). Done → back to the account with a notice; refused → its page with the refusals in place.
   */
  const replace = async (
    request: FastifyRequest<{ Params: { provider_id: string }; Body: Record<string, unknown> }>,
    reply: FastifyReply,
    change: { form?: DetailForm; description?: string; credentials?: string; settings?: string; status?: number },
    done: keyof typeof DONE_TEXTS,
  ) => {
    const ctx = request.console;
    const current = await accountOf(request);
    try {
      const input = parseBody(
        {
          carrier: current.carrier,
          description: change.description ?? current.description,
          settings: current.settings,
          status: change.status ?? current.status,
        },
        { credentials: change.credentials, settings: change.settings },
        'replace',
      );
      await accounts.replace(request.caller, current.provider_id, input);
    } catch (error) {
      const messages = refusalMessages(error, ctx.locale);
      if (!messages || classify(error)!.code === 'CARRIER_ACCOUNT_NOT_FOUND') throw error;
      const { byField, rest } = placeMessages(messages);
      const notices: Notice[] = [{ kind: 'error', text: ctx.t('FORM_HAS_ERRORS') }, ...asNotices(rest)];
      const refused = change.form ? { form: change.form, byField, description: change.description, settings: change.settings } : undefined;
      if (!refused) for (const list of byField.values()) notices.push(...asNotices(list));
      return showDetail(request, reply, { notices, refused, code: httpStatusOf(classify(error)!.code) });
    }
    return reply.redirect(consoleUrl(`/carrier-accounts/${current.provider_id}`, { done }), 303);
  };

  return async (app) => {
    app.get<{ Querystring: Record<string, unknown> }>('/carrier-accounts', { schema: { hide: true } }, async (request, reply) =>
      showList(request, reply, { notices: doneNotice(request.console, request.query.done), pageNo: pageNumber(request.query.page, PAGE_SIZE) }),
    );

    app.post<{ Body: Record<string, unknown> }>('/carrier-accounts', { schema: { hide: true } }, async (request, reply) => {
      const ctx = request.console;
      const b = request.body ?? {};
      const form: CreateForm = { carrier: textOf(b.carrier), description: textOf(b.description), settings: textOf(b.settings), status: textOf(b.status) };
      let providerId: number;
      try {
        const input = parseBody(
          {
            carrier: form.carrier,
            description: form.description,
            status: form.status === '0' ? CARRIER_ACCOUNT_STATUS.DISABLED : CARRIER_ACCOUNT_STATUS.ACTIVE,
          },
          { credentials: textOf(b.credentials), settings: form.settings },
          'create',
        );
        providerId = (await accounts.create(request.caller, input)).providerId;
      } catch (error) {
        const messages = refusalMessages(error, ctx.locale);
        if (!messages) throw error;
        const { byField, rest } = placeMessages(messages);
        const notices: Notice[] = [{ kind: 'error', text: ctx.t('FORM_HAS_ERRORS') }, ...asNotices(rest)];
        return showList(request, reply, { form, byField, notices, code: httpStatusOf(classify(error)!.code) });
      }
      // A redirect: the credentials are not in the answer, and a reload does not add the account twice.
      return reply.redirect(consoleUrl(`/carrier-accounts/${providerId}`, { done: 'created' }), 303);
    });

    app.get<{ Params: { provider_id: string }; Querystring: Record<string, unknown> }>(
      '/carrier-accounts/:provider_id',
      { schema: { hide: true } },
      async (request, reply) => showDetail(request, reply, { notices: doneNotice(request.console, request.query.done) }),
    );

    type Post = { Params: { provider_id: string }; Body: Record<string, unknown> };
    app.post<Post>('/carrier-accounts/:provider_id/credentials', { schema: { hide: true } }, (request, reply) =>
      replace(request, reply, { form: 'rotate', credentials: textOf(request.body?.credentials) }, 'rotated'),
    );
    app.post<Post>('/carrier-accounts/:provider_id/edit', { schema: { hide: true } }, (request, reply) =>
      replace(request, reply, { form: 'edit', description: textOf(request.body?.description), settings: textOf(request.body?.settings) }, 'saved'),
    );
    app.post<Post>('/carrier-accounts/:provider_id/disable', { schema: { hide: true } }, (request, reply) =>
      replace(request, reply, { status: CARRIER_ACCOUNT_STATUS.DISABLED }, 'disabled'),
    );
    app.post<Post>('/carrier-accounts/:provider_id/enable', { schema: { hide: true } }, (request, reply) =>
      replace(request, reply, { status: CARRIER_ACCOUNT_STATUS.ACTIVE }, 'enabled'),
    );
    app.post<Post>('/carrier-accounts/:provider_id/delete', { schema: { hide: true } }, async (request, reply) => {
      const account = await accountOf(request);
      await accounts.remove(request.caller, account.provider_id);
      return reply.redirect(consoleUrl('/carrier-accounts', { done: 'deleted' }), 303);
    });
  };
}

function statusBadge(ctx: PageContext, status: number): Html {
  return status === CARRIER_ACCOUNT_STATUS.ACTIVE
    ? html`<span class="status ca-active">${ctx.t('CA_ACTIVE')}</span>`
    : html`<span class="status ca-disabled">${ctx.t('CA_DISABLED')}</span>`;
}

function statusUpdates(ctx: PageContext, a: AccountView): Html {
  return a.status_webhook.registered
    ? html`${ctx.t('CA_PUSHED')}`
    : html`${ctx.t('CA_POLLED')}${a.status_webhook.error ? html`<div class="hint">${a.status_webhook.error}</div>` : null}`;
}

function fieldErrors(id: string, errors: Message[] | undefined): Html | null {
  return errors?.length
    ? html`<p class="field-error" id="${id}-error">${errors.map((e, i) => html`${i ? html`<br>` : null}${e.field && e.field.includes('.') ? html`<code>${e.field}</code>: ` : null}${e.message}`)}</p>`
    : null;
}

/** aria-invalid and aria-describedby of a control with an optional hint and its refusals. */
function described(id: string, hint: boolean, errors: Message[] | undefined): Html {
  const ids = [hint ? `${id}-hint` : '', errors?.length ? `${id}-error` : ''].filter(Boolean).join(' ');
  return attrs({ 'aria-invalid': errors?.length ? 'true' : undefined, 'aria-describedby': ids || undefined });
}

function textInput(id: string, name: string, label: string, value: string, errors: Message[] | undefined): Html {
  return html`<div class="field"><label for="${id}">${label}</label><input id="${id}" name="${name}" value="${value}" maxlength="255"${described(id, false, errors)}>${fieldErrors(id, errors)}</div>`;
}

function jsonArea(id: string, name: string, label: string, value: string, errors: Message[] | undefined, hint?: Html | string, required = false): Html {
  return html`<div class="field"><label for="${id}">${label}</label>
  <textarea id="${id}" name="${name}" rows="5" class="json" spellcheck="false" autocomplete="off"${attrs({ required })}${described(id, !!hint, errors)}>${value}</textarea>
  ${hint ? html`<p class="hint" id="${id}-hint">${hint}</p>` : null}
  ${fieldErrors(id, errors)}</div>`;
}

function kindTable(ctx: PageContext): Html {
  const { t } = ctx;
  const list = (names: string[]) =>
    names.length === 0
      ? t('NONE')
      : names.map(
          (n, i) =>
            html`${i ? ', ' : null}<code>${n.replace(/\?$/, '')}</code>${n.endsWith('?') ? html` <span class="hint">(${t('CA_OPTIONAL')})</span>` : null}`,
        );
  return html`<details class="ca-kinds"><summary>${t('CA_FIELDS_PER_KIND')}</summary>
<table class="list"><thead><tr><th scope="col">${t('CA_KIND')}</th><th scope="col">${t('CA_CREDENTIALS_HINT_COLUMN')}</th><th scope="col">${t('CA_SETTINGS_COLUMN')}</th></tr></thead>
<tbody>${FIELDS_PER_KIND.map((k) => html`<tr><th scope="row"><code>${k.kind}</code></th><td>${list(k.credentials)}</td><td>${list(k.settings)}</td></tr>`)}</tbody></table>
</details>`;
}

function createForm(ctx: PageContext, form: CreateForm, byField: Map<FormField, Message[]>, refused: boolean): Html {
  const { t } = ctx;
  const kindErrors = byField.get('carrier');
  const statusErrors = byField.get('status');
  return html`<section class="card" aria-labelledby="ca-create-heading">
<h2 id="ca-create-heading">${t('CA_CREATE_HEADING')}</h2>
<form method="post" action="${consoleUrl('/carrier-accounts')}" class="stack" novalidate>${csrfField(ctx)}
  <div class="field"><label for="ca-carrier">${t('CA_KIND')}</label>
  <select id="ca-carrier" name="carrier"${described('ca-carrier', false, kindErrors)}>
    ${CARRIER_KINDS.map((k) => html`<option value="${k}"${attrs({ selected: form.carrier === k })}>${k}</option>`)}
  </select>${fieldErrors('ca-carrier', kindErrors)}</div>
  ${textInput('ca-description', 'description', t('CA_DESCRIPTION'), form.description, byField.get('description'))}
  ${jsonArea(
    'ca-credentials',
    'credentials',
    t('CA_CREDENTIALS'),
    '',
    byField.get('credentials'),
    refused ? `${t('CA_CREDENTIALS_ONCE')} ${t('CA_CREDENTIALS_AGAIN')}` : t('CA_CREDENTIALS_ONCE'),
    true,
  )}
  ${jsonArea('ca-settings', 'settings', t('CA_SETTINGS'), form.settings, byField.get('settings'))}
  ${kindTable(ctx)}
  <div class="field"><label for="ca-status">${t('CA_STATUS')}</label>
  <select id="ca-status" name="status"${described('ca-status', false, statusErrors)}>
    <option value="1"${attrs({ selected: form.status !== '0' })}>${t('CA_ACTIVE')}</option>
    <option value="0"${attrs({ selected: form.status === '0' })}>${t('CA_DISABLED')}</option>
  </select>${fieldErrors('ca-status', statusErrors)}</div>
  <button type="submit">${t('CA_CREATE')}</button>
</form>
</section>`;
}

function providersTable(ctx: PageContext, providers: ProviderInfo[]): Html {
  const { t } = ctx;
  const yes = (v: boolean) => (v ? t('YES') : t('NO'));
  return html`<section class="card" aria-labelledby="ca-providers-heading">
<h2 id="ca-providers-heading">${t('CA_PROVIDERS_HEADING')}</h2>
<p class="hint">${t('CA_PROVIDERS_HINT')}</p>
<table class="list providers">
  <thead><tr><th scope="col">${t('CA_PROVIDER_ID')}</th><th scope="col">${t('CA_NAME')}</th><th scope="col">${t('CA_KIND')}</th><th scope="col">${t('CA_STATUS')}</th>
  <th scope="col">${t('CA_QUOTES')}</th><th scope="col">${t('CA_CANCEL_IN_TRANSIT')}</th><th scope="col">${t('CA_PUSH_TRACKING')}</th></tr></thead>
  <tbody>${providers.map(
    (
      p,
    ) => html`<tr data-provider="${p.id}"><td>${p.id}</td><th scope="row">${p.name}</th><td><code>${p.carrier}</code></td><td>${statusBadge(ctx, p.status)}</td>
    <td>${yes(p.supports.quotes)}</td><td>${yes(p.supports.cancel_in_transit)}</td><td>${yes(p.supports.push_tracking)}</td></tr>`,
  )}</tbody>
</table>
</section>`;
}

function listPage(
  ctx: PageContext,
  view: {
    rows: AccountView[];
    total: number;
    pageNo: number;
    providers?: ProviderInfo[];
    form: CreateForm;
    byField: Map<FormField, Message[]>;
    notices: Notice[];
  },
): Html {
  const { t } = ctx;
  const pages = Math.max(1, Math.ceil(view.total / PAGE_SIZE));
  const table =
    view.rows.length === 0
      ? html`<p class="empty">${t('CA_NONE')}</p>`
      : html`<table class="list accounts">
  <thead><tr>
    <th scope="col">${t('CA_PROVIDER_ID')}</th><th scope="col">${t('CA_KIND')}</th><th scope="col">${t('CA_DESCRIPTION')}</th><th scope="col">${t('CA_STATUS')}</th>
    <th scope="col">${t('CA_CREDENTIALS_HINT_COLUMN')}</th><th scope="col">${t('CA_STATUS_UPDATES')}</th><th scope="col">${t('CA_CREATED_AT')}</th>
  </tr></thead>
  <tbody>${view.rows.map(
    (a) => html`<tr data-provider="${a.provider_id}">
    <th scope="row"><a href="${consoleUrl(`/carrier-accounts/${a.provider_id}`)}">${a.provider_id}</a></th>
    <td><code>${a.carrier}</code></td><td>${a.description || t('NONE')}</td><td>${statusBadge(ctx, a.status)}</td>
    <td class="ca-hint"><code>${a.credentials_hint}</code></td><td>${statusUpdates(ctx, a)}</td><td>${formatWhen(a.created_at, ctx.locale)}</td>
  </tr>`,
  )}</tbody>
</table>`;
  const pager =
    pages > 1
      ? html`<nav class="pager" aria-label="${t('PAGES')}">
  ${view.pageNo > 1 ? html`<a rel="prev" href="${consoleUrl('/carrier-accounts', { page: view.pageNo - 1 })}">${t('PREVIOUS_PAGE')}</a>` : null}
  <span>${t('PAGE_OF', { page: view.pageNo, pages, total: view.total })}</span>
  ${view.pageNo < pages ? html`<a rel="next" href="${consoleUrl('/carrier-accounts', { page: view.pageNo + 1 })}">${t('NEXT_PAGE')}</a>` : null}
</nav>`
      : null;
  return page(
    ctx,
    t('NAV_CARRIER_ACCOUNTS'),
    html`<section class="card" aria-labelledby="ca-list-heading">
<h2 id="ca-list-heading">${t('CA_ACCOUNTS_HEADING')}</h2>
<p class="hint">${t('CA_ACCOUNTS_HINT')}</p>
${table}${pager}
</section>
${createForm(ctx, view.form, view.byField, view.byField.size > 0 || view.notices.some((n) => n.kind === 'error'))}
${view.providers ? providersTable(ctx, view.providers) : null}`,
    { notices: view.notices, current: '/carrier-accounts' },
  );
}

function detailPage(
  ctx: PageContext,
  view: {
    account: AccountView;
    notices: Notice[];
    refused?: { form: DetailForm; byField: Map<FormField, Message[]>; description?: string; settings?: string };
  },
): Html {
  const { t } = ctx;
  const a = view.account;
  const here = `/carrier-accounts/${a.provider_id}`;
  const errorsOf = (form: DetailForm, field: FormField) => (view.refused?.form === form ? view.refused.byField.get(field) : undefined);
  const active = a.status === CARRIER_ACCOUNT_STATUS.ACTIVE;
  const settingsText = view.refused?.form === 'edit' && view.refused.settings !== undefined ? view.refused.settings : JSON.stringify(a.settings, null, 2);
  const descriptionText = view.refused?.form === 'edit' && view.refused.description !== undefined ? view.refused.description : a.description;
  const facts = html`<dl class="facts">
  <dt>${t('CA_PROVIDER_ID')}</dt><dd>${a.provider_id}</dd>
  <dt>${t('CA_KIND')}</dt><dd><code>${a.carrier}</code></dd>
  <dt>${t('CA_DESCRIPTION')}</dt><dd>${a.description || t('NONE')}</dd>
  <dt>${t('CA_STATUS')}</dt><dd id="ca-status-value">${statusBadge(ctx, a.status)}</dd>
  <dt>${t('CA_CREDENTIALS_HINT_COLUMN')}</dt><dd class="ca-hint"><code>${a.credentials_hint}</code></dd>
  <dt>${t('CA_STATUS_UPDATES')}</dt><dd>${statusUpdates(ctx, a)}</dd>
  <dt>${t('CA_SETTINGS_COLUMN')}</dt><dd><pre class="ca-settings">${JSON.stringify(a.settings, null, 2)}</pre></dd>
  <dt>${t('CA_CREATED_AT')}</dt><dd>${formatWhen(a.created_at, ctx.locale)}</dd>
  <dt>${t('CA_UPDATED_AT')}</dt><dd>${formatWhen(a.updated_at, ctx.locale)}</dd>
</dl>`;
  const kind = FIELDS_PER_KIND.find((k) => k.kind === a.carrier);
  const credentialNames = kind ? kind.credentials.map((n) => n.replace(/\?$/, '')).join(', ') : '';
  return page(
    ctx,
    t('CA_DETAIL_TITLE', { id: a.provider_id }),
    html`<p><a href="${consoleUrl('/carrier-accounts')}">← ${t('NAV_CARRIER_ACCOUNTS')}</a></p>
<div class="grid">
  <section class="card">${facts}</section>
  <section class="card actions"><h2>${t('CA_STATUS')}</h2>
    <p class="hint" id="ca-disable-hint">${t('CA_DISABLE_HINT')}</p>
    <form method="post" action="${consoleUrl(`${here}/${active ? 'disable' : 'enable'}`)}" class="inline">${csrfField(ctx)}<button type="submit"${attrs({ class: active ? 'danger' : undefined, 'aria-describedby': 'ca-disable-hint' })}>${t(active ? 'CA_DISABLE' : 'CA_ENABLE')}</button></form>
    <form method="post" action="${consoleUrl(`${here}/delete`)}" class="inline">${csrfField(ctx)}<button type="submit" class="danger">${t('CA_DELETE')}</button></form>
  </section>
</div>
<div class="grid">
  <section class="card" aria-labelledby="ca-rotate-heading"><h2 id="ca-rotate-heading">${t('CA_ROTATE_HEADING')}</h2>
    <form method="post" action="${consoleUrl(`${here}/credentials`)}" class="stack" novalidate>${csrfField(ctx)}
      ${jsonArea(
        'ca-new-credentials',
        'credentials',
        t('CA_NEW_CREDENTIALS'),
        '',
        errorsOf('rotate', 'credentials'),
        html`${t('CA_ROTATE_HINT')} ${t('CA_CREDENTIALS_ONCE')}${credentialNames ? html` <code>${credentialNames}</code>` : null}`,
        true,
      )}
      <button type="submit">${t('CA_ROTATE')}</button>
    </form>
  </section>
  <section class="card" aria-labelledby="ca-edit-heading"><h2 id="ca-edit-heading">${t('CA_EDIT_HEADING')}</h2>
    <form method="post" action="${consoleUrl(`${here}/edit`)}" class="stack" novalidate>${csrfField(ctx)}
      <p class="hint">${t('CA_EDIT_HINT')}</p>
      ${textInput('ca-edit-description', 'description', t('CA_DESCRIPTION'), descriptionText, errorsOf('edit', 'description'))}
      ${jsonArea('ca-edit-settings', 'settings', t('CA_SETTINGS'), settingsText, errorsOf('edit', 'settings'))}
      <button type="submit">${t('CA_SAVE')}</button>
    </form>
  </section>
</div>`,
    { notices: view.notices, current: '/carrier-accounts' },
  );
}
