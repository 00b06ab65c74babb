import type { FastifyInstance } from 'fastify';

/**
 * Fastify's default JSON body parser (callback style) with the instance's `onProtoPoisoning` and
 * `onConstructorPoisoning` settings (Fastify's default for both: `'error'`).
 *
 * @example
 * const parseJson = defaultJsonParserOf(scope);
 * parseJson(request, '{"a":1}', (error, body) => {});
 */
export function defaultJsonParserOf(scope: FastifyInstance) {
  return scope.getDefaultJsonParser(
    scope.initialConfig.onProtoPoisoning ?? 'error',
    scope.initialConfig.onConstructorPoisoning ?? 'error',
  );
}
