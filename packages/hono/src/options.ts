import { checkReceiverOptions, type ReceiverDestination, type ReceiverOptionsFor } from '@hookgate/core/adapter';
import type { ActionsPayload, HandlerContext, StandardSchemaV1, WebhookMessage } from '@hookgate/core';
import type { Context } from 'hono';

/**
 * What the Hono middleware adds to every handler's context: the request's Hono context `c`.
 *
 * @example
 * hookgate({ secret, on: { track: (msg, { c }) => console.log(c.req.path, msg.event) } });
 */
export interface HonoExtra {
  /** The Hono context of the request being handled. */
  c: Context;
}

/**
 * Options of `hookgate()` for Hono: core's `ReceiverOptions` (secret, on/onMessage, mode, deadlineMs,
 * maxBodyBytes, dedupe, crypto, …) or, with `destination: 'actions'`, its `ActionsReceiverOptions`
 * (on, onPayload, schema, insecureAcceptBatches); handlers also receive `{ c }`. `D` is the destination
 * (`hookgate()` infers it from `destination`, so a classic mistake names classic types).
 *
 * @example
 * const options: HookgateHonoOptions = { secret: [current, previous], deadlineMs: 3000 };
 * const actions: HookgateHonoOptions = { destination: 'actions', secret, onPayload: (p) => console.log(p) };
 */
export type HookgateHonoOptions<
  S extends StandardSchemaV1 | undefined = undefined,
  D extends ReceiverDestination = ReceiverDestination,
  TPlan = unknown,
> = ReceiverOptionsFor<D, HonoExtra, S, TPlan>;

/**
 * Checks `hookgate()`'s options at creation: an options object is given, every name is an option
 * (`on` keys are message types), `null` means left out. Throws an error naming the option and the
 * nearest valid name (`on.trak` → `on.track`); returns the options without their `null` fields.
 *
 * @example
 * checkHonoOptions({ secret, onMesage: () => {} }); // throws: … did you mean "onMessage"?
 */
export function checkHonoOptions(given: unknown): HookgateHonoOptions {
  return checkReceiverOptions<HookgateHonoOptions>(given, { caller: 'hookgate()' });
}

/**
 * The context variables the middleware sets before `next()`: `c.get('webhook')` is the verified
 * message, `c.get('webhookContext')` its handler context (deadline `signal`, `verification`, …).
 *
 * @example
 * const msg: HookgateVariables['webhook'] = c.get('webhook');
 */
export interface HookgateVariables {
  /** The verified, validated message, discriminated on `type`. */
  webhook: WebhookMessage;
  /** The message's handler context: `signal` fires at the deadline, `verification`, `dedupeKey`, `c`. */
  webhookContext: HandlerContext<HonoExtra>;
}

/**
 * The Hono `Env` of routes behind the middleware; `app.post(path, hookgate(o), (c) => c.get('webhook'))`
 * infers it, or declare it: `new Hono<HookgateEnv>()`.
 *
 * @example
 * const app = new Hono<HookgateEnv>();
 * app.post('/webhooks', (c) => c.text(c.get('webhook').type));
 */
export interface HookgateEnv {
  Variables: HookgateVariables;
}

/**
 * The context variables a Webhooks (Actions) middleware (`destination: 'actions'`) sets before
 * `next()`: `c.get('webhook')` is the verified payload (any JSON object, the mapping's `data`; narrow a
 * whole Segment event with `isSpecEvent`).
 *
 * @example
 * const payload: HookgateActionsVariables['webhook'] = c.get('webhook');
 */
export interface HookgateActionsVariables {
  /** The verified payload: the mapping's `data` (by default the whole Segment event). */
  webhook: ActionsPayload;
  /** The payload's handler context: `signal` fires at the deadline, `verification`, `dedupeKey`, `c`. */
  webhookContext: HandlerContext<HonoExtra>;
}

/**
 * The Hono `Env` of routes behind a Webhooks (Actions) middleware; `app.put(path, hookgate({ destination:
 * 'actions', secret }), (c) => c.get('webhook'))` infers it, or declare it: `new Hono<HookgateActionsEnv>()`.
 *
 * @example
 * const app = new Hono<HookgateActionsEnv>();
 * app.put('/segment', (c) => c.json({ keys: Object.keys(c.get('webhook')) }));
 */
export interface HookgateActionsEnv {
  Variables: HookgateActionsVariables;
}
