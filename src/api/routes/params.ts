import { z } from 'zod';
import { DomainError } from '../../domain/errors';
import { pageQuery, parsePageRequest } from '../../domain/pagination';
import { parsedBy } from '../validation';

const MAX_ID = 2_147_483_647 * 1024; // bigserial ids, kept well inside Number's safe range
/** Provider ids (built-in carriers and carrier accounts) are 32-bit. */
export const MAX_PROVIDER_ID = 2_147_483_647;

/** A positive integer id in a path (leading zeros allowed, as Number reads them). */
export const idParam = z
  .string()
  .max(15)
  .regex(/^0*[1-9]\d*$/)
  .meta({ description: 'a positive integer id', examples: ['1'] });

/** A positive integer path id, or a 404-free 400 naming the parameter. */
export function parseId(value: string, field: string, max = MAX_ID): number {
  if (!idParam.safeParse(value).success || Number(value) > max) {
    throw new DomainError('VALIDATION_FAILED', [{ code: 'INVALID_ID', field }]);
  }
  return Number(value);
}

/** A provider id from a path, or undefined when it cannot name one (the caller answers "not found"). */
export function providerIdOf(value: string): number | undefined {
  return idParam.safeParse(value).success && Number(value) <= MAX_PROVIDER_ID ? Number(value) : undefined;
}

/** A text path segment (a reference, a barcode, a tracking code): 1 to 255 characters. */
export const textParam = (description: string) => z.string().min(1).max(255).meta({ description });

/** `{id}`: a provider id (the routes of providers, tracking and carrier callbacks). */
export const providerIdParams = z.object({ id: idParam.meta({ description: 'the provider id' }) });

/**
 * Path parameters that are all ids (`documented` says which and how they read), parsed to numbers; a value that
 * is no id is refused as `field` (the domain's name of the id, e.g. `draft_consignment_id`).
 */
export function idParams<S extends z.ZodObject>(documented: S, field: string, max = MAX_ID) {
  return parsedBy(
    documented,
    (params) =>
      Object.fromEntries(Object.entries(params as Record<string, string>).map(([key, value]) => [key, parseId(value, field, max)])) as Record<
        keyof z.input<S>,
        number
      >,
  );
}

/** `page` and `limit` of a list with its own bounds, parsed to a page request (defaults filled in). */
export function pageParams(bounds: { defaultLimit?: number; maxLimit?: number } = {}) {
  return parsedBy(pageQuery(bounds), (query) => parsePageRequest(query, bounds));
}

/**
 * Parameters taken as sent: the handler or service judges them with its own answer (a value that names nothing
 * is "not found", a link that does not verify is 403), never a 400, so the schema documents and types them.
 */
export function asSent<S extends z.ZodObject>(documented: S) {
  return parsedBy(documented, (params) => params as z.input<S>);
}

/** `{id}` a provider id, undefined when the path cannot name one (the routes answer "not found" or 401 then, not 400). */
export const providerIdPath = parsedBy(providerIdParams, (params) => ({ id: providerIdOf(params.id) }));
