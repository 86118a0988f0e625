import { readFileSync } from 'node:fs';
import { timingSafeEqual } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import cookie from '@fastify/cookie';
import formbody from '@fastify/formbody';
import type { Logger } from 'pino';
import type { FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { classify, errorEnvelope, httpStatusOf } from '../api/errors';
import { DomainError } from '../domain/errors';
import { consoleTranslator } from '../i18n/console';
import { LOCALES, negotiateLocale, type Locale } from '../i18n/messages';
import type { ConsoleSession, ConsoleSessionService } from '../services/console-sessions.service';
import { html } from './html';
import { consoleUrl, page, sendPage, type PageContext } from './layout';
import type { ConsolePageDeps } from './console-deps';
import { addressSearchPages } from './pages/address-search';
import { carrierAccountPages } from './pages/carrier-accounts';
import { consignmentPages } from './pages/consignments';
import { draftPages } from './pages/drafts';
import { importPages } from './pages/imports';
import { orderSourcePages } from './pages/order-sources';
import { webhookPages } from './pages/webhooks';
import { signInPage } from './pages/sign-in';

declare module 'fastify' {
  interface FastifyRequest {
    /** the console's view of the request: language, translator, session (once signed in) */
    console: PageContext & { raw?: ConsoleSession };
  }
}

export interface ConsoleDeps extends ConsolePageDeps {
  sessions: ConsoleSessionService;
  /** cookies only over HTTPS (PUBLIC_BASE_URL starts with https:) */
  secureCookies: boolean;
}

const SESSION_COOKIE = 'cf_console';
const LANGUAGE_COOKIE = 'cf_lang';
/** Forms of the console are small: a draft with its packages and items is a few kB. */
const FORM_LIMIT_BYTES = 256 * 1024;

/**
 * The console's files, read once: htmx from its package (no CDN: the console works without the internet), the
 * stylesheet and the few lines of script of our own.
 */
const ASSET_FILES: Record<string, { path: string; type: string }> = {
  'htmx.min.js': { path: require.resolve('htmx.org/dist/htmx.min.js'), type: 'text/javascript; charset=utf-8' },
  'console.css': { path: `${__dirname}/assets/console.css`, type: 'text/css; charset=utf-8' },
  'console.js': { path: `${__dirname}/assets/console.js`, type: 'text/javascript; charset=utf-8' },
};

/**
 * Pages allow only the console's own scripts and styles, no framing, and forms posting back to the console:
 * an injected `<script>` would not run even if an escape were missed.
 */
const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "object-src 'none'",
].join('; ');

const sameToken = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

/** A path inside the console to return to (never elsewhere: an open redirect would be a phishing tool). */
export function backTo(value: unknown): string {
  return typeof value === 'string' && value.startsWith(`${consoleUrl('')}/`) && !value.startsWith('//') && !/[\\\r\n]/.test(value)
    ? value
    : consoleUrl('/consignments');
}

/**
 * The browser console (docs/console.md), served under /console by the API's process: server-rendered pages that
 * call the same services as the /api/v1 handlers, enhanced by htmx where a page updates in place.
 */
