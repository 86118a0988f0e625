import type { FastifyPluginAsync } from 'fastify';
import { classify, errorEnvelope } from '../../api/errors';
import { parseAddressSearchQuery, SEARCH_LIMITS } from '../../address/search-params';
import { countryName } from '../../customs/customs-text';
import type { AddressResult, AddressSearchPage, SearchField } from '../../db/addresses.repository';
import type { ConsoleTextKey } from '../../i18n/console';
import type { AddressService } from '../../services/addresses.service';
import type { ConsolePageDeps } from '../console-deps';
import { attrs, html, type Html } from '../html';
import { consoleUrl, page, sendPage, type PageContext } from '../layout';
import { textOf } from '../views';

/** The results block alone (htmx type-ahead here and in the draft form): GET with the parameters of {@link AddressSearchForm}. */
export const ADDRESS_RESULTS_PATH = '/address-search/results';
/** The parties a result can be written into by the draft form (its "use this address" buttons). */
export const ADDRESS_TARGETS = ['consignor', 'consignee'] as const;
export type AddressTarget = (typeof ADDRESS_TARGETS)[number];
/** Matches shown at once: a type-ahead narrows by typing rather than paging. */
export const ADDRESS_RESULT_LIMIT = 20;

/** Where a search looks: the API's `searchFields[]`, "everything" by default (one row per postal record). */
const SCOPES = {
  all: ['place', 'city', 'state', 'postalCode'],
  place: ['place'],
  city: ['city'],
  state: ['state'],
  postalCode: ['postalCode'],
} as const satisfies Record<string, readonly SearchField[]>;
type Scope = keyof typeof SCOPES;
const SCOPE_TEXT: Record<Scope, ConsoleTextKey> = {
  all: 'ADDR_IN_ALL',
  place: 'ADDR_IN_PLACE',
  city: 'ADDR_IN_CITY',
  state: 'ADDR_IN_STATE',
  postalCode: 'ADDR_IN_POSTAL_CODE',
};

/**
 * The console's search parameters: `country` (ISO2), `q` (the keyword), `in` (a scope above, default all) and,
 * for the draft form, `target` (consignor or consignee: each row then has a "use this address" button).
 */
export interface AddressSearchForm {
  country: string;
  q: string;
  in: Scope;
  target?: AddressTarget;
}

export type AddressResultsView =
  | { kind: 'idle' }
  | { kind: 'refused'; errors: { message: string; field?: string }[] }
  | { kind: 'found'; country: string; keyword: string; found: AddressSearchPage };

export function addressSearchForm(query: Record<string, unknown>, fallbackCountry = ''): AddressSearchForm {
  const scope = textOf(query.in);
  const target = textOf(query.target);
  return {
    country: textOf(query.country).trim().toUpperCase() || fallbackCountry,
    q: textOf(query.q),
    in: scope in SCOPES ? (scope as Scope) : 'all',
    target: (ADDRESS_TARGETS as readonly string[]).includes(target) ? (target as AddressTarget) : undefined,
  };
}

/** Searches as GET /api/v1/address/search does: the API's own parser (its refusals), the same service. */
export async function searchAddressesFor(addresses: AddressService, form: AddressSearchForm, ctx: PageContext): Promise<AddressResultsView> {
  if (form.q.trim() === '') return { kind: 'idle' };
  let query;
  try {
    query = parseAddressSearchQuery({
      countryIso2: form.country,
      keyword: form.q,
      'searchFields[]': [...SCOPES[form.in]],
      limit: String(ADDRESS_RESULT_LIMIT),
    });
  } catch (error) {
    const known = classify(error);
    if (!known) throw error;
    return { kind: 'refused', errors: errorEnvelope(known.issues, ctx.locale).errors };
  }
  return { kind: 'found', country: query.countryIso2, keyword: query.keyword, found: await addresses.search(query) };
}

/** A result's fields as data attributes, for the script that writes them into a party's fields. */
function resultData(r: AddressResult) {
  return {
    'data-country': r.countryIso2,
    'data-state': r.state,
    'data-state-code': r.stateCode,
    'data-city': r.city,
    'data-place': r.place,
    'data-postal-code': r.postalCode,
  };
}

/**
 * The results block: a table of matches (state, city, place, postal code as the API returns them), each row
 * carrying its fields as data attributes; with a `target`, a "use this address" button per row (data-fill).
 * The page's own block and the fragment the type-ahead swaps in, so both show the same.
 */
