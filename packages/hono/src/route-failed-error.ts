/**
 * Reported to `onError` when the route behind the middleware (pass-through use) answered with a
 * status outside 2xx: the message counts as not handled, so a retry of it runs again.
 *
 * @example
 * hookgate({ secret, onError: (e) => { if (e instanceof RouteFailedError) console.warn(e.status); } });
 */
export class RouteFailedError extends Error {
  override readonly name = 'RouteFailedError';
  constructor(readonly status: number) {
    super(`The route behind hookgate answered ${status}; the message is not marked handled, so a retry runs it again.`);
  }
}
