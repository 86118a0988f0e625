import type { FastifyPluginAsync } from 'fastify';
import type { ConsolePageDeps } from '../console-deps';

/** The new-draft and edit-draft form, with address search filling the parties. */
export function draftPages(deps: ConsolePageDeps): FastifyPluginAsync {
  void deps;
  return async () => {};
}
