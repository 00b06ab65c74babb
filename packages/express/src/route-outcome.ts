import type { NextFunction, Request, Response } from 'express';
import { RouteFailedError } from './route-failed-error.js';

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
  return new Promise<void>((resolve, reject) => {
    let settled = false;
    const settle = (error?: unknown) => {
      if (settled) return;
      settled = true;
      res.off('finish', onFinish);
      res.off('close', onClose);
      delete (req as Failing)[FAIL];
      if (error === undefined) resolve();
      else reject(error);
    };
    const onFinish = () => {
      if (res.statusCode >= 200 && res.statusCode < 300) settle();
      else settle(signal.aborted ? signal.reason : new RouteFailedError(res.statusCode));
    };
    const onClose = () => settle(new Error('The connection closed before the route answered.'));
    res.on('finish', onFinish);
    res.on('close', onClose);
    (req as Failing)[FAIL] = (error) => settle(error ?? new Error('The route failed without an error value.'));
    next();
  });
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
