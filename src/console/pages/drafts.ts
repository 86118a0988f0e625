import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { classify, errorEnvelope, httpStatusOf } from '../../api/errors';
import { resolveCountry } from '../../domain/countries';
import { LIMITS, parseDraftInput, PREFERENCE, type DraftInput } from '../../domain/draft';
import { DomainError } from '../../domain/errors';
import { toDraftInput } from '../../domain/processing-planner';
import { isDraft, requireDraft } from '../../domain/statuses';
import type { ConsoleTextKey } from '../../i18n/console';
import type { ProviderInfo } from '../../services/providers.service';
import type { ConsolePageDeps } from '../console-deps';
import { attrs, html, type Html } from '../html';
import { consoleUrl, csrfField, page, sendPage, type PageContext } from '../layout';
import { addressResults, searchAddressesFor, type AddressResultsView } from './address-search';

/*
 * The form is the draft body of the API (docs/api.md, "Draft fields") under indexed names: `reference_no`,
 * `consignee[phone_number]`, `packages[0][weight]`, `packages[0][items][1][gtip]`. The server turns it into that
 * body and parses it with parseDraftInput, so the console refuses exactly what the API refuses, and an issue's
 * field (`consignee.phone_number`, `packages.0.items.1.gtip`) names the input it belongs to. Adding and removing
 * rows and the address search without script are round trips: a submit button named `op` says which.
 */

const PARTIES = ['consignor', 'consignee'] as const;
type Party = (typeof PARTIES)[number];

const PARTY_FIELDS = ['name', 'attention_name', 'phone_number', 'email', 'address', 'country', 'city', 'state', 'postal_code', 'state_code'] as const;
type PartyField = (typeof PARTY_FIELDS)[number];
const PACKAGE_FIELDS = ['package_type', 'weight', 'length', 'width', 'height'] as const;
// Stored with a package but not asked for on the form: saving replaces the whole package list, so they ride along hidden.
const PACKAGE_KEPT = ['provider_packaging_type', 'post_type', 'dangerous_goods'] as const;
const ITEM_FIELDS = ['description', 'quantity', 'unit_price', 'currency_code', 'origin', 'gtip'] as const;
const ITEM_KEPT = ['category'] as const;
type PackageField = (typeof PACKAGE_FIELDS)[number] | (typeof PACKAGE_KEPT)[number];
type ItemField = (typeof ITEM_FIELDS)[number] | (typeof ITEM_KEPT)[number];

const NUMBER_FIELDS: ReadonlySet<string> = new Set([
  'preference',
  'provider_id',
  'package_type',
  'post_type',
  'weight',
  'length',
  'width',
  'height',
  'unit_price',
  'quantity',
]);
const BOOLEAN_FIELDS: ReadonlySet<string> = new Set(['dangerous_goods']);
/** A number as people type it: `12`, `1.5`, `1,5` (a Turkish keyboard's decimal comma). */
const NUMBER_TEXT = /^[+-]?\d+(?:[.,]\d+)?$/;

const PARTY_LABELS: Record<PartyField, ConsoleTextKey> = {
  name: 'DRAFT_PARTY_NAME',
  attention_name: 'DRAFT_PARTY_ATTENTION',
  phone_number: 'DRAFT_PARTY_PHONE',
  email: 'DRAFT_PARTY_EMAIL',
  address: 'DRAFT_PARTY_ADDRESS',
  country: 'DRAFT_PARTY_COUNTRY',
  city: 'DRAFT_PARTY_CITY',
  state: 'DRAFT_PARTY_STATE',
  postal_code: 'DRAFT_PARTY_POSTAL_CODE',
  state_code: 'DRAFT_PARTY_STATE_CODE',
};
const PACKAGE_LABELS: Record<(typeof PACKAGE_FIELDS)[number], ConsoleTextKey> = {
  package_type: 'DRAFT_PACKAGE_TYPE',
  weight: 'DRAFT_WEIGHT',
  length: 'DRAFT_LENGTH',
  width: 'DRAFT_WIDTH',
  height: 'DRAFT_HEIGHT',
};
const ITEM_LABELS: Record<(typeof ITEM_FIELDS)[number], ConsoleTextKey> = {
  description: 'DRAFT_ITEM_DESCRIPTION',
  quantity: 'QUANTITY',
  unit_price: 'DRAFT_ITEM_UNIT_PRICE',
  currency_code: 'DRAFT_ITEM_CURRENCY',
  origin: 'DRAFT_ITEM_ORIGIN',
  gtip: 'DRAFT_ITEM_GTIP',
};
const TOP_LABELS: Record<string, ConsoleTextKey> = { reference_no: 'DRAFT_REFERENCE', preference: 'DRAFT_PREFERENCE', provider_id: 'CARRIER' };

