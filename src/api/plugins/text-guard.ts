import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { DomainError, type Issue } from '../../domain/errors';
import { findDirtyText, isCleanText } from '../../domain/text';

/**
 * Text the service stores or queries with must be text: no NUL (PostgreSQL refuses 0x00 in text and jsonb)
 * and valid UTF-8 (no silent U+FFFD, no lone surrogates). Checked once for every request, before any
 * handler sees it: path parameters and query values from the raw URL, the JSON body after parsing. A refusal
 * is a 400 naming the field (docs/api.md, "Text").
 */

/**
 * Percent-decodes a URL component, refusing invalid UTF-8 (undefined). A `%` not followed by two hex digits
 * stays a literal `%`, as Fastify's own parsers take it.
 */
function decodeUrlComponent(raw: string, plusIsSpace = false): string | undefined {
  const text = (plusIsSpace ? raw.replace(/\+/g, ' ') : raw).replace(/%(?![0-9A-Fa-f]{2})/g, '%25');
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
}

const refusal = (field: string | undefined): DomainError => {
  const issue: Issue = { code: 'INVALID_TEXT', ...(field ? { field } : {}) };
  return new DomainError('VALIDATION_FAILED', [issue]);
};

/** The path parameter (by the route's pattern) or query parameter of the raw URL that is not text. */
function dirtyUrlPart(request: FastifyRequest): { field?: string } | undefined {
  const raw = request.raw.url ?? '';
  const q = raw.indexOf('?');
  const rawPath = q < 0 ? raw : raw.slice(0, q);
  const rawQuery = q < 0 ? '' : raw.slice(q + 1);
  if (rawPath.includes('%')) {
    const pattern = (request.routeOptions.url ?? '').split('/');
    const segments = rawPath.split('/');
    for (let i = 0; i < segments.length; i++) {
      const decoded = decodeUrlComponent(segments[i]);
      if (decoded !== undefined && isCleanText(decoded)) continue;
      const name = pattern.length === segments.length && pattern[i]?.startsWith(':') ? pattern[i].slice(1) : undefined;
      return name ? { field: name } : {};
    }
  }
  if (rawQuery) {
    for (const pair of rawQuery.split('&')) {
      const eq = pair.indexOf('=');
      const key = decodeUrlComponent(eq < 0 ? pair : pair.slice(0, eq), true);
      if (key === undefined || !isCleanText(key)) return {};
      const value = eq < 0 ? '' : decodeUrlComponent(pair.slice(eq + 1), true);
      if (value === undefined || !isCleanText(value)) return { field: key.replace(/\[\]$/, '') };
    }
  }
  return undefined;
}

/** Registered after the i18n plugin, so a refusal is in the caller's language. */
export const textGuardPlugin = fp(async (app) => {
  app.addHook('onRequest', async (request) => {
    const dirty = dirtyUrlPart(request);
    if (dirty) throw refusal(dirty.field);
  });
  app.addHook('preValidation', async (request) => {
    if (request.body === undefined || request.body === null || typeof request.body !== 'object' || Buffer.isBuffer(request.body)) return;
    const field = findDirtyText(request.body);
    if (field !== undefined) throw refusal(field || undefined);
  });
});
