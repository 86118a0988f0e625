import type { FastifyPluginAsync } from 'fastify';
import type { ConsolePageDeps } from '../console-deps';

/** The webhooks page: list, create, disable; delivery log and redelivery. */
export function webhookPages(deps: ConsolePageDeps): FastifyPluginAsync {
  void deps;
  return async () => {};
}
