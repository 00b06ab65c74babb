import {
  RouteFailedError,
  createReceiver,
  type Receiver,
  type ReceiverOptions,
  type ReceiverResponse,
  type StandardSchemaV1,
} from '@hookgate/core';
import {
  answerHeaders,
  createAdapterHandler,
  endUnreadBody,
  isPassThrough,
  type FrameworkAdapter,
  type ReceiverDestination,
} from '@hookgate/core/adapter';
import type { Context, MiddlewareHandler, Next } from 'hono';
import {
  checkHonoOptions,
  type HonoExtra,
  type HookgateActionsEnv,
  type HookgateEnv,
  type HookgateHonoOptions,
} from './options.js';
import { nodeIncomingOf, nodeOutgoingOf, type NodeIncoming } from './node-incoming.js';
import { keepSignedBody, readHonoBody } from './read-hono-body.js';
import { holdEarlyClose } from './hold-early-close.js';

/**
 * The middleware, with its receiver (for `drain()` on shutdown). `E` is the `Env` of the routes
 * behind it: `HookgateEnv` (classic messages), or `HookgateActionsEnv` for `destination: 'actions'`.
 *
 * @example
 * const mw: HookgateMiddleware = hookgate({ secret, mode: 'acknowledge', onMessage });
 * process.on('SIGTERM', async () => { await mw.receiver.drain(); process.exit(0); });
 */
export type HookgateMiddleware<E extends HookgateEnv | HookgateActionsEnv = HookgateEnv> = MiddlewareHandler<E> & {
  /** The core receiver behind the middleware: `await mw.receiver.drain()` before exiting. */
  readonly receiver: Receiver<HonoExtra>;
};

/** The answer as a Response, with its length: @hono/node-server writes it as it is (answers made once stay unchanged). */
function toResponse(answer: ReceiverResponse): Response {
  return new Response(answer.body, { status: answer.status, headers: answerHeaders(answer) });
}

/**
 * An answer sent before the body ended (413, 415, 405, 503 at the deadline): on Node, the rest of
 * the body is read and dropped after it (core's `endUnreadBody`), and `@hono/node-server`'s own close
 * 0.5 s after the answer waits for the body's end (`holdEarlyClose`), so the client reads the answer
 * instead of a reset.
 */
function refusal(answer: ReceiverResponse, incoming: NodeIncoming | undefined, env: unknown): Response {
  if (incoming !== undefined && incoming.readableEnded !== true) {
    const outgoing = nodeOutgoingOf(env);
    if (outgoing !== undefined) {
      endUnreadBody(incoming, outgoing);
      holdEarlyClose(incoming);
    }
  }
  return toResponse(answer);
}

/**
 * On Workers, keeps the isolate alive for the handlers that acknowledge mode runs after the answer
 * (`ctx.waitUntil`): without it, workerd cuts them off with the request. Elsewhere Hono has no
 * execution context (reading it throws) and nothing is needed.
 */
function keepAliveForBackground(
  c: { executionCtx: { waitUntil(p: Promise<unknown>): void } },
  receiver: Receiver<HonoExtra>,
): void {
  let ctx: { waitUntil?: (p: Promise<unknown>) => void } | undefined;
  try {
    ctx = c.executionCtx;
  } catch {
    return;
  }
  if (typeof ctx?.waitUntil === 'function') ctx.waitUntil(receiver.drain());
}

/** One Hono call: the context and the next handler. */
interface HonoCall {
  c: Context;
  next: Next;
}

