import { createReceiver, type Receiver, type ReceiverOptions, type StandardSchemaV1 } from '@hookgate/core';
import {
  createAdapterHandler,
  isPassThrough,
  receiverResponse,
  writeNodeResponse,
  type FrameworkAdapter,
  type ReceiverDestination,
} from '@hookgate/core/adapter';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { checkExpressOptions, type ExpressExtra, type HookgateExpressOptions } from './options.js';
import { readExpressBody } from './read-express-body.js';
import { routeOutcome } from './route-outcome.js';

/** One Express call: the request, the response and the next handler. */
interface ExpressCall {
  req: Request;
  res: Response;
  next: NextFunction;
}

/** Express's side of core's adapter contract. */
function expressAdapter(actions: boolean): FrameworkAdapter<ExpressCall, void, ExpressExtra> {
  return {
    request: ({ req }) => ({ method: req.method, headers: req.headers }),
    readBody: ({ req }, limits) => readExpressBody(req, limits, limits.receivedAt),
    context: ({ req, res }) => ({ req, res }),
    // The route's own answer stands (`writeNodeResponse` writes nothing once headers are sent).
    writeAnswer: ({ req, res }, answer, early) => writeNodeResponse(res, answer, early ? req : undefined),
    next({ req, res, next }, accepted) {
      req.webhook = accepted.message;
      if (actions) req.webhookPayload = accepted.message;
      req.webhookContext = accepted.context;
      return routeOutcome(req, res, next, accepted.context.signal);
    },
  };
}

/**
 * The middleware, with its receiver (for `drain()` on shutdown).
 *
 * @example
 * const mw: HookgateMiddleware = hookgate({ secret, onMessage });
 * process.on('SIGTERM', async () => { await mw.receiver.drain(); process.exit(0); });
 */
export type HookgateMiddleware = RequestHandler & {
  /** The core receiver behind the middleware: `await mw.receiver.drain()` before exiting. */
  readonly receiver: Receiver<ExpressExtra>;
};

/**
 * Express middleware that verifies and validates webhook deliveries with core's receiver. With
 * `on` / `onMessage` it answers by itself; without them it sets `req.webhook` and calls `next()`,
 * running the route under the deadline. Reads the raw body itself, or verifies the body that
 * `express.json()` already parsed by re-serialization.
 *
 * @example
 * import express from 'express';
 * import { hookgate, hookgateErrorHandler } from '@hookgate/express';
 *
 * const app = express();
 * // Handlers given: the middleware answers (200, 401, 400, 413, 415, 405, 500, 503).
 * app.all('/webhooks', hookgate({ secret: process.env.WEBHOOK_SECRET!, on: { track: (msg) => console.log(msg.event) } }));
 * // Or pass-through: the route answers, the message is typed on the request.
 * app.all('/events', hookgate({ secret: process.env.WEBHOOK_SECRET! }), (req, res) => {
 *   if (req.webhook?.type === 'identify') console.log(req.webhook.traits);
 *   res.json({ ok: true });
 * });
 * app.use(hookgateErrorHandler());
 */
export function hookgate<
  S extends StandardSchemaV1 | undefined = undefined,
  D extends ReceiverDestination = 'classic',
  TPlan = unknown,
>(given: HookgateExpressOptions<S, D, TPlan>): HookgateMiddleware {
  const options = checkExpressOptions(given);
  // Either destination's options: core picks the destination's rules from `destination`.
  const receiver = createReceiver<ExpressExtra>(options as ReceiverOptions<ExpressExtra>);
  const serve = createAdapterHandler(
    receiver,
    expressAdapter(options.destination === 'actions'),
    isPassThrough(options),
  );
  const middleware: RequestHandler = (req, res, next) => {
    serve({ req, res, next }).catch(() => {
      // Reading the body failed (the client went away) or a store threw: nothing was handled.
      writeNodeResponse(res, receiverResponse('handler_error', 'The receiver failed; the sender will retry.'), req);
    });
  };
  return Object.assign(middleware, { receiver });
}