export function consolePlugin(deps: ConsoleDeps): FastifyPluginAsync {
  return async (app: FastifyInstance) => {
    await app.register(cookie);
    await app.register(formbody, { bodyLimit: FORM_LIMIT_BYTES });
    // Each file also gzipped once, for browsers that take it (htmx is 52 kB as it is, 16 kB gzipped).
    const assets = new Map(
      Object.entries(ASSET_FILES).map(([name, file]) => {
        const body = readFileSync(file.path);
        return [name, { body, gzipped: gzipSync(body, { level: 9 }), type: file.type }];
      }),
    );

    app.decorateRequest('console', null as unknown as FastifyRequest['console']);
    app.addHook('onRequest', async (request, reply) => {
      const chosen = request.cookies[LANGUAGE_COOKIE];
      const locale: Locale = (LOCALES as readonly string[]).includes(chosen ?? '') ? (chosen as Locale) : negotiateLocale(request.headers['accept-language']);
      request.locale = locale;
      request.console = { locale, t: consoleTranslator(locale), path: request.url };
      reply
        .header('content-language', locale)
        .header('content-security-policy', CONTENT_SECURITY_POLICY)
        .header('x-frame-options', 'DENY')
        .header('x-content-type-options', 'nosniff')
        .header('referrer-policy', 'same-origin');
    });

    app.setErrorHandler((error, request, reply) => renderError(error, request, reply));
    app.setNotFoundHandler((request, reply) => renderError(new DomainError('ROUTE_NOT_FOUND'), request, reply));

    app.get<{ Params: { file: string } }>('/assets/:file', { schema: { hide: true } }, async (request, reply) => {
      const asset = assets.get(request.params.file);
      if (!asset) throw new DomainError('ROUTE_NOT_FOUND');
      reply.type(asset.type).header('cache-control', 'public, max-age=3600').header('vary', 'accept-encoding');
      if (/\bgzip\b/.test(String(request.headers['accept-encoding'] ?? ''))) return reply.header('content-encoding', 'gzip').send(asset.gzipped);
      return reply.send(asset.body);
    });

    app.get<{ Params: { locale: string }; Querystring: { back?: string } }>('/language/:locale', { schema: { hide: true } }, async (request, reply) => {
      const locale = (LOCALES as readonly string[]).includes(request.params.locale) ? request.params.locale : 'en';
      reply.setCookie(LANGUAGE_COOKIE, locale, { path: consoleUrl(''), sameSite: 'lax', httpOnly: true, secure: deps.secureCookies, maxAge: 365 * 24 * 3600 });
      return reply.redirect(backTo(request.query.back), 303);
    });

    app.get('/', { schema: { hide: true } }, async (_request, reply) => reply.redirect(consoleUrl('/consignments'), 303));

    app.get<{ Querystring: { back?: string; ended?: string; out?: string } }>('/sign-in', { schema: { hide: true } }, async (request, reply) => {
      const { t } = request.console;
      const notices = request.query.out
        ? [{ kind: 'info' as const, text: t('SIGNED_OUT') }]
        : request.query.ended
          ? [{ kind: 'info' as const, text: t('SESSION_ENDED') }]
          : [];
      return sendPage(reply, signInPage(request.console, { back: backTo(request.query.back), notices }));
    });

    app.post<{ Body: { api_key?: unknown; back?: unknown } }>('/sign-in', { schema: { hide: true } }, async (request, reply) => {
      // No session yet, so no token to check: a sign-in posted from another site is refused by where it came from.
      if (crossSite(request)) return refuseForgery(request, reply);
      const key = typeof request.body?.api_key === 'string' ? request.body.api_key : '';
      const opened = await deps.sessions.signIn(key);
      const back = backTo(request.body?.back);
      if (!opened) {
        const { t } = request.console;
        return sendPage(reply.code(401), signInPage(request.console, { back, notices: [{ kind: 'error', text: t('SIGN_IN_FAILED') }] }));
      }
      reply.setCookie(SESSION_COOKIE, opened.token, {
        path: consoleUrl(''),
        httpOnly: true,
        sameSite: 'strict',
        secure: deps.secureCookies,
        expires: opened.expiresAt,
      });
      return reply.redirect(back, 303);
    });

    // Every other page needs a session; every request that changes something also needs the session's token.
    await app.register(async (signedIn) => {
      signedIn.addHook('preHandler', async (request, reply) => {
        const session = await deps.sessions.resume(request.cookies[SESSION_COOKIE]);
        if (!session) {
          if (request.method === 'GET' && !request.headers['hx-request']) {
            return reply.redirect(consoleUrl('/sign-in', { back: request.url, ended: request.cookies[SESSION_COOKIE] ? '1' : undefined }), 303);
          }
          return sendPage(
            reply.code(401),
            signInPage(request.console, { back: consoleUrl('/consignments'), notices: [{ kind: 'info', text: request.console.t('SESSION_ENDED') }] }),
          );
        }
        request.caller = session.caller;
        request.console.session = { customerName: session.caller.customerName, customerCode: session.caller.customerCode, csrfToken: session.csrfToken };
        request.console.raw = session;
        (request.log as Logger).setBindings({ customer: session.caller.customerCode });
        if (request.method !== 'GET' && request.method !== 'HEAD') {
          const sent = request.headers['x-csrf-token'] ?? (request.body as { _csrf?: unknown } | undefined)?._csrf;
          if (typeof sent !== 'string' || !sameToken(sent, session.csrfToken)) return refuseForgery(request, reply);
        }
      });

      signedIn.post('/sign-out', { schema: { hide: true } }, async (request, reply) => {
        await deps.sessions.signOut(request.cookies[SESSION_COOKIE]);
        reply.clearCookie(SESSION_COOKIE, { path: consoleUrl('') });
        return reply.redirect(consoleUrl('/sign-in', { out: '1' }), 303);
      });

      for (const pages of [consignmentPages, draftPages, importPages, orderSourcePages, carrierAccountPages, webhookPages, addressSearchPages]) {
        await signedIn.register(pages(deps));
      }
    });
  };
}

/** Whether a browser says the request came from another site (Sec-Fetch-Site, else Origin against Host). */
function crossSite(request: FastifyRequest): boolean {
  const site = request.headers['sec-fetch-site'];
  if (typeof site === 'string') return site !== 'same-origin' && site !== 'none';
  const origin = request.headers.origin;
  if (typeof origin !== 'string' || origin === 'null') return origin === 'null';
  try {
    return new URL(origin).host !== request.headers.host;
  } catch {
    return true;
  }
}

function refuseForgery(request: FastifyRequest, reply: FastifyReply) {
  request.log.warn('console form refused: CSRF token missing or wrong');
  const { t } = request.console;
  return sendPage(reply.code(403), page(request.console, t('ERROR_TITLE'), html`<p>${t('CSRF_REFUSED')}</p>`));
}

/** Failures as pages in the reader's language, worded as the API words them; unexpected ones are logged and hidden. */
function renderError(error: unknown, request: FastifyRequest, reply: FastifyReply) {
  const ctx = request.console ?? { locale: 'en', t: consoleTranslator('en'), path: request.url };
  const known = classify(error);
  if (!known) request.log.error({ err: error }, 'unexpected error in the console');
  const status = known ? httpStatusOf(known.code) : 500;
  const { t } = ctx;
  if (status === 404) return sendPage(reply.code(404), page(ctx, t('NOT_FOUND_TITLE'), html`<p>${t('NOT_FOUND')}</p>`));
  if (!known || status >= 500) {
    return sendPage(reply.code(status), page(ctx, t('ERROR_TITLE'), html`<p>${t('ERROR_TEXT', { id: request.id })}</p>`));
  }
  const messages = errorEnvelope(known.issues, ctx.locale).errors;
  return sendPage(
    reply.code(status),
    page(
      ctx,
      t('ERROR_TITLE'),
      html`<ul class="errors">${messages.map((m) => html`<li>${m.field ? html`<code>${m.field}</code>: ` : null}${m.message}</li>`)}</ul>`,
    ),
  );
}
