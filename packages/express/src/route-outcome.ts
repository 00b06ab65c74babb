import type { NextFunction, Request, Response } from 'express';
import { nodeRouteOutcome } from '@hookgate/core/adapter';

const FAIL = Symbol.for('hookgate.express.fail');

type Failing = Request & { [FAIL]?: (error: unknown) => void };

/**
 * Calls `next()` and resolves when the route behind the middleware has answered 2xx; rejects when
 * it answered anything else, when the connection closed first, or when `hookgateErrorHandler()`
 * received the route's error (pass-through use).
 *
 * @example
 * await receiver.run(accepted, () => routeOutcome(req, res, next, accepted.context.signal));
 */
export function routeOutcome(req: Request, res: Response, next: NextFunction, signal: AbortSignal): Promise<void> {
  const outcome = nodeRouteOutcome(res, signal, {
    attach: (fail) => ((req as Failing)[FAIL] = fail),
    detach: () => delete (req as Failing)[FAIL],
  });
  next();
  return outcome;
}

/**
 * Hands a route's error to the pending webhook of `req`, if any; `true` when it took it.
 *
 * @example
 * if (!failRoute(req, err)) next(err);
 */
export function failRoute(req: Request, error: unknown): boolean {
  const fail = (req as Failing)[FAIL];
  if (!fail) return false;
  fail(error);
  return true;
}
