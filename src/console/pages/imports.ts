import type { FastifyPluginAsync } from 'fastify';
import type { ConsolePageDeps } from '../console-deps';

/** The imports page: CSV upload, live progress, per-row errors, labels of an import. */
export function importPages(deps: ConsolePageDeps): FastifyPluginAsync {
  void deps;
  return async () => {};
}
