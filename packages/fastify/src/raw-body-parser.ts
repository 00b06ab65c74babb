import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { decorateWebhookRequest } from './decorate-request.js';
import { flagWebhookRoutes, parseDeferred } from './deferred-parse.js';
import { defaultJsonParserOf } from './fastify-json-parse.js';

const RAW = Symbol.for('hookgate.fastify.raw-body');

type WithRaw = FastifyRequest & { [RAW]?: Buffer };

/** JSON media types: `application/json` and structured `+json` types. */
const JSON_TYPES: ReadonlyArray<string | RegExp> = ['application/json', /^application\/[\w.-]+\+json$/];

/**
 * Replaces the JSON parsers of `scope` (an encapsulated context: other routes keep Fastify's default
 * parser) with ones that keep the raw bytes for signature verification and still parse with
 * Fastify's own JSON parser, so its prototype-poisoning protection and body limit stay on.
 * With `anyType`, other content types are read as raw bytes too (for the receiver to answer 415).
 * With `parse: false`, JSON bodies are kept as raw bytes only (`request.body` stays undefined), for a
 * route that parses after verifying, like the plugin's.
 *
 * @example
 * app.register(async (scope) => { keepRawJsonBodies(scope, { bodyLimit: 1 << 20 }); scope.post('/x', handler); });
 */
export function keepRawJsonBodies(scope: FastifyInstance, options: { bodyLimit?: number; anyType?: boolean; parse?: boolean } = {}): void {
  const parseJson = defaultJsonParserOf(scope);
  const parserOptions = { parseAs: 'buffer' as const, bodyLimit: options.bodyLimit };
  // Declared on the scope's requests up front, so that keeping the bytes does not give every request a
  // new hidden class halfway through Fastify's handling (a stable shape keeps Fastify's own code fast).
  if (!scope.hasRequestDecorator(RAW as unknown as string)) scope.decorateRequest(RAW as unknown as string, undefined);
  const keepOnly = (request: FastifyRequest, body: Buffer, done: (error: null, body: undefined) => void) => {
    (request as WithRaw)[RAW] = body;
    done(null, undefined);
  };
  for (const type of JSON_TYPES) if (scope.hasContentTypeParser(type)) scope.removeContentTypeParser(type);
  for (const type of JSON_TYPES) {
    if (options.parse === false) {
      scope.addContentTypeParser(type, parserOptions, keepOnly);
      continue;
    }
    scope.addContentTypeParser(type, parserOptions, (request, body: Buffer, done) => {
      (request as WithRaw)[RAW] = body;
      // webhookRoute()'s routes parse after verifying the signature (an unsigned body is a 401).
      if (parseDeferred(request)) return done(null, undefined);
      parseJson(request, body.toString('utf8'), done);
    });
  }
  if (options.anyType) {
    if (scope.hasContentTypeParser('*')) scope.removeContentTypeParser('*');
    scope.addContentTypeParser('*', parserOptions, keepOnly);
  }
}

/**
 * The raw body bytes a `keepRawJsonBodies` parser kept for this request, if any.
 *
 * @example
 * const raw = rawBodyOf(request); // Buffer | undefined
 */
export function rawBodyOf(request: FastifyRequest): Buffer | undefined {
  return (request as WithRaw)[RAW];
}

/**
 * Options of the `hookgateRawBody` plugin.
 *
 * @example
 * await scope.register(hookgateRawBody, { bodyLimit: 64 * 1024 } satisfies RawBodyOptions);
 */
export interface RawBodyOptions {
  /** Largest body in bytes; default the Fastify instance's `bodyLimit`. */
  bodyLimit?: number;
}

/**
 * A plugin that makes the scope it is registered in keep the raw bytes of JSON bodies, so that
 * `webhookRoute()` verifies the exact bytes instead of a re-serialization, and parses them (with
 * Fastify's own parser) only once the signature is verified. Register it inside the encapsulated
 * scope of your webhook route(s), before them; the rest of the app keeps Fastify's default parser.
 *
 * @example
 * app.register(async (scope) => {
 *   await scope.register(hookgateRawBody);
 *   scope.all('/mine', webhookRoute({ secret }), (request) => ({ got: request.webhook!.type }));
 * });
 */
export const hookgateRawBody = fp<RawBodyOptions>(
  async (scope, options) => {
    keepRawJsonBodies(scope, { bodyLimit: options.bodyLimit });
    decorateWebhookRequest(scope);
    scope.addHook('onRoute', flagWebhookRoutes);
  },
  { fastify: '5.x', name: '@hookgate/fastify/raw-body' },
);
