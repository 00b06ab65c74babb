import type { StandardSchemaV1 } from '@hookgate/core';
import { checkReceiverOptions, type ReceiverDestination, type ReceiverOptionsFor } from '@hookgate/core/adapter';
import type { Request, Response } from 'express';

/**
 * What the Express middleware adds to every handler's context: the request and the response.
 *
 * @example
 * hookgate({ secret, on: { track: (msg, { req }) => console.log(req.ip, msg.event) } });
 */
export interface ExpressExtra {
  req: Request;
  res: Response;
}

/**
 * Options of `hookgate()` for Express: core's `ReceiverOptions` (secret, on/onMessage, mode,
 * deadlineMs, maxBodyBytes, dedupe, …), or with `destination: 'actions'` core's
 * `ActionsReceiverOptions` (on, onPayload, schema, insecureAcceptBatches); handlers also receive `{ req, res }`.
 * `D` is the destination (`hookgate()` infers it from `destination`, so a classic mistake names classic types).
 *
 * @example
 * const options: HookgateExpressOptions = { secret: [current, previous], deadlineMs: 3000 };
 * const actions: HookgateExpressOptions = { destination: 'actions', secret, onPayload: (p) => console.log(p) };
 */
export type HookgateExpressOptions<
  S extends StandardSchemaV1 | undefined = undefined,
  D extends ReceiverDestination = ReceiverDestination,
  TPlan = unknown,
> = ReceiverOptionsFor<D, ExpressExtra, S, TPlan>;

/**
 * Checks `hookgate()`'s options at creation: an options object is given, every name is an option
 * (`on` keys are message types), `null` means left out. Throws an error naming the option and the
 * nearest valid name (`on.trak` → `on.track`); returns the options without their `null` fields.
 *
 * @example
 * checkExpressOptions({ secret, on: { trak: () => {} } }); // throws: … did you mean "on.track"?
 */
export function checkExpressOptions(given: unknown): HookgateExpressOptions {
  return checkReceiverOptions<HookgateExpressOptions>(given, { caller: 'hookgate()' });
}
