/**
 * Reported to `onError` when a route using `webhookRoute()` answered with a status outside 2xx:
 * the message counts as not handled, so a retry of it runs again.
 *
 * @example
 * webhookRoute({ secret, onError: (e) => { if (e instanceof RouteFailedError) console.warn(e.status); } });
 */
export class RouteFailedError extends Error {
  override readonly name = 'RouteFailedError';
  constructor(readonly status: number) {
    super(`The route after hookgate answered ${status}; the message is not marked handled, so a retry runs it again.`);
  }
}