export function addressResults(ctx: PageContext, view: AddressResultsView, target?: AddressTarget): Html {
  const { t } = ctx;
  if (view.kind === 'idle') return html`<p class="hint">${t('ADDR_TYPE_TO_SEARCH')}</p>`;
  if (view.kind === 'refused') {
    const label = (field?: string) => (field === 'countryIso2' ? t('ADDR_COUNTRY') : field === 'keyword' ? t('ADDR_KEYWORD') : field);
    return html`<ul class="errors" role="alert">${view.errors.map((e) => html`<li>${e.field ? html`${label(e.field)}: ` : null}${e.message}</li>`)}</ul>`;
  }
  const { results, total } = view.found;
  if (results.length === 0) {
    return html`<p class="empty" role="status">${t('ADDR_NO_MATCH', { keyword: view.keyword, country: countryName(view.country, ctx.locale) })}</p>`;
  }
  const summary = total > results.length ? t('ADDR_SHOWING', { shown: results.length, total }) : t('ADDR_COUNT', { total });
  const cell = (text: string) => text || '—';
  return html`<p class="hint" role="status">${summary}</p>
<table class="list address-results">
  <caption class="visually-hidden">${t('ADDR_RESULTS')}</caption>
  <thead><tr>
    <th scope="col">${t('ADDR_STATE')}</th><th scope="col">${t('ADDR_CITY')}</th><th scope="col">${t('ADDR_PLACE')}</th>
    <th scope="col">${t('ADDR_POSTAL_CODE')}</th><th scope="col">${t('ADDR_STATE_CODE')}</th>
    ${target ? html`<th scope="col"><span class="visually-hidden">${t('ACTIONS')}</span></th>` : null}
  </tr></thead>
  <tbody>
  ${results.map(
    (r) => html`<tr${attrs(resultData(r))}>
    <td>${cell(r.state)}</td><td>${cell(r.city)}</td><td>${cell(r.place)}</td><td>${cell(r.postalCode)}</td><td>${cell(r.stateCode)}</td>
    ${
      target
        ? html`<td><button type="button"${attrs({
            'data-fill': target,
            ...resultData(r),
            'aria-label': t('ADDR_USE_LABEL', { place: [r.place, r.city, r.state, r.postalCode].filter(Boolean).join(', ') }),
          })}>${t('ADDR_USE')}</button></td>`
        : null
    }
  </tr>`,
  )}
  </tbody>
</table>`;
}

/** The search box: without script a GET form whose page shows the results; with htmx the results follow typing. */
function searchPage(ctx: PageContext, view: { form: AddressSearchForm; countries: string[]; results: AddressResultsView }): Html {
  const { t } = ctx;
  const { form } = view;
  const fragment = consoleUrl(ADDRESS_RESULTS_PATH);
  const live = { 'hx-get': fragment, 'hx-target': '#address-results', 'hx-include': 'closest form' };
  const countries = view.countries.includes(form.country) || form.country === '' ? view.countries : [...view.countries, form.country];
  const body = html`<p class="hint">${t('ADDR_INTRO')}</p>
<form method="get" action="${consoleUrl('/address-search')}" class="filters" role="search" aria-label="${t('NAV_ADDRESS_SEARCH')}">
  <div><label for="address-country">${t('ADDR_COUNTRY')}</label>
    <select id="address-country" name="country"${attrs({ ...live, 'hx-trigger': 'change' })}>
      ${countries.map((c) => html`<option value="${c}"${attrs({ selected: c === form.country })}>${countryName(c, ctx.locale)} (${c})</option>`)}
    </select></div>
  <div><label for="address-in">${t('ADDR_SEARCH_IN')}</label>
    <select id="address-in" name="in"${attrs({ ...live, 'hx-trigger': 'change' })}>
      ${(Object.keys(SCOPES) as Scope[]).map((s) => html`<option value="${s}"${attrs({ selected: s === form.in })}>${t(SCOPE_TEXT[s])}</option>`)}
    </select></div>
  <div class="grow"><label for="address-q">${t('ADDR_KEYWORD')}</label>
    <input id="address-q" name="q" type="search" value="${form.q}" maxlength="${SEARCH_LIMITS.keywordMaxLength}" autocomplete="off" spellcheck="false" aria-controls="address-results"${attrs(
      { ...live, 'hx-trigger': 'input changed delay:250ms, search' },
    )}></div>
  <div class="actions"><button type="submit">${t('SEARCH')}</button></div>
</form>
<div id="address-results" class="address-results-block">${addressResults(ctx, view.results)}</div>`;
  return page(ctx, t('NAV_ADDRESS_SEARCH'), body, {
    current: '/address-search',
    notices: view.countries.length === 0 ? [{ kind: 'info', text: t('ADDR_NO_DATA') }] : [],
  });
}

/** The address search page: the address search endpoint as a search box. */
export function addressSearchPages(deps: ConsolePageDeps): FastifyPluginAsync {
  const defaultCountry = (countries: string[]) => (countries.includes('TR') ? 'TR' : (countries[0] ?? ''));
  return async (app) => {
    app.get<{ Querystring: Record<string, unknown> }>('/address-search', { schema: { hide: true } }, async (request, reply) => {
      const ctx = request.console;
      const countries = await deps.addresses.countries();
      const form = { ...addressSearchForm(request.query, defaultCountry(countries)), target: undefined };
      const results = await searchAddressesFor(deps.addresses, form, ctx);
      return sendPage(reply.code(results.kind === 'refused' ? 400 : 200), searchPage(ctx, { form, countries, results }));
    });

    // A fragment, answered 200 even when refused: htmx swaps in only successful answers, and the refusal is the content.
    app.get<{ Querystring: Record<string, unknown> }>(ADDRESS_RESULTS_PATH, { schema: { hide: true } }, async (request, reply) => {
      const ctx = request.console;
      // The draft form always names the country; asking which are loaded is only for a request that does not.
      const named = textOf(request.query.country).trim() !== '';
      const form = addressSearchForm(request.query, named ? '' : defaultCountry(await deps.addresses.countries()));
      return sendPage(reply, addressResults(ctx, await searchAddressesFor(deps.addresses, form, ctx), form.target));
    });
  };
}
