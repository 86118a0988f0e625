import type { FastifyPluginAsync } from 'fastify';
import type { ConsolePageDeps } from '../console-deps';

/** The address search page: the address search endpoint as a search box. */
export function addressSearchPages(deps: ConsolePageDeps): FastifyPluginAsync {
  void deps;
  return async () => {};
}
