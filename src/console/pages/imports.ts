import multipart from '@fastify/multipart';
import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { classify, errorEnvelope, httpStatusOf } from '../../api/errors';
import { toImportResponse } from '../../api/mappers/import.mapper';
import { sendLabelBatch } from '../../api/routes/label-batches.routes';
import type { ImportRecord } from '../../db/imports.repository';
import { PREFERENCE } from '../../domain/draft';
import { DomainError } from '../../domain/errors';
import { FINISHED_STATES, type ImportState } from '../../domain/imports';
import { parsePageRequest } from '../../domain/pagination';
import { csvField, PRESET_NAMES, PRESETS, templateCsv } from '../../imports/presets';
import type { ConsoleTextKey } from '../../i18n/console';
import { SUCCESS_MESSAGES, translate } from '../../i18n/messages';
import { parseLabelBatchQuery } from '../../labels/label-batch';
import type { ProviderInfo } from '../../services/providers.service';
import type { ImportErrorEntry, ImportService, StoredUpload, UploadPart } from '../../services/imports.service';
import { attrs, html, type Html } from '../html';
import { consoleUrl, csrfField, page, sendPage, type Notice, type PageContext } from '../layout';
import type { ConsolePageDeps } from '../console-deps';
import { formatWhen } from '../views';

/** Imports on a page of the list (the API's default page). */
const PAGE_SIZE = 20;
/** Problems on a page of the detail (the API's default page of errors). */
const ERRORS_PAGE_SIZE = 100;

type ImportAnswer = ReturnType<typeof toImportResponse>;
type FormValues = Map<string, string>;
type FieldErrors = Map<string, string[]>;

/** The upload form's fields besides the file, by name (a party field's name is its option path, so refusals find it). */
const SENDER_FIELDS = [
  ['name', 'IMP_SENDER_NAME'],
  ['phone_number', 'IMP_SENDER_PHONE'],
  ['address', 'IMP_SENDER_ADDRESS'],
  ['city', 'IMP_SENDER_CITY'],
  ['postal_code', 'IMP_SENDER_POSTAL_CODE'],
  ['country', 'IMP_SENDER_COUNTRY'],
] as const satisfies readonly (readonly [string, ConsoleTextKey])[];
const FORM_FIELDS = new Set(['preset', 'choice', 'process', 'package.weight', 'address_resolver_type', ...SENDER_FIELDS.map(([name]) => `consignor.${name}`)]);

const STATE_TEXT: Record<ImportState, ConsoleTextKey> = {
  queued: 'IMP_STATE_QUEUED',
  running: 'IMP_STATE_RUNNING',
  completed: 'IMP_STATE_COMPLETED',
  failed: 'IMP_STATE_FAILED',
  cancelled: 'IMP_STATE_CANCELLED',
};

const PRINT_CHOICES = [
  ['pdf-a4', 'PRINT_A4'],
  ['pdf-label', 'PRINT_LABEL'],
  ['zpl', 'PRINT_ZPL'],
] as const satisfies readonly (readonly [string, ConsoleTextKey])[];

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

const size = (bytes: number) => (bytes < 1024 * 1024 ? `${(bytes / 1024).toFixed(1)} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`);

const finished = (state: ImportState) => FINISHED_STATES.includes(state);

/** A number as a form gives it (decimal comma allowed); anything else stays text, for the options' schema to refuse. */
function formNumber(value: string): number | string {
  const text = value.trim();
  return /^[-+]?\d+([.,]\d+)?$/.test(text) ? Number(text.replace(',', '.')) : text;
}

/**
 * The import's options from the upload form: its fields over the optional JSON (the API's own options object),
 * field by field. Unchecked here: checkOptions (parseImportOptions) refuses what the API refuses.
 */
function optionsFromForm(fields: FormValues, json: unknown): unknown {
  if (json !== undefined && !isObject(json)) return json;
  const options: Record<string, unknown> = { ...(json ?? {}) };
  const value = (name: string) => (fields.get(name) ?? '').trim();
  if (value('preset')) options.preset = value('preset');
  if (fields.has('process')) options.process = true;
  const choice = value('choice');
  if (choice === 'cheapest') options.preference = PREFERENCE.CHEAPEST;
  else if (choice === 'fastest') options.preference = PREFERENCE.FASTEST;
  else if (choice) Object.assign(options, { preference: PREFERENCE.SPECIFIC, provider_id: formNumber(choice) });
  if (value('address_resolver_type')) options.address_resolver_type = formNumber(value('address_resolver_type'));
  if (value('package.weight')) options.package = { ...(isObject(options.package) ? options.package : {}), weight: formNumber(value('package.weight')) };
  const sender = Object.fromEntries(SENDER_FIELDS.map(([name]) => [name, value(`consignor.${name}`)]).filter(([, v]) => v !== ''));
  if (Object.keys(sender).length > 0) options.consignor = { ...(isObject(options.consignor) ? options.consignor : {}), ...sender };
  return options;
}

