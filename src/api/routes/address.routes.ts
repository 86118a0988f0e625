import type { AddressService } from '../../services/addresses.service';
import { z } from 'zod';
import { addressSearchQuery, parseAddressSearchQuery } from '../../address/search-params';
import { envelope, operation, page } from '../openapi/operation';
import { parsedBy, type RoutesPlugin } from '../validation';

const search = operation({
  operationId: 'searchAddresses',
  summary: 'Search addresses',
  description:
    'Places, districts, cities and postal codes of a country matching a keyword (prefix, one typo, Turkish letters folded), for filling in parties. Every problem with the parameters is reported at once.',
  tags: ['Address search'],
  access: 'apiKey',
  query: parsedBy(addressSearchQuery, parseAddressSearchQuery),
  answers: {
    200: {
      description: 'A page of matches.',
      schema: envelope(
        'AddressSearchAnswer',
        page(z.object({ stateCode: z.string(), countryIso2: z.string(), city: z.string(), state: z.string(), postalCode: z.string(), place: z.string() })),
      ),
    },
  },
});

/**
 * the API (docs/api.md): GET /address/search (mounted under /api/v1). Validation failures throw
 * DomainError('VALIDATION_FAILED') with one issue per problem; the app's error handler localises them.
 * A search is one SQL statement (src/address/address-search.ts).
 */
export function addressRoutes(deps: { addresses: AddressService }): RoutesPlugin {
  return async (app) => {
    app.get('/address/search', { schema: search }, async (request) => {
      const data = await deps.addresses.search(request.query);
      return { status: true, message: null, data };
    });
  };
}