type Row<K extends string> = Record<K, string>;
interface PackageRow {
  fields: Row<PackageField>;
  items: Row<ItemField>[];
}
/** The form as typed: every value a string, rows in the order shown. */
interface DraftForm {
  reference_no: string;
  preference: string;
  provider_id: string;
  consignor: Row<PartyField>;
  consignee: Row<PartyField>;
  /** what was typed in each party's address search */
  lookup: Record<Party, string>;
  packages: PackageRow[];
}

interface Refusal {
  /** every message, in the API's words, with the form path of its field where it names one */
  messages: { message: string; field?: string }[];
  byField: Map<string, string[]>;
}

interface FormView {
  mode: 'create' | 'update';
  /** the draft's id when editing */
  id?: number;
  form: DraftForm;
  providers: ProviderInfo[];
  refusal?: Refusal;
  /** a party's address search done without script (a round trip) */
  lookups: Partial<Record<Party, AddressResultsView>>;
}

const blankRow = <K extends string>(keys: readonly K[]): Row<K> => Object.fromEntries(keys.map((k) => [k, ''])) as Row<K>;
const blankPackage = (): PackageRow => ({ fields: blankRow([...PACKAGE_FIELDS, ...PACKAGE_KEPT]), items: [] });
const blankItem = (): Row<ItemField> => blankRow([...ITEM_FIELDS, ...ITEM_KEPT]);

function emptyForm(): DraftForm {
  return {
    reference_no: '',
    preference: '',
    provider_id: '',
    consignor: blankRow(PARTY_FIELDS),
    consignee: blankRow(PARTY_FIELDS),
    lookup: { consignor: '', consignee: '' },
    packages: [blankPackage()],
  };
}

const shown = (value: unknown): string => (value === null || value === undefined ? '' : String(value));

/** The stored draft as the form shows it. */
function formOfDraft(draft: DraftInput): DraftForm {
  const party = (p: DraftInput['consignor']) => Object.fromEntries(PARTY_FIELDS.map((k) => [k, shown(p?.[k])])) as Row<PartyField>;
  return {
    reference_no: shown(draft.reference_no),
    preference: shown(draft.preference),
    provider_id: shown(draft.provider_id),
    consignor: party(draft.consignor),
    consignee: party(draft.consignee),
    lookup: { consignor: '', consignee: '' },
    packages: (draft.packages ?? []).map((p) => ({
      fields: Object.fromEntries([...PACKAGE_FIELDS, ...PACKAGE_KEPT].map((k) => [k, shown(p[k])])) as Row<PackageField>,
      items: (p.items ?? []).map((item) => Object.fromEntries([...ITEM_FIELDS, ...ITEM_KEPT].map((k) => [k, shown(item[k])])) as Row<ItemField>),
    })),
  };
}

type FormBody = Record<string, unknown>;

