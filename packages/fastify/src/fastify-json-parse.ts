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

/**
 * Fastify's own JSON parser for a scope (secure-json-parse, with the instance's `onProtoPoisoning` and
 * `onConstructorPoisoning` settings) as a plain `(text) => value` that throws on bad or poisoned JSON.
 * The plugin's route hands it to the receiver, which parses only after the signature is verified, so
 * an unsigned request is answered 401 whatever its body, as on the other adapters.
 *
 * @example
 * const parse = fastifyJsonParse(scope);
 * parse('{"a":1}'); // { a: 1 }
 * parse('{"__proto__":{"x":1}}'); // throws (Fastify's default: onProtoPoisoning 'error')
 */
export function fastifyJsonParse(scope: FastifyInstance): (text: string) => unknown {
  const parseJson = defaultJsonParserOf(scope);
  return (text) => {
    let answered = false;
    let failure: Error | null = null;
    let value: unknown;
    // Fastify's default JSON parser does not read the request and answers synchronously.
    void parseJson(undefined as never, text, (error, body) => {
      answered = true;
      failure = error;
      value = body;
    });
    if (!answered) throw new Error("Fastify's JSON parser did not answer synchronously.");
    // eslint-disable-next-line @typescript-eslint/only-throw-error -- failure is the parser's Error; TypeScript does not see the callback assign it
    if (failure) throw failure;
    return value;
  };
}
