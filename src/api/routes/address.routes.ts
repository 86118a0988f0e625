import type { FastifyPluginAsync } from 'fastify';
import type { Queryable } from '../../db/database';
import { searchAddresses } from '../../db/addresses.repository';
import { parseAddressSearchQuery } from '../../address/search-params';

/**
 * the API (docs/api.md): GET /address/search (mounted under /api/v1). Validation failures throw
 * DomainError('VALIDATION_FAILED') with one issue per problem; the app's error handler localises them.
 * A search is one SQL statement (src/address/address-search.ts).
 */
export function addressRoutes(deps: { db: Queryable }): FastifyPluginAsync {
  return async (app) => {
    app.get('/address/search', async (request) => {
      const query = parseAddressSearchQuery(request.query);
      const data = await searchAddresses(deps.db, query);
      return { status: true, message: null, data };
    });
  };
}
