import type { FastifyPluginAsync } from 'fastify';
import { SANDBOX_LOGOS } from '../../carriers/sandbox-carriers';
import { DomainError } from '../../domain/errors';

/** `GET /api/v1/providers/{id}/logo.svg`: the absolute `provider.logo` URL of lookups resolves here. */
export function providerRoutes(): FastifyPluginAsync {
  return async (app) => {
    app.get<{ Params: { id: string } }>('/providers/:id/logo.svg', async (request, reply) => {
      const logo = SANDBOX_LOGOS[Number(request.params.id)];
      if (!logo) throw new DomainError('ROUTE_NOT_FOUND', { params: { method: request.method, url: request.url } });
      return reply.type('image/svg+xml').header('cache-control', 'public, max-age=86400').send(logo);
    });
  };
}
