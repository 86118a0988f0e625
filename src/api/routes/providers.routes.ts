import { z } from 'zod';
import { SANDBOX_LOGOS } from '../../carriers/sandbox-carriers';
import { DomainError } from '../../domain/errors';
import type { ProviderService } from '../../services/providers.service';
import { envelope, operation } from '../openapi/operation';
import { providerIdPath } from './params';
import type { RoutesPlugin } from '../validation';

/** A generic mark for carrier-account providers (their carriers have no logo of ours). */
const ACCOUNT_LOGO_SVG = `<svg xmlns="http://www.w3.org/2000/svg" width="160" height="48" viewBox="0 0 160 48" role="img" aria-label="Carrier account">
  <rect width="160" height="48" rx="8" fill="#37474f"/>
  <path d="M12 30 L22 16 L32 30 Z" fill="#ffb300"/>
  <text x="40" y="30" font-family="DejaVu Sans, Arial, sans-serif" font-size="13" font-weight="bold" fill="#ffffff">CARRIER</text>
</svg>
`;

const logo = operation({
  operationId: 'getProviderLogo',
  summary: "A provider's logo",
  description: 'The `provider.logo` URL of lookups. No API key.',
  tags: ['Providers'],
  access: 'public',
  params: providerIdPath,
  answers: { 200: { description: 'An SVG image.', content: { 'image/svg+xml': { schema: { type: 'string' } } } } },
  errors: [404],
});
const listProviders = operation({
  operationId: 'listProviders',
  summary: 'The providers you can ship with',
  description: 'The sandbox carriers and your carrier accounts, with what each supports.',
  tags: ['Providers'],
  access: 'apiKey',
  answers: {
    200: {
      description: 'Every provider.',
      schema: envelope(
        'ProviderListAnswer',
        z.array(
          z.object({
            id: z.int(),
            name: z.string(),
            logo: z.string(),
            carrier: z.string().meta({ description: '`sandbox` for the built-in carriers, the kind of an account otherwise' }),
            status: z.int(),
            supports: z.object({ quotes: z.boolean(), cancel_in_transit: z.boolean(), push_tracking: z.boolean() }),
          }),
        ),
      ),
    },
  },
});

/**
 * `GET /api/v1/providers/{id}/logo.svg` (no API key): the absolute `provider.logo` URL of lookups resolves here.
 * Carriers' callbacks are in carrier-callbacks.routes.ts, the public tracking view in tracking.routes.ts.
 */
export function providerRoutes(deps: { providerService?: ProviderService }): RoutesPlugin {
  return async (app) => {
    app.get('/providers/:id/logo.svg', { schema: logo }, async (request, reply) => {
      const id = request.params.id ?? 0;
      const isAccount = !SANDBOX_LOGOS[id] && id > 0 && (await deps.providerService?.describe(id)) !== undefined;
      const logo = SANDBOX_LOGOS[id] ?? (isAccount ? ACCOUNT_LOGO_SVG : undefined);
      if (!logo) throw new DomainError('ROUTE_NOT_FOUND', { params: { method: request.method, url: request.url } });
      return reply.type('image/svg+xml').header('cache-control', 'public, max-age=86400').send(logo);
    });
  };
}

/** `GET /api/v1/providers`: what the caller can ship with (built-in carriers and its own carrier accounts). */
export function providerListRoutes(deps: { providerService: ProviderService }): RoutesPlugin {
  return async (app) => {
    app.get('/providers', { schema: listProviders }, async (request) => ({
      status: true,
      message: null,
      data: await deps.providerService.list(request.caller.customerId),
    }));
  };
}
