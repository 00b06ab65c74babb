// POST /webhooks in a NestJS controller: Nest keeps the request's exact bytes (`rawBody: true` at
// NestFactory.create), and core's receiver verifies them, runs the handlers and answers.
import { All, Controller, Inject, Req, Res, type RawBodyRequest } from '@nestjs/common';
import type { Request, Response } from 'express';
import type { Receiver } from '@hookgate/core';

/** Where the controller finds the receiver: made once, at start, with the secret. */
export const RECEIVER = Symbol('hookgate receiver');

/**
 * Every method reaches the receiver, which answers 405 itself to the ones it does not take.
 *
 * @example
 * const controller = new WebhooksController(receiver);
 */
@Controller('webhooks')
export class WebhooksController {
  constructor(@Inject(RECEIVER) private readonly receiver: Receiver) {}

  @All()
  async receive(@Req() req: RawBodyRequest<Request>, @Res() res: Response): Promise<void> {
    const answer = await this.receiver.handle({
      method: req.method,
      headers: req.headers,
      // The bytes as they arrived; `req.body` (already parsed) only when Nest kept no raw body.
      ...(req.rawBody ? { rawBody: req.rawBody } : { parsedBody: req.body }),
      context: { req, res },
    });
    res.status(answer.status).set(answer.headers).send(answer.body);
  }
}
