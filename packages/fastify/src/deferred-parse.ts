import type { FastifyInstance, FastifyRequest, RouteOptions } from 'fastify';
import { fastifyJsonParse } from './fastify-json-parse.js';

/** Route config flag: this route's JSON body is parsed by its webhookRoute() preHandler, after verification. */
const DEFER = Symbol.for('hookgate.fastify.defer-parse');
/** The preHandlers made by webhookRoute(): how a route is recognised at registration. */
const webhookPreHandlers = new WeakSet<object>();
/** Fastify's JSON parser per instance, made once. */
const parsers = new WeakMap<FastifyInstance, (text: string) => unknown>();

/**
 * Marks a preHandler as webhookRoute()'s, so that a `hookgateRawBody` scope defers the JSON parse of
 * the routes that use it until the signature is verified.
 *
 * @example
 * markWebhookPreHandler(route.preHandler);
 */
export function markWebhookPreHandler(preHandler: object): void {
  webhookPreHandlers.add(preHandler);
}

/**
 * An `onRoute` hook for a `hookgateRawBody` scope: a route whose preHandlers include webhookRoute()'s
 * gets the defer flag in its config (the parser then keeps only the raw bytes).
 *
 * @example
 * scope.addHook('onRoute', flagWebhookRoutes);
 */
export function flagWebhookRoutes(route: RouteOptions): void {
  const pre = route.preHandler;
  const list: unknown[] = Array.isArray(pre) ? pre : pre ? [pre] : [];
  if (list.some((h) => typeof h === 'function' && webhookPreHandlers.has(h))) {
    route.config = { ...(route.config as object | undefined), [DEFER]: true } as typeof route.config;
  }
}

/**
 * Whether this request's route parses its JSON after verification (webhookRoute() in a
 * `hookgateRawBody` scope).
 *
 * @example
 * if (parseDeferred(request)) done(null, undefined);
 */
export function parseDeferred(request: FastifyRequest): boolean {
  const config = request.routeOptions.config as unknown as Record<symbol, unknown> | undefined;
  return config?.[DEFER] === true;
}

/**
 * Fastify's own JSON parser for the request's instance (poisoning settings included), made once.
 *
 * @example
 * const value = jsonParserOf(request)(text);
 */
export function jsonParserOf(request: FastifyRequest): (text: string) => unknown {
  let parse = parsers.get(request.server);
  if (parse === undefined) {
    parse = fastifyJsonParse(request.server);
    parsers.set(request.server, parse);
  }
  return parse;
}