/** Hono's side of core's adapter contract. */
function honoAdapter(
  receiver: Receiver<HonoExtra>,
  acknowledge: boolean,
): FrameworkAdapter<HonoCall, Response | undefined, HonoExtra> {
  return {
    // On @hono/node-server, the Node request's own headers (a plain object): reading
    // `c.req.raw.headers` would build a Fetch Headers.
    request: ({ c }) => ({ method: c.req.method, headers: nodeIncomingOf(c.env)?.headers ?? c.req.raw.headers }),
    readBody: ({ c }, limits) => readHonoBody(c.req, limits.maxBodyBytes, nodeIncomingOf(c.env), limits),
    context: ({ c }) => ({ c }),
    writeAnswer({ c }, answer, early) {
      if (early) return refusal(answer, nodeIncomingOf(c.env), c.env);
      // The route's own answer stands (its error handler's and Hono's 404 too); the receiver answers
      // only when the route has not answered: at the deadline, or when it returned no response.
      if (c.finalized && answer.code !== 'deadline_exceeded') return undefined;
      if (acknowledge) keepAliveForBackground(c, receiver);
      c.res = toResponse(answer);
      return c.res;
    },
    async next({ c, next }, accepted) {
      c.set('webhook', accepted.message);
      c.set('webhookContext', accepted.context);
      // The route reads only what was verified: `c.req.text()` / `json()` / `arrayBuffer()` give the
      // exact bytes the signature matched, never other bytes of the request.
      keepSignedBody(c.req, accepted.signedBody);
      await next();
      if (c.error) throw c.error;
      if (c.finalized && !c.res.ok) throw new RouteFailedError(c.res.status);
    },
  };
}

/**
 * Hono middleware that verifies and validates webhook deliveries with core's receiver, on Node,
 * Bun, Deno and Workers. With `on` / `onMessage` it answers by itself; without them it stores the
 * message in `c.get('webhook')` and runs the rest of the chain under the deadline.
 *
 * @example
 * import { Hono } from 'hono';
 * import { hookgate } from '@hookgate/hono';
 *
 * const app = new Hono();
 * // Handlers given: the middleware answers (200, 401, 400, 413, 415, 405, 500, 503).
 * app.all('/webhooks', hookgate({ secret: process.env.WEBHOOK_SECRET!, on: { track: (msg) => console.log(msg.event) } }));
 * // Or pass-through: the route answers, the message is typed in the context.
 * app.all('/events', hookgate({ secret: process.env.WEBHOOK_SECRET! }), (c) => {
 *   const msg = c.get('webhook');
 *   return c.json({ type: msg.type });
 * });
 *
 * // Segment's Webhooks (Actions) destination: whole Segment events to `on`, mapped payloads to
 * // `onPayload`; without handlers `c.get('webhook')` is the verified payload (`ActionsPayload`).
 * app.on(['POST', 'PUT', 'PATCH'], '/segment', hookgate({ destination: 'actions', secret }), (c) => {
 *   const payload = c.get('webhook'); // ActionsPayload
 *   return c.json({ orderId: payload.orderId });
 * });
 *
 * // Options of either destination, not known until run time: typed as the classic middleware (read an
 * // Actions payload with `c.get('webhook') as unknown as ActionsPayload`).
 * const mw = hookgate(process.env.SEGMENT_ACTIONS ? { destination: 'actions', secret, onPayload } : { secret, onMessage });
 */
export function hookgate<
  S extends StandardSchemaV1 | undefined = undefined,
  D extends ReceiverDestination = 'classic',
  TPlan = unknown,
>(
  given: HookgateHonoOptions<S, D, TPlan>,
): [D] extends ['actions'] ? HookgateMiddleware<HookgateActionsEnv> : HookgateMiddleware;
export function hookgate<S extends StandardSchemaV1 | undefined = undefined>(
  given: HookgateHonoOptions<S>,
): HookgateMiddleware | HookgateMiddleware<HookgateActionsEnv> {
  const options = checkHonoOptions(given);
  // Either destination's options: core picks the destination's rules from `destination`.
  const receiver = createReceiver<HonoExtra>(options as ReceiverOptions<HonoExtra>);
  const serve = createAdapterHandler(
    receiver,
    honoAdapter(receiver, options.mode === 'acknowledge'),
    isPassThrough(options),
  );
  const middleware: MiddlewareHandler<HookgateEnv> = (c, next) => serve({ c, next });
  return Object.assign(middleware, { receiver });
}
