import type { FastifyPluginAsync } from 'fastify';
import type { ConsolePageDeps } from '../console-deps';

/** The order sources page: create Shopify or WooCommerce sources, their delivery URL and event log. */
export function orderSourcePages(deps: ConsolePageDeps): FastifyPluginAsync {
  void deps;
  return async () => {};
}
