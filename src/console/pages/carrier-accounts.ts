import type { FastifyPluginAsync } from 'fastify';
import type { ConsolePageDeps } from '../console-deps';

/** The carrier accounts page: list, create, rotate credentials, disable; the providers the customer can use. */
export function carrierAccountPages(deps: ConsolePageDeps): FastifyPluginAsync {
  void deps;
  return async () => {};
}
