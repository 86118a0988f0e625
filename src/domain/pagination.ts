import { z } from 'zod';
import { DomainError, type Issue } from './errors';

/** `page` and `limit` of list endpoints, as the address search has them (docs/api.md): default 1 and 10, limit ≤ 100. */
export const PAGINATION = { defaultPage: 1, defaultLimit: 10, maxLimit: 100, maxPage: 2_147_483_647 } as const;

export interface PageRequest {
  page: number;
  limit: number;
}

export interface PageResponse<T> {
  results: T[];
  page: number;
  lastPage: number;
  limit: number;
  total: number;
}

function integer(raw: unknown, field: string, fallback: number, max: number, issues: Issue[]): number {
  if (raw === undefined || (typeof raw === 'string' && raw.trim() === '')) return fallback;
  if (typeof raw !== 'string' || !/^[+-]?\d+$/.test(raw.trim())) {
    issues.push({ code: 'INVALID_TYPE', field, params: { type: 'integer' } });
    return fallback;
  }
  const value = Number(raw.trim());
  if (value < 1) issues.push({ code: 'TOO_SMALL', field, params: { min: 1 } });
  else if (value > max) issues.push({ code: 'TOO_LARGE', field, params: { max } });
  return value;
}

/**
 * Reads `page` and `limit` from a query string; every problem at once as VALIDATION_FAILED. A list may
 * choose its own default and largest limit (the import error list pages by a thousand).
 */
export function parsePageRequest(query: unknown, bounds: { defaultLimit?: number; maxLimit?: number } = {}): PageRequest {
  const q = (typeof query === 'object' && query !== null ? query : {}) as Record<string, unknown>;
  const issues: Issue[] = [];
  const page = integer(q.page, 'page', PAGINATION.defaultPage, PAGINATION.maxPage, issues);
  const limit = integer(q.limit, 'limit', bounds.defaultLimit ?? PAGINATION.defaultLimit, bounds.maxLimit ?? PAGINATION.maxLimit, issues);
  if (issues.length) throw new DomainError('VALIDATION_FAILED', issues);
  return { page, limit };
}

/** `page` and `limit` as the API documents them (the OpenAPI document), with a list's own bounds. */
export function pageQuery(bounds: { defaultLimit?: number; maxLimit?: number } = {}) {
  return z.object({
    page: z
      .int()
      .min(1)
      .max(PAGINATION.maxPage)
      .optional()
      .meta({ description: `default ${PAGINATION.defaultPage}` }),
    limit: z
      .int()
      .min(1)
      .max(bounds.maxLimit ?? PAGINATION.maxLimit)
      .optional()
      .meta({ description: `default ${bounds.defaultLimit ?? PAGINATION.defaultLimit}` }),
  });
}

export function pageResponse<T>(results: T[], request: PageRequest, total: number): PageResponse<T> {
  return { results, page: request.page, lastPage: Math.max(1, Math.ceil(total / request.limit)), limit: request.limit, total };
}

/** The rows a page skips. */
export function pageOffset(request: PageRequest): number {
  return (request.page - 1) * request.limit;
}