/** Which part of the form a refusal's field names: an input of its own, the sender's box, or the JSON options. */
function formSlot(field: string): string {
  if (field === 'file' || field === 'preset' || field === 'process' || field === 'address_resolver_type' || field === 'package.weight') return field;
  if (field === 'preference' || field === 'provider_id') return 'choice';
  if (field.startsWith('consignor')) return FORM_FIELDS.has(field) ? field : 'consignor';
  return 'options';
}

/**
 * The console's import pages (docs/imports.md): the upload form and the customer's imports, an import's live
 * progress, its rows to fix, its labels, and stopping it. Every call is the import service's, as the API's
 * handlers make it (src/api/routes/imports.routes.ts).
 */
export function importPages(deps: ConsolePageDeps): FastifyPluginAsync {
  return async (app) => {
    const imports = deps.imports;

    // The API registers the multipart parser in its own context: the console needs one of its own. The file's
    // limits are the API's (one byte over, so receiveFile sees the file is too large and says so); the form has
    // more fields than the API's `options` part, one per option.
    await app.register(multipart, {
      limits: { fileSize: imports.maxFileBytes + 1, files: 1, fields: FORM_FIELDS.size + 4, fieldSize: 1024 * 1024, parts: FORM_FIELDS.size + 5 },
    });

    const providersOf = async (request: FastifyRequest): Promise<ProviderInfo[]> =>
      (await deps.providerService.list(request.caller.customerId)).filter((p) => p.status === 1);

    const listView = async (request: FastifyRequest, form: UploadFormView) => {
      const query = request.query as { page?: unknown };
      const pageRequest = parsePageRequest({ page: query.page }, { defaultLimit: PAGE_SIZE });
      const listed = await imports.list(request.caller, { ...pageRequest, limit: PAGE_SIZE });
      return listPage(request.console, {
        form,
        rows: listed.imports.map((record) => ({ record, answer: toImportResponse(record, request.console.locale) })),
        total: listed.total,
        page: pageRequest.page,
        providers: await providersOf(request),
        maxMegabytes: Math.round(imports.maxFileBytes / 1024 / 1024),
      });
    };

    app.get('/imports', { schema: { hide: true } }, async (request, reply) =>
      sendPage(reply, await listView(request, { values: new Map(), errors: new Map(), notices: [] })),
    );

    app.get('/imports/template.csv', { schema: { hide: true } }, async (_request, reply) =>
      reply.type('text/csv; charset=utf-8').header('content-disposition', 'attachment; filename="consignflow-import-template.csv"').send(templateCsv()),
    );

    // A multipart form's CSRF token is its first part: read before the session check (as a form body is parsed
    // before it), the rest of the upload only once the session and token are known good.
    const uploads = new WeakMap<FastifyRequest, { parts: AsyncIterator<UploadPart>; pending?: UploadPart }>();
    app.post(
      '/imports',
      {
        schema: { hide: true },
        preValidation: async (request) => {
          if (!request.isMultipart()) return;
          const parts = request.parts()[Symbol.asyncIterator]() as AsyncIterator<UploadPart>;
          const upload: { parts: AsyncIterator<UploadPart>; pending?: UploadPart } = { parts };
          uploads.set(request, upload);
          if (request.headers['x-csrf-token'] !== undefined) return;
          const first = await parts.next();
          if (first.done) return;
          if (first.value.type === 'field' && first.value.fieldname === '_csrf') request.body = { _csrf: String(first.value.value) };
          else upload.pending = first.value;
        },
        // A refused upload (no session, a forged form) is still arriving: read it to its end so the connection can serve again.
        onResponse: async (request) => {
          const upload = uploads.get(request);
          if (!upload) return;
          uploads.delete(request);
          void (async () => {
            for (let next = await upload.parts.next(); !next.done; next = await upload.parts.next()) if (next.value.type === 'file') next.value.file.resume();
          })().catch(() => undefined);
        },
      },
      async (request, reply) => {
        const upload = uploads.get(request);
        if (!upload) throw new DomainError('MULTIPART_REQUIRED');
        const fields: FormValues = new Map();
        // The parts as receiveUpload reads them (`file`, `options`): the form's own fields are kept aside, a blank
        // JSON box is no options at all.
        const parts = async function* (): AsyncGenerator<UploadPart> {
          if (upload.pending) yield upload.pending;
          for (let next = await upload.parts.next(); !next.done; next = await upload.parts.next()) {
            const part = next.value;
            if (part.type === 'field') {
              const value = typeof part.value === 'string' ? part.value : '';
              if (part.fieldname === 'options') {
                fields.set('options', value);
                if (value.trim() === '') continue;
              } else {
                if (FORM_FIELDS.has(part.fieldname)) fields.set(part.fieldname, value);
                continue;
              }
            }
            yield part;
          }
        };
        let stored: StoredUpload | undefined;
        let started: ImportRecord | undefined;
        try {
          let received: { upload: StoredUpload; rawOptions: unknown };
          try {
            received = await imports.receiveUpload({ kind: 'multipart', parts: parts() });
          } catch (error) {
            if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE')
              throw new DomainError('IMPORT_FILE_TOO_LARGE', { field: 'file', params: { max: Math.round(imports.maxFileBytes / 1024 / 1024) } });
            throw error;
          }
          stored = received.upload;
          const options = await imports.checkOptions(
            request.caller,
            optionsFromForm(fields, fields.get('options')?.trim() ? received.rawOptions : undefined),
            stored,
          );
          // No Idempotency-Key in a form: the redirect after it keeps a reload from sending the file again.
          started = await imports.start(request.caller, stored, options, randomUUID());
        } catch (error) {
          const known = classify(error);
          if (!known) throw error;
          return sendPage(reply.code(httpStatusOf(known.code)), await listView(request, refusedForm(request.console, known, fields)));
        } finally {
          if (stored && !started) await imports.discard(stored);
        }
        return reply.redirect(consoleUrl(`/imports/${started.id}`, { done: 'started' }), 303);
      },
    );

    const own = (request: FastifyRequest<{ Params: { id: string } }>) => imports.get(request.caller, request.params.id);

    app.get<{ Params: { id: string }; Querystring: { done?: string; errors_page?: string } }>(
      '/imports/:id',
      { schema: { hide: true } },
      async (request, reply) => {
        const record = await own(request);
        const notices: Notice[] = [];
        if (request.query.done === 'started') notices.push({ kind: 'info', text: translate(SUCCESS_MESSAGES.IMPORT_ACCEPTED, request.console.locale) });
        if (request.query.done === 'cancelled') notices.push({ kind: 'info', text: translate(SUCCESS_MESSAGES.IMPORT_CANCELLED, request.console.locale) });
        return sendPage(reply, await detailView(imports, request, record, notices));
      },
    );

    app.get<{ Params: { id: string } }>('/imports/:id/progress', { schema: { hide: true } }, async (request, reply) => {
      const ctx = request.console;
      const record = await own(request);
      const answer = toImportResponse(record, ctx.locale);
      let body = progressBlock(ctx, answer);
      // The last poll: the sections that change with the end (times, the rows to fix, the actions) follow it out of band.
      if (finished(record.state) && request.headers['hx-request']) {
        const errors = await imports.errors(request.caller, record.id, { page: 1, limit: ERRORS_PAGE_SIZE }, ctx.locale);
        body = html`${body}${factsSection(ctx, record, answer, true)}${errorsSection(ctx, answer, { ...errors, page: 1 }, true)}${actionsSection(ctx, answer, true)}`;
      }
      return sendPage(reply, body);
    });

    app.get<{ Params: { id: string } }>('/imports/:id/errors.csv', { schema: { hide: true } }, async (request, reply) => {
      const record = await own(request);
      const locale = request.console.locale;
      const lines = async function* () {
        // The API's CSV (GET /imports/{id}/errors?format=csv): a BOM, so spreadsheet programs read the UTF-8 right.
        yield '\uFEFFrow,order,field,message\r\n';
        for await (const entries of imports.allErrors(record, locale)) {
          yield entries.map((e) => [String(e.row), e.order ?? '', e.field ?? '', e.message].map(csvField).join(',') + '\r\n').join('');
        }
      };
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="import-${record.id}-errors.csv"`)
        .header('cache-control', 'no-store')
        .send(Readable.from(lines()));
    });

    app.get<{ Params: { id: string }; Querystring: { print?: string } }>('/imports/:id/labels', { schema: { hide: true } }, async (request, reply) => {
      const [format, layout] = String(request.query.print ?? 'pdf-a4').split('-');
      const print = parseLabelBatchQuery({ format, ...(format === 'pdf' && { layout: layout === 'label' ? 'label' : 'a4' }) });
      const record = await own(request);
      return sendLabelBatch(reply, await deps.labelBatches.forImport(request.caller.customerId, record.id, print, request.console.locale));
    });

    app.post<{ Params: { id: string } }>('/imports/:id/cancel', { schema: { hide: true } }, async (request, reply) => {
      try {
        await imports.cancel(request.caller, request.params.id);
      } catch (error) {
        const known = classify(error);
        if (!known || known.code === 'IMPORT_NOT_FOUND') throw error;
        const notices = errorEnvelope(known.issues, request.console.locale).errors.map((m): Notice => ({ kind: 'error', text: m.message }));
        return sendPage(reply.code(httpStatusOf(known.code)), await detailView(imports, request, await own(request), notices));
      }
      return reply.redirect(consoleUrl(`/imports/${encodeURIComponent(request.params.id)}`, { done: 'cancelled' }), 303);
    });
  };
}

async function detailView(imports: ImportService, request: FastifyRequest<{ Params: { id: string } }>, record: ImportRecord, notices: Notice[]): Promise<Html> {
  const ctx = request.console;
  const errorsPage = parsePageRequest({ page: (request.query as { errors_page?: unknown }).errors_page }, { defaultLimit: ERRORS_PAGE_SIZE });
  const pageRequest = { page: errorsPage.page, limit: ERRORS_PAGE_SIZE };
  const errors = await imports.errors(request.caller, record.id, pageRequest, ctx.locale);
  const resolving = record.options.address_resolver_type === 1 || record.options.address_resolver_type === 2;
  const corrections = resolving ? (await imports.corrections(request.caller, record.id, { page: 1, limit: 1000 })).entries : [];
  return detailPage(ctx, { record, answer: toImportResponse(record, ctx.locale), errors: { ...errors, page: errorsPage.page }, corrections, notices });
}

interface UploadFormView {
  values: FormValues;
  errors: FieldErrors;
  notices: Notice[];
}

/** A refused upload: each message beside the field it names (as the API words it), the others above the form. */
function refusedForm(ctx: PageContext, refusal: DomainError, values: FormValues): UploadFormView {
  const errors: FieldErrors = new Map();
  const notices: Notice[] = [];
  for (const m of errorEnvelope(refusal.issues, ctx.locale).errors) {
    if (!m.field) {
      notices.push({ kind: 'error', text: m.message });
      continue;
    }
    const slot = formSlot(m.field);
    const text = slot === m.field ? m.message : `${m.field}: ${m.message}`;
    errors.set(slot, [...(errors.get(slot) ?? []), text]);
  }
  if (errors.size > 0) notices.unshift({ kind: 'error', text: ctx.t('FORM_HAS_ERRORS') });
  return { values, errors, notices };
}

function stateBadge(ctx: PageContext, state: ImportState): Html {
  return html`<span class="status import-${state}">${ctx.t(STATE_TEXT[state])}</span>`;
}

/** An input's error messages, and the attributes that tie them to it. */
function fieldError(form: UploadFormView, slot: string): { attrs: Html; text: Html | null } {
  const messages = form.errors.get(slot);
  if (!messages) return { attrs: attrs({}), text: null };
  const id = `err-${slot.replace(/[^a-z0-9]+/gi, '-')}`;
  return {
    attrs: attrs({ 'aria-invalid': 'true', 'aria-describedby': id }),
    text: html`<p class="field-error" id="${id}">${messages.map((m, i) => html`${i ? html`<br>` : null}${m}`)}</p>`,
  };
}

function uploadForm(ctx: PageContext, form: UploadFormView, providers: ProviderInfo[], maxMegabytes: number): Html {
  const { t } = ctx;
  const value = (name: string) => form.values.get(name) ?? '';
  const preset = value('preset') || 'generic';
  const choice = value('choice');
  const resolver = value('address_resolver_type');
  const input = (name: string, label: string, extra: Record<string, string | boolean | undefined> = {}) => {
    const id = `imp-${name.replace(/[^a-z0-9]+/gi, '-')}`;
    const error = fieldError(form, name);
    return html`<div><label for="${id}">${label}</label><input id="${id}" name="${name}" value="${value(name)}"${attrs(extra)}${error.attrs}>${error.text}</div>`;
  };
  const fileError = fieldError(form, 'file');
  const presetError = fieldError(form, 'preset');
  const choiceError = fieldError(form, 'choice');
  const processError = fieldError(form, 'process');
  const resolverError = fieldError(form, 'address_resolver_type');
  const senderError = fieldError(form, 'consignor');
  const optionsError = fieldError(form, 'options');
  return html`<section class="card" aria-labelledby="imp-upload-h">
<h2 id="imp-upload-h">${t('IMP_UPLOAD_TITLE')}</h2>
<p class="hint">${t('IMP_UPLOAD_HINT')}</p>
<form method="post" action="${consoleUrl('/imports')}" enctype="multipart/form-data" class="import-form">
  ${csrfField(ctx)}
  <div class="grid">
    <div>
      <label for="imp-file">${t('IMP_FILE', { max: maxMegabytes })}</label>
      <input id="imp-file" name="file" type="file" accept=".csv,.tsv,.txt,text/csv" required${fileError.attrs}>${fileError.text}
      <label for="imp-preset">${t('IMP_PRESET')}</label>
      <select id="imp-preset" name="preset"${presetError.attrs}>${PRESET_NAMES.map(
        (name) => html`<option value="${name}"${attrs({ selected: name === preset })}>${PRESETS[name].title} (${name})</option>`,
      )}</select>${presetError.text}
      <p class="hint"><a href="${consoleUrl('/imports/template.csv')}" download>${t('IMP_TEMPLATE')}</a></p>
      <label for="imp-choice">${t('IMP_CHOICE')}</label>
      <select id="imp-choice" name="choice"${choiceError.attrs}>
        <option value="">${t('IMP_CHOICE_NONE')}</option>
        <option value="cheapest"${attrs({ selected: choice === 'cheapest' })}>${t('CHOICE_CHEAPEST')}</option>
        <option value="fastest"${attrs({ selected: choice === 'fastest' })}>${t('CHOICE_FASTEST')}</option>
        ${providers.map((p) => html`<option value="${p.id}"${attrs({ selected: choice === String(p.id) })}>${p.name} (#${p.id})</option>`)}
      </select>${choiceError.text}
      <p class="check"><input id="imp-process" name="process" type="checkbox" value="1"${attrs({ checked: form.values.has('process') })}${processError.attrs}>
      <label for="imp-process">${t('IMP_PROCESS')}</label></p>${processError.text}
      ${input('package.weight', t('IMP_PACKAGE_WEIGHT'), { inputmode: 'decimal', maxlength: '20' })}
      <label for="imp-resolver">${t('IMP_RESOLVER')}</label>
      <select id="imp-resolver" name="address_resolver_type"${resolverError.attrs}>
        <option value="">${t('IMP_RESOLVER_OFF')}</option>
        <option value="1"${attrs({ selected: resolver === '1' })}>${t('IMP_RESOLVER_CORRECT')}</option>
        <option value="2"${attrs({ selected: resolver === '2' })}>${t('IMP_RESOLVER_STRICT')}</option>
      </select>${resolverError.text}
    </div>
    <fieldset id="imp-consignor"${senderError.attrs}>
      <legend>${t('IMP_SENDER')}</legend>
      <p class="hint">${t('IMP_SENDER_HINT')}</p>${senderError.text}
      ${SENDER_FIELDS.map(([name, label]) =>
        input(`consignor.${name}`, t(label), { maxlength: name === 'phone_number' ? '20' : name === 'country' ? '3' : '255', autocomplete: 'off' }),
      )}
    </fieldset>
  </div>
  <details${attrs({ open: form.errors.has('options') || value('options').trim() !== '' })}>
    <summary>${t('IMP_MORE_OPTIONS')}</summary>
    <label for="imp-options" class="visually-hidden">${t('IMP_MORE_OPTIONS')}</label>
    <textarea id="imp-options" name="options" rows="4" spellcheck="false"${optionsError.attrs}>${value('options')}</textarea>${optionsError.text}
    <p class="hint">${t('IMP_MORE_OPTIONS_HINT')}</p>
  </details>
  <p><button type="submit">${t('IMP_UPLOAD')}</button></p>
</form>
</section>`;
}

function listPage(
  ctx: PageContext,
  view: {
    form: UploadFormView;
    rows: { record: ImportRecord; answer: ImportAnswer }[];
    total: number;
    page: number;
    providers: ProviderInfo[];
    maxMegabytes: number;
  },
): Html {
  const { t } = ctx;
  const pages = Math.max(1, Math.ceil(view.total / PAGE_SIZE));
  const pager = html`<nav class="pager" aria-label="${t('PAGES')}">
  ${view.page > 1 ? html`<a rel="prev" href="${consoleUrl('/imports', { page: view.page - 1 })}">${t('PREVIOUS_PAGE')}</a>` : null}
  <span>${t('PAGE_OF', { page: view.page, pages, total: view.total })}</span>
  ${view.page < pages ? html`<a rel="next" href="${consoleUrl('/imports', { page: view.page + 1 })}">${t('NEXT_PAGE')}</a>` : null}
</nav>`;
  const table =
    view.rows.length === 0
      ? html`<p class="empty">${t('IMP_NONE')}</p>`
      : html`<table class="list imports">
  <thead><tr>
    <th scope="col">${t('IMP_FILE_NAME')}</th><th scope="col">${t('IMP_PRESET_SHORT')}</th><th scope="col">${t('IMP_STATE')}</th>
    <th scope="col">${t('IMP_PROGRESS')}</th><th scope="col">${t('IMP_ORDERS')}</th><th scope="col">${t('IMP_CREATED')}</th>
    <th scope="col">${t('IMP_PROCESSED')}</th><th scope="col">${t('IMP_FAILED')}</th><th scope="col">${t('IMP_DUPLICATES')}</th><th scope="col">${t('IMP_CREATED_AT')}</th>
  </tr></thead>
  <tbody>
  ${view.rows.map(
    ({ record, answer: a }) => html`<tr${attrs({ class: a.counts.failed > 0 ? 'failed' : undefined })}>
    <th scope="row"><a href="${consoleUrl(`/imports/${a.id}`)}">${a.file_name ?? a.id}</a></th>
    <td>${a.preset}</td>
    <td>${stateBadge(ctx, a.state)}</td>
    <td><progress value="${a.progress.percent}" max="100" aria-label="${t('IMP_PROGRESS')}">${a.progress.percent}%</progress> ${a.progress.percent}%</td>
    <td>${a.counts.orders}</td>
    <td>${a.counts.created}</td>
    <td>${a.process ? a.counts.processed : '—'}</td>
    <td>${a.counts.failed}</td>
    <td>${a.counts.duplicates}</td>
    <td>${formatWhen(record.createdAt, ctx.locale)}</td>
  </tr>`,
  )}
  </tbody>
</table>`;
  return page(
    ctx,
    t('NAV_IMPORTS'),
    [
      uploadForm(ctx, view.form, view.providers, view.maxMegabytes),
      html`<section aria-labelledby="imp-list-h"><h2 id="imp-list-h">${t('IMP_LIST_TITLE')}</h2>${table}${pager}</section>`,
    ],
    { notices: view.form.notices, current: '/imports' },
  );
}

/**
 * How far an import has come. While it runs the block asks for itself again every second (htmx) and replaces
 * itself; the block of a finished import has no trigger, so the polling stops. The numbers are text too.
 */
function progressBlock(ctx: PageContext, a: ImportAnswer): Html {
  const { t } = ctx;
  const running = !finished(a.state);
  const p = a.progress;
  const c = a.counts;
  const live = running ? attrs({ 'hx-get': consoleUrl(`/imports/${a.id}/progress`), 'hx-trigger': 'every 1s', 'hx-swap': 'outerHTML' }) : attrs({});
  return html`<section id="import-progress" class="card import-progress" data-state="${a.state}" aria-labelledby="imp-progress-h"${live}>
<h2 id="imp-progress-h">${t('IMP_PROGRESS')}</h2>
<p class="import-state">${stateBadge(ctx, a.state)} <span>${t('IMP_PERCENT', { percent: p.percent })}</span></p>
<label for="imp-bar-rows">${t('IMP_ROWS_READ', { done: p.rows_done, total: p.rows_total })}</label>
<progress id="imp-bar-rows" value="${p.rows_done}" max="${Math.max(1, p.rows_total)}">${p.percent}%</progress>
<label for="imp-bar-orders">${
    p.orders_known ? t('IMP_ORDERS_DONE', { done: p.orders_done, total: c.orders }) : t('IMP_ORDERS_DONE_SO_FAR', { done: p.orders_done, total: c.orders })
  }</label>
${
  p.orders_known || !running
    ? html`<progress id="imp-bar-orders" value="${p.orders_done}" max="${Math.max(1, c.orders)}">${p.orders_done}</progress>`
    : html`<progress id="imp-bar-orders">${p.orders_done}</progress>`
}
<dl class="facts import-counts">
  <dt>${t('IMP_ORDERS')}</dt><dd data-count="orders">${c.orders}</dd>
  <dt>${t('IMP_CREATED')}</dt><dd data-count="created">${c.created}</dd>
  ${a.process ? html`<dt>${t('IMP_PROCESSED')}</dt><dd data-count="processed">${c.processed}</dd>` : null}
  <dt>${t('IMP_FAILED')}</dt><dd data-count="failed">${c.failed}</dd>
  <dt>${t('IMP_DUPLICATES')}</dt><dd data-count="duplicates">${c.duplicates}</dd>
  ${c.cancelled > 0 ? html`<dt>${t('IMP_CANCELLED')}</dt><dd data-count="cancelled">${c.cancelled}</dd>` : null}
</dl>
${a.error ? html`<p class="notice error" role="alert"><strong>${t('IMP_IMPORT_ERROR')}:</strong> ${a.error.message}</p>` : null}
${running ? html`<p class="hint">${t('IMP_LIVE_HINT')}</p>` : null}
</section>`;
}

function errorsSection(ctx: PageContext, a: ImportAnswer, errors: { entries: ImportErrorEntry[]; total: number; page: number }, outOfBand = false): Html {
  const { t } = ctx;
  const pages = Math.max(1, Math.ceil(errors.total / ERRORS_PAGE_SIZE));
  const pageLink = (n: number) => consoleUrl(`/imports/${a.id}`, { errors_page: n });
  return html`<section id="import-errors" class="card" aria-labelledby="imp-errors-h"${attrs({ 'hx-swap-oob': outOfBand ? 'true' : undefined })}>
<h2 id="imp-errors-h">${t('IMP_ERRORS_TITLE')}</h2>
${
  errors.total === 0
    ? html`<p class="empty">${t('IMP_ERRORS_NONE')}</p>`
    : html`<p>${t('IMP_ERRORS_COUNT', { total: errors.total })} <a href="${consoleUrl(`/imports/${a.id}/errors.csv`)}" download>${t('IMP_ERRORS_CSV')}</a></p>
<table class="list import-errors">
  <thead><tr><th scope="col">${t('IMP_ROW')}</th><th scope="col">${t('IMP_ORDER')}</th><th scope="col">${t('IMP_FIELD')}</th><th scope="col">${t('IMP_MESSAGE')}</th></tr></thead>
  <tbody>${errors.entries.map(
    (e) => html`<tr><th scope="row">${e.row}</th><td>${e.order ?? '—'}</td><td>${e.field ? html`<code>${e.field}</code>` : '—'}</td><td>${e.message}</td></tr>`,
  )}</tbody>
</table>
${
  pages > 1
    ? html`<nav class="pager" aria-label="${t('PAGES')}">
  ${errors.page > 1 ? html`<a rel="prev" href="${pageLink(errors.page - 1)}">${t('PREVIOUS_PAGE')}</a>` : null}
  <span>${t('PAGE_OF', { page: errors.page, pages, total: errors.total })}</span>
  ${errors.page < pages ? html`<a rel="next" href="${pageLink(errors.page + 1)}">${t('NEXT_PAGE')}</a>` : null}
</nav>`
    : null
}`
}
</section>`;
}

function actionsSection(ctx: PageContext, a: ImportAnswer, outOfBand = false): Html {
  const { t } = ctx;
  return html`<section id="import-actions" class="card actions" aria-labelledby="imp-actions-h"${attrs({ 'hx-swap-oob': outOfBand ? 'true' : undefined })}>
<h2 id="imp-actions-h">${t('ACTIONS')}</h2>
<form method="get" action="${consoleUrl(`/imports/${a.id}/labels`)}" class="stack">
  <label for="imp-print">${t('IMP_PRINT_LAYOUT')}</label>
  <select id="imp-print" name="print">${PRINT_CHOICES.map(([value, text]) => html`<option value="${value}">${t(text)}</option>`)}</select>
  <button type="submit">${t('IMP_PRINT_ALL')}</button>
  ${a.process ? null : html`<p class="hint">${t('IMP_PRINT_DRAFTS_HINT')}</p>`}
</form>
<p><a href="${consoleUrl('/consignments', { import_id: a.id })}">${t('IMP_CONSIGNMENTS')}</a></p>
${
  finished(a.state)
    ? null
    : html`<form method="post" action="${consoleUrl(`/imports/${a.id}/cancel`)}">${csrfField(ctx)}
  <p class="hint">${t('IMP_CANCEL_HINT')}</p>
  <button type="submit" class="danger">${t('IMP_CANCEL')}</button>
</form>`
}
</section>`;
}

function factsSection(ctx: PageContext, record: ImportRecord, a: ImportAnswer, outOfBand = false): Html {
  const { t } = ctx;
  return html`<section id="import-facts" class="card" aria-labelledby="imp-facts-h"${attrs({ 'hx-swap-oob': outOfBand ? 'true' : undefined })}>
<h2 id="imp-facts-h">${t('IMP_FILE_NAME')}</h2>
<dl class="facts">
  <dt>${t('IMP_ID')}</dt><dd><code>${a.id}</code></dd>
  <dt>${t('IMP_FILE_NAME')}</dt><dd>${a.file_name ?? '—'}</dd>
  <dt>${t('IMP_SIZE')}</dt><dd>${size(a.file_bytes)} · ${t('IMP_ROWS')}: ${a.progress.rows_total}</dd>
  <dt>${t('IMP_PRESET_SHORT')}</dt><dd>${PRESETS[record.options.preset]?.title ?? a.preset} (${a.preset})</dd>
  <dt>${t('IMP_MODE')}</dt><dd>${a.process ? t('IMP_MODE_PROCESS') : t('IMP_MODE_DRAFTS')}</dd>
  <dt>${t('IMP_CREATED_AT')}</dt><dd>${formatWhen(record.createdAt, ctx.locale)}</dd>
  <dt>${t('IMP_STARTED')}</dt><dd>${formatWhen(record.startedAt, ctx.locale)}</dd>
  <dt>${t('IMP_FINISHED_AT')}</dt><dd>${formatWhen(record.finishedAt, ctx.locale)}</dd>
</dl>
</section>`;
}

function detailPage(
  ctx: PageContext,
  view: {
    record: ImportRecord;
    answer: ImportAnswer;
    errors: { entries: ImportErrorEntry[]; total: number; page: number };
    corrections: { row: number; order: string | null; field: string; from: string | null; to: string }[];
    notices: Notice[];
  },
): Html {
  const { t } = ctx;
  const { record, answer: a } = view;
  const facts = factsSection(ctx, record, a);
  const corrections =
    view.corrections.length === 0
      ? null
      : html`<section class="card" aria-labelledby="imp-corrections-h"><h2 id="imp-corrections-h">${t('IMP_CORRECTIONS_TITLE')}</h2>
<table class="list"><thead><tr><th scope="col">${t('IMP_ROW')}</th><th scope="col">${t('IMP_ORDER')}</th><th scope="col">${t('IMP_FIELD')}</th><th scope="col">${t('IMP_FROM')}</th><th scope="col">${t('IMP_TO')}</th></tr></thead>
<tbody>${view.corrections.map(
          (c) =>
            html`<tr><th scope="row">${c.row}</th><td>${c.order ?? '—'}</td><td><code>${c.field}</code></td><td>${c.from ?? '—'}</td><td>${c.to}</td></tr>`,
        )}</tbody></table></section>`;
  return page(
    ctx,
    t('IMP_TITLE', { name: a.file_name ?? a.id }),
    html`<p><a href="${consoleUrl('/imports')}">← ${t('NAV_IMPORTS')}</a></p>
${progressBlock(ctx, a)}
<div class="grid">${facts}${actionsSection(ctx, a)}</div>
${errorsSection(ctx, a, view.errors)}
${corrections}`,
    { notices: view.notices, current: '/imports' },
  );
}
