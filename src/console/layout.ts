import type { FastifyReply } from 'fastify';
import type { Locale } from '../i18n/messages';
import type { ConsoleTextKey, Translate } from '../i18n/console';
import { attrs, html, type Html, type Renderable } from './html';

/** What every page's frame needs to know about the request. */
export interface PageContext {
  locale: Locale;
  t: Translate;
  /** the current path with its query, for the language switch to come back to */
  path: string;
  /** absent before sign-in */
  session?: { customerName: string; customerCode: string; csrfToken: string };
}

export const CONSOLE_PREFIX = '/console';
export const ASSETS = `${CONSOLE_PREFIX}/assets`;

const NAV: { href: string; text: ConsoleTextKey }[] = [
  { href: '/consignments', text: 'NAV_CONSIGNMENTS' },
  { href: '/drafts/new', text: 'NAV_NEW_DRAFT' },
  { href: '/imports', text: 'NAV_IMPORTS' },
  { href: '/order-sources', text: 'NAV_ORDER_SOURCES' },
  { href: '/carrier-accounts', text: 'NAV_CARRIER_ACCOUNTS' },
  { href: '/webhooks', text: 'NAV_WEBHOOKS' },
  { href: '/address-search', text: 'NAV_ADDRESS_SEARCH' },
];

/** A link inside the console. */
export function consoleUrl(path: string, query: Record<string, string | number | undefined> = {}): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) if (value !== undefined && value !== '') params.set(name, String(value));
  const search = params.toString();
  return `${CONSOLE_PREFIX}${path}${search ? `?${search}` : ''}`;
}

/** The hidden field every state-changing form carries (checked against the session's token). */
export function csrfField(ctx: PageContext): Html {
  return html`<input type="hidden" name="_csrf" value="${ctx.session?.csrfToken ?? ''}">`;
}

export interface Notice {
  kind: 'info' | 'error';
  text: string;
}

/** A whole page: the frame (navigation, language switch, sign-out) around `body`. */
export function page(ctx: PageContext, title: string, body: Renderable, options: { notices?: Notice[]; current?: string } = {}): Html {
  const { t, session } = ctx;
  const other: Locale = ctx.locale === 'tr' ? 'en' : 'tr';
  return html`<!doctype html>
<html lang="${ctx.locale}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · ${t('APP_NAME')}</title>
<link rel="stylesheet" href="${ASSETS}/console.css">
<meta name="htmx-config" content='{"allowEval":false,"includeIndicatorStyles":false,"historyCacheSize":0}'>
<script src="${ASSETS}/htmx.min.js" defer></script>
<script src="${ASSETS}/console.js" defer></script>
</head>
<body${attrs({ 'hx-headers': session ? JSON.stringify({ 'X-CSRF-Token': session.csrfToken }) : undefined })}>
<a class="skip" href="#main">${t('SKIP_TO_CONTENT')}</a>
<header class="top">
  <a class="brand" href="${consoleUrl('/consignments')}">${t('APP_NAME')}</a>
  ${
    session
      ? html`<nav aria-label="${t('NAV_LABEL')}"><ul>${NAV.map(
          (item) =>
            html`<li><a href="${consoleUrl(item.href)}"${attrs({ 'aria-current': options.current === item.href ? 'page' : undefined })}>${t(item.text)}</a></li>`,
        )}</ul></nav>`
      : null
  }
  <div class="session">
    <a href="${consoleUrl(`/language/${other}`, { back: ctx.path })}" hreflang="${other}" lang="${other}" title="${t('LANGUAGE')}">${other === 'tr' ? 'Türkçe' : 'English'}</a>
    ${
      session
        ? html`<span class="who">${t('SIGNED_IN_AS', { customer: session.customerName })}</span>
    <form method="post" action="${consoleUrl('/sign-out')}" class="inline">${csrfField(ctx)}<button type="submit" class="link">${t('SIGN_OUT')}</button></form>`
        : null
    }
  </div>
</header>
<main id="main">
<h1>${title}</h1>
${(options.notices ?? []).map((n) => html`<p class="notice ${n.kind}" role="${n.kind === 'error' ? 'alert' : 'status'}">${n.text}</p>`)}
${body}
</main>
</body>
</html>`;
}

/** A page as the answer: HTML, never cached (it shows one customer's data). */
export function sendPage(reply: FastifyReply, body: Html) {
  return reply.type('text/html; charset=utf-8').header('cache-control', 'no-store').send(body.value);
}