/** One posted value (a repeated name counts once). */
function posted(body: FormBody, name: string): string {
  const value = body[name];
  const first = Array.isArray(value) ? value[0] : value;
  return typeof first === 'string' ? first : '';
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The row numbers under `prefix` (`packages`, `packages[2][items]`), in order: a removed row leaves a gap. */
function rowNumbers(body: FormBody, prefix: string, max: number): number[] {
  const pattern = new RegExp(`^${escapeRegExp(prefix)}\\[(\\d{1,6})\\]`);
  const found = new Set<number>();
  for (const name of Object.keys(body)) {
    const match = pattern.exec(name);
    if (match) found.add(Number(match[1]));
  }
  return [...found].sort((a, b) => a - b).slice(0, max);
}

/** The form as posted, rows renumbered from 0. */
function formOfBody(body: FormBody): DraftForm {
  const party = (name: Party) => Object.fromEntries(PARTY_FIELDS.map((k) => [k, posted(body, `${name}[${k}]`)])) as Row<PartyField>;
  return {
    reference_no: posted(body, 'reference_no'),
    preference: posted(body, 'preference'),
    provider_id: posted(body, 'provider_id'),
    consignor: party('consignor'),
    consignee: party('consignee'),
    lookup: { consignor: posted(body, 'consignor_lookup'), consignee: posted(body, 'consignee_lookup') },
    packages: rowNumbers(body, 'packages', LIMITS.packages).map((p) => ({
      fields: Object.fromEntries([...PACKAGE_FIELDS, ...PACKAGE_KEPT].map((k) => [k, posted(body, `packages[${p}][${k}]`)])) as Row<PackageField>,
      items: rowNumbers(body, `packages[${p}][items]`, LIMITS.items).map(
        (i) => Object.fromEntries([...ITEM_FIELDS, ...ITEM_KEPT].map((k) => [k, posted(body, `packages[${p}][items][${i}][${k}]`)])) as Row<ItemField>,
      ),
    })),
  };
}

const isBlank = (row: Record<string, string>) => Object.values(row).every((v) => v.trim() === '');

interface DraftBody {
  body: Record<string, unknown>;
  /** the form row of each package sent, and of each of its items (blank rows are not sent) */
  packageRows: number[];
  itemRows: number[][];
}

/**
 * The API's draft body of the form. A blank value is absent on create; on update it is null, which clears what
 * is stored (parties merge field by field, so an absent value would keep the old one). Numbers become numbers;
 * anything else typed into a number field is sent as typed, for the schema to refuse on that field.
 */
function draftBodyOf(form: DraftForm, mode: 'create' | 'update'): DraftBody {
  const valueOf = (name: string, raw: string): unknown => {
    const text = raw.trim();
    if (text === '') return mode === 'create' ? undefined : null;
    if (NUMBER_FIELDS.has(name)) return NUMBER_TEXT.test(text) ? Number(text.replace(',', '.')) : text;
    if (BOOLEAN_FIELDS.has(name)) return text === 'true' ? true : text === 'false' ? false : text;
    return text;
  };
  const objectOf = (row: Record<string, string>) => {
    const out: Record<string, unknown> = {};
    for (const [name, raw] of Object.entries(row)) {
      const value = valueOf(name, raw);
      if (value !== undefined) out[name] = value;
    }
    return out;
  };
  const body: Record<string, unknown> = objectOf({ reference_no: form.reference_no, preference: form.preference, provider_id: form.provider_id });
  body.consignor = objectOf(form.consignor);
  body.consignee = objectOf(form.consignee);
  const packageRows: number[] = [];
  const itemRows: number[][] = [];
  const packages: Record<string, unknown>[] = [];
  form.packages.forEach((row, p) => {
    const items = row.items.map((item, i) => ({ item, i })).filter(({ item }) => !isBlank(item));
    if (isBlank(row.fields) && items.length === 0) return;
    packageRows.push(p);
    itemRows.push(items.map(({ i }) => i));
    packages.push({ ...objectOf(row.fields), items: items.map(({ item }) => objectOf(item)) });
  });
  body.packages = packages;
  return { body, packageRows, itemRows };
}

/** An issue's field in the body (`packages.1.items.0.gtip`) as the path of its input on the form. */
function formPathOf(field: string, sent: DraftBody): string {
  const match = /^packages\.(\d+)(?:\.items\.(\d+))?(.*)$/.exec(field);
  if (!match) return field;
  const p = Number(match[1]);
  const row = sent.packageRows[p];
  if (row === undefined) return field;
  if (match[2] === undefined) return `packages.${row}${match[3]}`;
  const item = sent.itemRows[p]?.[Number(match[2])];
  return item === undefined ? field : `packages.${row}.items.${item}${match[3]}`;
}

/** The API's refusal, in the page's language, each message tied to the input its field names. */
function refusalOf(error: DomainError, locale: PageContext['locale'], sent?: DraftBody): Refusal {
  const messages = errorEnvelope(error.issues, locale).errors.map((m) => (m.field && sent ? { ...m, field: formPathOf(m.field, sent) } : m));
  const byField = new Map<string, string[]>();
  for (const m of messages) if (m.field) byField.set(m.field, [...(byField.get(m.field) ?? []), m.message]);
  return { messages, byField };
}

/** A refusal to show on the form; anything else (not found, unavailable, unexpected) goes to the error pages. */
function shownRefusal(error: unknown): DomainError | undefined {
  const known = classify(error);
  if (!known) return undefined;
  const status = httpStatusOf(known.code);
  return status === 404 || status >= 500 ? undefined : known;
}

const partyOf = (name: string | undefined): Party | undefined => PARTIES.find((p) => p === name);

/** ids and names of inputs: `consignee.postal_code` → `consignee-postal-code`, `consignee[postal_code]`. */
const idOf = (path: string) => path.replace(/[._]/g, '-');
const nameOf = (path: string) => {
  const [head, ...rest] = path.split('.');
  return head + rest.map((part) => `[${part}]`).join('');
};

export function draftPages(deps: ConsolePageDeps): FastifyPluginAsync {
  const providersOf = async (request: FastifyRequest) => deps.providerService.list(request.caller.customerId);

  /** The address search page's search and results for one party's box (its "use this address" buttons fill the party). */
  const lookUp = (ctx: PageContext, party: Party, keyword: string, country: string) =>
    // Drafts take ISO2 or ISO3 in any case; the search takes ISO2 (and words its own refusal of anything else).
    searchAddressesFor(deps.addresses, { country: resolveCountry(country)?.iso2 ?? country.trim(), q: keyword, in: 'all', target: party }, ctx);

  /** The caller's consignment `id` and whether it is still a draft (a missing one or another customer's: not found). */
  const editable = async (request: FastifyRequest<{ Params: { id: string } }>) => {
    const id = Number(request.params.id);
    if (!Number.isSafeInteger(id) || id < 1) throw new DomainError('CONSIGNMENT_NOT_FOUND');
    const found = await deps.consignments.find({ id, customerId: request.caller.customerId });
    return { id, found, draft: isDraft(found.consignment.status) };
  };

  const notDraftPage = (ctx: PageContext, id: number) =>
    page(
      ctx,
      ctx.t('DRAFT_EDIT_TITLE', { id }),
      html`${errorSummary(ctx, refusalOf(new DomainError('NOT_DRAFT'), ctx.locale))}
<p><a href="${consoleUrl(`/consignments/${id}`)}">← ${ctx.t('DRAFT_BACK_TO', { id })}</a></p>`,
    );

  /** A posted form: a row added or removed or an address looked up (the form shown again), or the draft saved. */
  const submit = async (
    request: FastifyRequest<{ Body: FormBody }>,
    reply: FastifyReply,
    mode: 'create' | 'update',
    stored?: { id: number; status: number },
  ) => {
    const id = stored?.id;
    const ctx = request.console;
    const body = request.body ?? {};
    const form = formOfBody(body);
    const view: FormView = { mode, id, form, providers: await providersOf(request), lookups: {} };
    const [op, ...args] = posted(body, 'op').split(':');
    const [p, i] = args.map((a) => (/^\d{1,6}$/.test(a) ? Number(a) : -1));
    if (op === 'add-package') {
      if (form.packages.length < LIMITS.packages) form.packages.push(blankPackage());
    } else if (op === 'remove-package') {
      if (p >= 0) form.packages.splice(p, 1);
    } else if (op === 'add-item') {
      const row = form.packages[p];
      if (row && row.items.length < LIMITS.items) row.items.push(blankItem());
    } else if (op === 'remove-item') {
      if (i >= 0) form.packages[p]?.items.splice(i, 1);
    } else if (op === 'search' && partyOf(args[0])) {
      const party = partyOf(args[0])!;
      view.lookups[party] = await lookUp(ctx, party, form.lookup[party], form[party].country);
    } else {
      const sent = draftBodyOf(form, mode);
      try {
        const draft = parseDraftInput(sent.body, mode);
        // The consignment's workflow refuses a draft that was processed (NOT_DRAFT); one that has ended (cancelled,
        // delivered) is past asking, and the answer would be "not found": the same rule, said first.
        if (stored) requireDraft(stored.status);
        const record =
          mode === 'create' ? await deps.consignments.createDraft(request.caller, draft) : await deps.consignments.updateDraft(request.caller, id!, draft);
        return reply.redirect(consoleUrl(`/consignments/${record.id}`), 303);
      } catch (error) {
        const refusal = shownRefusal(error);
        if (!refusal) throw error;
        view.refusal = refusalOf(refusal, ctx.locale, sent);
        return sendPage(reply.code(httpStatusOf(refusal.code)), formPage(ctx, view));
      }
    }
    return sendPage(reply, formPage(ctx, view));
  };

  return async (app) => {
    app.get('/drafts/new', { schema: { hide: true } }, async (request, reply) =>
      sendPage(reply, formPage(request.console, { mode: 'create', form: emptyForm(), providers: await providersOf(request), lookups: {} })),
    );

    app.post<{ Body: FormBody }>('/drafts/new', { schema: { hide: true } }, (request, reply) => submit(request, reply, 'create'));

    app.get<{ Params: { id: string } }>('/drafts/:id/edit', { schema: { hide: true } }, async (request, reply) => {
      const { id, found, draft } = await editable(request);
      if (!draft) return sendPage(reply.code(httpStatusOf('NOT_DRAFT')), notDraftPage(request.console, id));
      const form = formOfDraft(toDraftInput(found.consignment));
      return sendPage(reply, formPage(request.console, { mode: 'update', id, form, providers: await providersOf(request), lookups: {} }));
    });

    app.post<{ Params: { id: string }; Body: FormBody }>('/drafts/:id/edit', { schema: { hide: true } }, async (request, reply) => {
      const { id, found } = await editable(request);
      return submit(request, reply, 'update', { id, status: found.consignment.status });
    });

    // The address search box's results (htmx): `<party>_lookup` in the country of `<party>[country]`.
    app.get<{ Querystring: Record<string, unknown> }>('/drafts/addresses', { schema: { hide: true } }, async (request, reply) => {
      const party = partyOf(posted(request.query, 'target'));
      if (!party) throw new DomainError('ROUTE_NOT_FOUND');
      const found = await lookUp(request.console, party, posted(request.query, `${party}_lookup`), posted(request.query, `${party}[country]`));
      return sendPage(reply, addressResults(request.console, found, party));
    });
  };
}

/** The label of a form path, for the summary: `Consignee · Phone`, `Package 2 · Item 1 · HS code`. */
function labelOf(ctx: PageContext, path: string): string | undefined {
  const { t } = ctx;
  const parts = path.split('.');
  if (parts.length === 1 && TOP_LABELS[path]) return t(TOP_LABELS[path]);
  const party = partyOf(parts[0]);
  if (party && parts.length === 2 && parts[1] in PARTY_LABELS)
    return `${t(party === 'consignor' ? 'CONSIGNOR' : 'CONSIGNEE')} · ${t(PARTY_LABELS[parts[1] as PartyField])}`;
  if (parts[0] === 'packages' && parts.length >= 3) {
    const n = Number(parts[1]) + 1;
    if (parts.length === 3 && parts[2] in PACKAGE_LABELS)
      return `${t('DRAFT_PACKAGE_N', { n })} · ${t(PACKAGE_LABELS[parts[2] as keyof typeof PACKAGE_LABELS])}`;
    if (parts.length === 5 && parts[2] === 'items' && parts[4] in ITEM_LABELS)
      return `${t('DRAFT_PACKAGE_N', { n })} · ${t('DRAFT_ITEM_N', { m: Number(parts[3]) + 1 })} · ${t(ITEM_LABELS[parts[4] as keyof typeof ITEM_LABELS])}`;
  }
  return undefined;
}

/** Every message of a refusal, at the top: those of a field link to its input. */
function errorSummary(ctx: PageContext, refusal: Refusal): Html {
  return html`<div class="notice error error-summary" role="alert" tabindex="-1" id="error-summary">
  <p>${ctx.t('FORM_HAS_ERRORS')}</p>
  <ul>${refusal.messages.map((m) => {
    const label = m.field ? labelOf(ctx, m.field) : undefined;
    return html`<li>${m.field ? (label ? html`<a href="#${idOf(m.field)}">${label}</a>: ` : html`<code>${m.field}</code>: `) : null}${m.message}</li>`;
  })}</ul>
</div>`;
}

/** One labelled input with the messages of its field under it. */
function field(
  view: FormView,
  ctx: PageContext,
  path: string,
  label: string,
  control: (common: Html) => Html,
  options: { hiddenLabel?: boolean; wide?: boolean } = {},
): Html {
  const id = idOf(path);
  const errors = view.refusal?.byField.get(path) ?? [];
  const common = attrs({
    id,
    name: nameOf(path),
    'aria-invalid': errors.length ? 'true' : undefined,
    'aria-describedby': errors.length ? `${id}-error` : undefined,
  });
  return html`<div${attrs({ class: ['field', options.wide ? 'wide' : '', errors.length ? 'invalid' : ''].filter(Boolean).join(' ') })}>
<label for="${id}"${attrs({ class: options.hiddenLabel ? 'visually-hidden' : undefined })}>${label}</label>${control(common)}${
    errors.length ? html`<p class="field-error" id="${id}-error">${errors.join(' ')}</p>` : null
  }</div>`;
}

const textInput =
  (value: string, extra: Record<string, string | undefined> = {}) =>
  (common: Html) =>
    html`<input${common} value="${value}"${attrs(extra)}>`;
// Text with a numeric keyboard rather than type="number": "1,5" reaches the server as typed (a number input would
// send nothing for what it cannot read, and the API's refusal could not say what was wrong).
const numberInput = (value: string, whole = false) => textInput(value, { inputmode: whole ? 'numeric' : 'decimal' });
const select = (value: string, options: { value: string; text: string }[]) => (common: Html) =>
  html`<select${common}>${options.map((o) => html`<option value="${o.value}"${attrs({ selected: o.value === value })}>${o.text}</option>`)}</select>`;

function partySection(view: FormView, ctx: PageContext, party: Party, action: string): Html {
  const { t } = ctx;
  const values = view.form[party];
  const input = (name: PartyField, extra: Record<string, string | undefined> = {}, wide = false) =>
    field(view, ctx, `${party}.${name}`, t(PARTY_LABELS[name]), textInput(values[name], extra), { wide });
  const lookupId = `${party}-lookup`;
  return html`<section class="card party-form" aria-labelledby="${party}-heading">
<h2 id="${party}-heading">${t(party === 'consignor' ? 'CONSIGNOR' : 'CONSIGNEE')}</h2>
<div class="fields">
${input('name', { autocomplete: 'name' }, true)}
${input('attention_name', { autocomplete: 'organization' }, true)}
${input('phone_number', { type: 'tel', autocomplete: 'tel' })}
${input('email', { type: 'email', autocomplete: 'email' })}
${field(view, ctx, `${party}.address`, t('DRAFT_PARTY_ADDRESS'), (common) => html`<textarea${common} rows="2">${values.address}</textarea>`, { wide: true })}
${input('country', { autocomplete: 'off', placeholder: 'TR' })}
<div class="field wide lookup">
  <label for="${lookupId}">${t('DRAFT_LOOKUP')}</label>
  <div class="lookup-row">
    <input id="${lookupId}" name="${party}_lookup" type="search" value="${view.form.lookup[party]}" autocomplete="off" data-lookup
      aria-describedby="${lookupId}-hint" aria-controls="${party}-results"
      hx-get="${consoleUrl('/drafts/addresses', { target: party })}" hx-trigger="input changed delay:250ms, search" hx-target="#${party}-results"
      hx-include="#${party}-country" hx-sync="this:replace">
    <button type="submit" class="secondary" name="op" value="search:${party}" formaction="${action}#${lookupId}">${t('SEARCH')}</button>
  </div>
  <p class="hint" id="${lookupId}-hint">${t('DRAFT_LOOKUP_HINT')}</p>
  <div id="${party}-results" class="lookup-results" aria-live="polite">${view.lookups[party] ? addressResults(ctx, view.lookups[party], party) : null}</div>
</div>
${input('city', { autocomplete: 'off' })}
${input('state', { autocomplete: 'off' })}
${input('postal_code', { autocomplete: 'off' })}
${input('state_code', { autocomplete: 'off' })}
</div>
</section>`;
}

function packageSection(view: FormView, ctx: PageContext, row: PackageRow, p: number, action: string): Html {
  const { t } = ctx;
  const n = p + 1;
  const at = (name: string) => `packages.${p}.${name}`;
  const itemsId = `package-${p}-items`;
  return html`<fieldset class="package" id="package-${p}">
<legend>${t('DRAFT_PACKAGE_N', { n })}</legend>
<div class="fields">
${field(
  view,
  ctx,
  at('package_type'),
  t('DRAFT_PACKAGE_TYPE'),
  select(row.fields.package_type, [
    { value: '', text: t('DRAFT_PACKAGE_TYPE_ANY') },
    { value: '1', text: t('DRAFT_PACKAGE_BOX') },
    { value: '2', text: t('DRAFT_PACKAGE_ENVELOPE') },
  ]),
)}
${(['weight', 'length', 'width', 'height'] as const).map((name) => field(view, ctx, at(name), t(PACKAGE_LABELS[name]), numberInput(row.fields[name])))}
</div>
${PACKAGE_KEPT.map((name) => html`<input type="hidden" name="${nameOf(at(name))}" value="${row.fields[name]}">`)}
<table class="list items" id="${itemsId}">
<caption>${t('DRAFT_ITEMS_OF', { n })}</caption>
${
  row.items.length === 0
    ? html`<tbody><tr><td class="empty">${t('DRAFT_NO_ITEMS')}</td></tr></tbody>`
    : html`<thead><tr><th scope="col">#</th>${ITEM_FIELDS.map((name) => html`<th scope="col">${t(ITEM_LABELS[name])}</th>`)}<th scope="col"><span class="visually-hidden">${t('DRAFT_REMOVE_ITEM')}</span></th></tr></thead>
<tbody>${row.items.map((item, i) => {
        const m = i + 1;
        const itemAt = (name: string) => at(`items.${i}.${name}`);
        return html`<tr>
<th scope="row">${m}</th>
${ITEM_FIELDS.map(
  (name) =>
    html`<td>${field(
      view,
      ctx,
      itemAt(name),
      `${t(ITEM_LABELS[name])} (${t('DRAFT_PACKAGE_N', { n })}, ${t('DRAFT_ITEM_N', { m })})`,
      name === 'quantity' || name === 'unit_price' ? numberInput(item[name], name === 'quantity') : textInput(item[name]),
      { hiddenLabel: true },
    )}</td>`,
)}
<td>${ITEM_KEPT.map((name) => html`<input type="hidden" name="${nameOf(itemAt(name))}" value="${item[name]}">`)}<button type="submit" class="secondary" name="op" value="remove-item:${p}:${i}" formaction="${action}#${itemsId}" aria-label="${t('DRAFT_REMOVE_ITEM_LABEL', { n, m })}">${t('DRAFT_REMOVE_ITEM')}</button></td>
</tr>`;
      })}</tbody>`
}
</table>
<div class="row-actions">
${row.items.length < LIMITS.items ? html`<button type="submit" class="secondary" name="op" value="add-item:${p}" formaction="${action}#${itemsId}">${t('DRAFT_ADD_ITEM', { n })}</button>` : null}
<button type="submit" class="secondary danger-outline" name="op" value="remove-package:${p}" formaction="${action}#packages">${t('DRAFT_REMOVE_PACKAGE', { n })}</button>
</div>
</fieldset>`;
}

function formPage(ctx: PageContext, view: FormView): Html {
  const { t } = ctx;
  const { form } = view;
  const action = view.mode === 'create' ? consoleUrl('/drafts/new') : consoleUrl(`/drafts/${view.id}/edit`);
  const title = view.mode === 'create' ? t('DRAFT_NEW_TITLE') : t('DRAFT_EDIT_TITLE', { id: view.id! });
  const chosen = Number(form.provider_id);
  const providers = view.providers.filter((p) => p.status === 1 || p.id === chosen);
  const providerOptions = [
    { value: '', text: t('DRAFT_PROVIDER_NONE') },
    ...providers.map((p) => ({ value: String(p.id), text: `${p.name} (#${p.id})` })),
    ...(form.provider_id && !providers.some((p) => String(p.id) === form.provider_id) ? [{ value: form.provider_id, text: `#${form.provider_id}` }] : []),
  ];
  const back = view.mode === 'create' ? consoleUrl('/consignments') : consoleUrl(`/consignments/${view.id}`);
  const body = html`${view.mode === 'update' ? html`<p><a href="${back}">← ${t('DRAFT_BACK_TO', { id: view.id! })}</a></p>` : null}
${view.refusal ? errorSummary(ctx, view.refusal) : null}
<p class="hint">${t('DRAFT_FORM_HINT')}</p>
<form method="post" action="${action}" class="draft-form" novalidate>
${csrfField(ctx)}
<button type="submit" name="op" value="save" class="visually-hidden" tabindex="-1" aria-hidden="true">${view.mode === 'create' ? t('DRAFT_CREATE') : t('DRAFT_SAVE')}</button>
<section class="card" aria-labelledby="shipment-heading">
<h2 id="shipment-heading">${t('DRAFT_SHIPMENT')}</h2>
<div class="fields roomy">
${field(view, ctx, 'reference_no', t('DRAFT_REFERENCE'), textInput(form.reference_no, { autocomplete: 'off' }))}
${field(
  view,
  ctx,
  'preference',
  t('DRAFT_PREFERENCE'),
  select(form.preference, [
    { value: '', text: t('DRAFT_PREFERENCE_LATER') },
    { value: String(PREFERENCE.SPECIFIC), text: t('DRAFT_PREFERENCE_SPECIFIC') },
    { value: String(PREFERENCE.CHEAPEST), text: t('CHOICE_CHEAPEST') },
    { value: String(PREFERENCE.FASTEST), text: t('CHOICE_FASTEST') },
  ]),
)}
${field(view, ctx, 'provider_id', t('CARRIER'), select(form.provider_id, providerOptions))}
</div>
</section>
<div class="grid">${PARTIES.map((party) => partySection(view, ctx, party, action))}</div>
<section class="card" id="packages" aria-labelledby="packages-heading">
<h2 id="packages-heading">${t('PACKAGES')}</h2>
${form.packages.length === 0 ? html`<p class="empty">${t('DRAFT_NO_PACKAGES')}</p>` : null}
${form.packages.map((row, p) => packageSection(view, ctx, row, p, action))}
${
  form.packages.length < LIMITS.packages
    ? html`<p><button type="submit" class="secondary" name="op" value="add-package" formaction="${action}#package-${form.packages.length}">${t('DRAFT_ADD_PACKAGE')}</button></p>`
    : null
}
</section>
<div class="form-actions">
<button type="submit" name="op" value="save">${view.mode === 'create' ? t('DRAFT_CREATE') : t('DRAFT_SAVE')}</button>
<a href="${back}">${t('CANCEL')}</a>
</div>
</form>`;
  return page(ctx, title, body, { current: view.mode === 'create' ? '/drafts/new' : undefined });
}
