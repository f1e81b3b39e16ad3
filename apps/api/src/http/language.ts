// The caller's language, taken from Accept-Language (the web app sends `en` or `lt`; a
// browser's full header such as `lt-LT,lt;q=0.9,en;q=0.8` is honoured by quality).
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { DEFAULT_LANGUAGE, LANGUAGES, type Language } from '@debesis/contract';

declare module 'fastify' {
  interface FastifyRequest {
    language: Language;
  }
}

export function pickLanguage(header: string | undefined): Language {
  if (!header) return DEFAULT_LANGUAGE;
  const ranked = header
    .split(',')
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.find((param) => param.trim().startsWith('q='));
      return {
        base: tag.trim().toLowerCase().split('-')[0] ?? '',
        q: q ? Number(q.trim().slice(2)) : 1,
        index,
      };
    })
    .filter((entry) => Number.isFinite(entry.q) && entry.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index);
  const match = ranked.find((entry) => (LANGUAGES as readonly string[]).includes(entry.base));
  return (match?.base as Language | undefined) ?? DEFAULT_LANGUAGE;
}

export const languagePlugin = fp(async (app: FastifyInstance) => {
  app.decorateRequest('language', DEFAULT_LANGUAGE);
  app.addHook('onRequest', (request, _reply, done) => {
    request.language = pickLanguage(request.headers['accept-language']);
    done();
  });
});
