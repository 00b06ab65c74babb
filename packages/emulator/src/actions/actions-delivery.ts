import type { RecordEndpoint } from '../log/logged-attempt.js';

/**
 * The endpoint of a Webhooks (Actions) request: the mapped URL and headers, with the method and
 * `User-Agent: Segment (Actions)` the delivery engine sends instead of classic's.
 *
 * @example
 * const endpoint: ActionsEndpoint = { url, parsed: new URL(url), headers: {}, method: 'PUT', userAgent: ACTIONS_USER_AGENT };
 */
export interface ActionsEndpoint extends RecordEndpoint {
  readonly method: 'POST' | 'PUT' | 'PATCH';
  readonly userAgent: string;
}

/**
 * The `User-Agent` Segment's Actions runtime sends (`@segment/actions-core`'s request client).
 *
 * @example
 * attempt.requestHeaders['User-Agent'] === ACTIONS_USER_AGENT; // true for an Actions delivery
 */
export const ACTIONS_USER_AGENT = 'Segment (Actions)';
