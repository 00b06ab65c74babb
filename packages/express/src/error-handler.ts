import type { ErrorRequestHandler } from 'express';
import { failRoute } from './route-outcome.js';

/**
 * Error middleware for pass-through use: an error thrown by a route behind `hookgate()` becomes the
 * receiver's 500 answer (JSON, no stack trace; the sender retries) and reaches `onError`, instead
 * of Express's default page (which shows the stack outside production). Other errors pass on.
 *
 * @example
 * app.post('/webhooks', hookgate({ secret }), handler);
 * app.use(hookgateErrorHandler()); // after the routes
 */
export function hookgateErrorHandler(): ErrorRequestHandler {
  return (error, req, _res, next) => {
    if (!failRoute(req, error)) next(error);
  };
}
