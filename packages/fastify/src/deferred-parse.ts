import type { FastifyRequest, RouteOptions } from 'fastify';

/** Route config flag: this route's JSON body is parsed by its webhookRoute() preHandler, after verification. */
const DEFER = Symbol.for('hookgate.fastify.defer-parse');
/** The preHandlers made by webhookRoute(), with their receiver's deadline: how a route is recognised at registration. */
const webhookPreHandlers = new WeakMap<object, number>();

/**
 * Marks a preHandler as webhookRoute()'s, so that a `hookgateRawBody` scope defers the JSON parse of
 * the routes that use it until the signature is verified, and reads their bodies under the
 * receiver's deadline (`deadlineMs`).
 *
 * @example
 * markWebhookPreHandler(route.preHandler, receiver.deadlineMs);
 */
export function markWebhookPreHandler(preHandler: object, deadlineMs: number): void {
  webhookPreHandlers.set(preHandler, deadlineMs);
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
  const mine = list.find((h) => typeof h === 'function' && webhookPreHandlers.has(h)) as object | undefined;
  if (mine !== undefined) {
    route.config = {
      ...route.config,
      [DEFER]: webhookPreHandlers.get(mine),
    };
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
  return deferredDeadlineMs(request) !== undefined;
}

/**
 * The receiver's deadline of this request's webhookRoute() route in a `hookgateRawBody` scope, or
 * `undefined` for any other route.
 *
 * @example
 * const deadlineMs = deferredDeadlineMs(request); // 4000
 */
export function deferredDeadlineMs(request: FastifyRequest): number | undefined {
  const config = request.routeOptions.config as unknown as Record<symbol, unknown> | undefined;
  const value = config?.[DEFER];
  return typeof value === 'number' ? value : undefined;
}
