import fp from 'fastify-plugin';
import { negotiateLocale, type Locale } from '../../i18n/messages';

declare module 'fastify' {
  interface FastifyRequest {
    locale: Locale;
  }
}

/** Picks the caller's language from Accept-Language and says which one answered (Content-Language). */
export const i18nPlugin = fp(async (app) => {
  app.decorateRequest('locale', 'en');
  app.addHook('onRequest', async (request, reply) => {
    request.locale = negotiateLocale(request.headers['accept-language']);
    reply.header('content-language', request.locale);
  });
});
