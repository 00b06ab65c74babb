import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { decorateWebhookRequest } from './decorate-request.js';
import { type ReceiverResponse } from '@hookgate/core';
import {
  BodyTooLargeError,
  bodyDeadlineResponse,
  endUnreadBody,
  readNodeStreamWithin,
  receiverResponse,
  type NodeReadable,
  type UnreadBodyRequest,
} from '@hookgate/core/adapter';
import { deferredDeadlineMs, flagWebhookRoutes, parseDeferred } from './deferred-parse.js';
import { RefusedBodyError } from './refused-body-error.js';
import { keepConnectionForRefusedBody } from './refused-body-connection.js';
import { defaultJsonParserOf } from './fastify-json-parse.js';

const RAW = Symbol.for('hookgate.fastify.raw-body');
const ARRIVED = Symbol.for('hookgate.fastify.arrived');

type WithRaw = FastifyRequest & { [RAW]?: Buffer; [ARRIVED]?: number };

/** JSON media types: `application/json` and structured `+json` types. */
const JSON_TYPES: ReadonlyArray<string | RegExp> = ['application/json', /^application\/[\w.-]+\+json$/];

/** Fastify's default body limit, used when neither the parser nor the route gives one. */
const FASTIFY_DEFAULT_BODY_LIMIT = 1024 * 1024;

type Done = (error: Error | null, body?: unknown) => void;

/**
 * Reads a request body off its stream with core's reader, under `limit` and the deadline counted
 * from now (the parser runs as the request arrives, right after its headers): the bytes, or a
 * `RefusedBodyError` carrying the receiver's answer (413 at once for a declared or counted length
 * over the limit; 503 for a body still arriving at the deadline), after which the rest of the body
 * is read and dropped for a bounded time (core's `endUnreadBody`) so the client reads the answer
 * rather than a reset — Fastify's own reader answers 413 with `Connection: close` instead (the
 * scope's onError hook removes that mark from these answers: `keepConnectionForRefusedBody`).
 */
function readRaw(
  request: FastifyRequest,
  payload: unknown,
  limit: number,
  deadlineMs: number | undefined,
): Promise<Buffer | RefusedBodyError> {
  const receivedAt = Date.now();
  (request as WithRaw)[ARRIVED] = receivedAt;
  const raw = request.raw as unknown as UnreadBodyRequest;
  const refuse = (answer: ReceiverResponse) => {
    endUnreadBody(raw);
    return new RefusedBodyError(answer);
  };
  const tooLarge = () => refuse(receiverResponse('payload_too_large', new BodyTooLargeError(limit).message));
  const declared = Number(request.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) return Promise.resolve(tooLarge());
  const deadlineAt = deadlineMs === undefined ? Infinity : receivedAt + deadlineMs;
  return readNodeStreamWithin(payload as NodeReadable, limit, deadlineAt).then((read) => {
    if (read === 'too_large') return tooLarge();
    if (read === 'deadline') return refuse(bodyDeadlineResponse(deadlineMs ?? 0));
    return Buffer.isBuffer(read) ? read : Buffer.from(read.buffer, read.byteOffset, read.byteLength);
  });
}

/**
 * Replaces the JSON parsers of `scope` (an encapsulated context: other routes keep Fastify's default
 * parser) with ones that keep the raw bytes for signature verification and still parse with
 * Fastify's own JSON parser, so its prototype-poisoning protection stays on. The bytes are read with
 * core's reader (`bodyLimit`, else the route's, enforced by it): a body over the limit gets the 413
 * answer without a connection reset, and webhookRoute()'s routes (and, with `deadlineMs`, every
 * route of the scope) read under the receiver's deadline counted from arrival.
 * With `anyType`, other content types are read as raw bytes too (for the receiver to answer 415).
 * With `parse: false`, JSON bodies are kept as raw bytes only (`request.body` stays undefined), for a
 * route that parses after verifying, like the plugin's.
 *
 * @example
 * app.register(async (scope) => { keepRawJsonBodies(scope, { bodyLimit: 1 << 20 }); scope.post('/x', handler); });
 */
export function keepRawJsonBodies(
  scope: FastifyInstance,
  options: { bodyLimit?: number; anyType?: boolean; parse?: boolean; deadlineMs?: number } = {},
): void {
  const parseJson = defaultJsonParserOf(scope);
  // Declared on the scope's requests up front, so that keeping the bytes does not give every request a
  // new hidden class halfway through Fastify's handling (a stable shape keeps Fastify's own code fast).
  if (!scope.hasRequestDecorator(RAW)) scope.decorateRequest(RAW as unknown as string, undefined);
  if (!scope.hasRequestDecorator(ARRIVED)) scope.decorateRequest(ARRIVED as unknown as string, undefined);
  const limitOf = (request: FastifyRequest) =>
    options.bodyLimit ?? request.routeOptions.bodyLimit ?? FASTIFY_DEFAULT_BODY_LIMIT;
  const read = (request: FastifyRequest, payload: unknown, done: Done, then: (body: Buffer) => void) => {
    readRaw(request, payload, limitOf(request), deferredDeadlineMs(request) ?? options.deadlineMs).then(
      (body) => {
        if (body instanceof RefusedBodyError) return done(body);
        (request as WithRaw)[RAW] = body;
        then(body);
      },
      (error: Error) => done(error),
    );
  };
  const keepOnly = (request: FastifyRequest, payload: unknown, done: Done) =>
    read(request, payload, done, () => done(null, undefined));
  // Fastify marks a parser's error `Connection: close`; a refused body is being read and dropped, so
  // the connection is kept until it ends and the sender reads the answer rather than a reset.
  scope.addHook('onError', (request, reply, error, hookDone) => {
    keepConnectionForRefusedBody(request, reply, error);
    hookDone();
  });
  for (const type of JSON_TYPES) if (scope.hasContentTypeParser(type)) scope.removeContentTypeParser(type);
  for (const type of JSON_TYPES) {
    if (options.parse === false) {
      scope.addContentTypeParser(type, keepOnly);
      continue;
    }
    scope.addContentTypeParser(type, (request, payload, done) =>
      read(request, payload, done, (body) => {
        // webhookRoute()'s routes parse after verifying the signature (an unsigned body is a 401).
        if (parseDeferred(request)) return done(null, undefined);
        // Fastify's default JSON parser answers through `done`; its type also allows an async parser.
        void parseJson(request, body.toString('utf8'), done);
      }),
    );
  }
  if (options.anyType) {
    if (scope.hasContentTypeParser('*')) scope.removeContentTypeParser('*');
    scope.addContentTypeParser('*', keepOnly);
  }
}

/**
 * When the request arrived, as a `keepRawJsonBodies` parser saw it (`Date.now()`), if it read the body.
 *
 * @example
 * receiver.handle({ ...input, receivedAt: arrivalOf(request) });
 */
export function arrivalOf(request: FastifyRequest): number | undefined {
  return (request as WithRaw)[ARRIVED];
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
