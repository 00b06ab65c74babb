/**
 * Reported to `onError` when the route behind a pass-through adapter (Express `next()`, a Fastify
 * route after `webhookRoute()`, a Hono route after the middleware) answered with a status outside
 * 2xx: the message counts as not handled, so a retry of it runs again.
 *
 * @example
 * hookgate({ secret, onError: (e) => { if (e instanceof RouteFailedError) console.warn(e.status); } });
 */
export class RouteFailedError extends Error {
  override readonly name = 'RouteFailedError';
  constructor(readonly status: number) {
    super(`The route after hookgate answered ${status}; the message is not marked handled, so a retry runs it again.`);
  }
}

/**
 * The parts of Node's `ServerResponse` that tell when and how a route answered.
 *
 * @example
 * const res: NodeResponseEvents = serverResponse; // an http.ServerResponse fits
 */
export interface NodeResponseEvents {
  statusCode: number;
  on(event: 'finish' | 'close', listener: () => void): unknown;
  off(event: 'finish' | 'close', listener: () => void): unknown;
}

/**
 * Resolves when a route writing to a Node response has answered 2xx; rejects when it answered
 * anything else (with `RouteFailedError`, or the abort reason after the deadline), when the
 * connection closed first, or when the adapter's error path calls the `fail` function it was given
 * through `attach` (detached again once settled). For pass-through adapters on Node.
 *
 * @example
 * const outcome = nodeRouteOutcome(res, ctx.signal, { attach: (fail) => (req.fail = fail), detach: () => delete req.fail });
 * next(); // the route runs and answers
 * await outcome;
 */
export function nodeRouteOutcome(
  res: NodeResponseEvents,
  signal: AbortSignal,
  hooks: { attach(fail: (error: unknown) => void): void; detach(): void },
): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    let settled = false;
    const settle = (error?: unknown) => {
      if (settled) return;
      settled = true;
      res.off('finish', onFinish);
      res.off('close', onClose);
      hooks.detach();
      if (error === undefined) resolve();
      // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- the route's own error, passed on as it was thrown
      else reject(error);
    };
    const onFinish = () => {
      if (res.statusCode >= 200 && res.statusCode < 300) settle();
      else settle(signal.aborted ? signal.reason : new RouteFailedError(res.statusCode));
    };
    const onClose = () => settle(new Error('The connection closed before the route answered.'));
    res.on('finish', onFinish);
    res.on('close', onClose);
    hooks.attach((error) => settle(error ?? new Error('The route failed without an error value.')));
  });
}
