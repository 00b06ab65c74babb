import {
  createReceiver,
  isPassThrough,
  receiverResponse,
  writeNodeResponse,
  type Receiver,
  type ReceiverDestination,
  type ReceiverOptions,
  type StandardSchemaV1,
} from '@hookgate/core';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { checkExpressOptions, type ExpressExtra, type HookgateExpressOptions } from './options.js';
import { readExpressBody } from './read-express-body.js';
import { routeOutcome } from './route-outcome.js';

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
>(
  given: HookgateExpressOptions<S, D, TPlan>,
): HookgateMiddleware {
  const options = checkExpressOptions(given);
  // Either destination's options: core picks the destination's rules from `destination`.
  const receiver = createReceiver<ExpressExtra>(options as ReceiverOptions<ExpressExtra>);
  const passThrough = isPassThrough(options);
  const actions = options.destination === 'actions';

  async function serve(req: Request, res: Response, next: NextFunction): Promise<void> {
    // The deadline counts from here: reading the body is inside it (a parser mounted before hookgate
    // reads the body before this point, outside the budget; see the Express guide).
    const receivedAt = Date.now();
    const refused = receiver.precheck(req.method, req.headers);
    if (refused) return writeNodeResponse(res, refused, req);
    const body = await readExpressBody(req, receiver, receivedAt);
    if ('status' in body) return writeNodeResponse(res, body, req);
    const input = { method: req.method, headers: req.headers, ...body, context: { req, res }, receivedAt };
    if (!passThrough) return writeNodeResponse(res, await receiver.handle(input));

    const accepted = await receiver.accept(input);
    if (accepted.kind === 'response') return writeNodeResponse(res, accepted.response);
    req.webhook = accepted.message;
    if (actions) req.webhookPayload = accepted.message;
    req.webhookContext = accepted.context;
    const answer = await receiver.run(accepted, () => routeOutcome(req, res, next, accepted.context.signal));
    // The route's own answer stands; the receiver answers when it has not: at the deadline, or
    // with 500 when hookgateErrorHandler() passed it the route's error.
    writeNodeResponse(res, answer);
  }

  const middleware: RequestHandler = (req, res, next) => {
    serve(req, res, next).catch(() => {
      // Reading the body failed (the client went away) or a store threw: nothing was handled.
      writeNodeResponse(res, receiverResponse('handler_error', 'The receiver failed; the sender will retry.'), req);
    });
  };
  return Object.assign(middleware, { receiver });
}
