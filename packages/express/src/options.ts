import type { ReceiverOptions } from '@hookgate/core';
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
 * deadlineMs, maxBodyBytes, dedupe, …), whose handlers also receive `{ req, res }`.
 *
 * @example
 * const options: HookgateExpressOptions = { secret: [current, previous], deadlineMs: 3000 };
 */
export type HookgateExpressOptions = ReceiverOptions<ExpressExtra>;
