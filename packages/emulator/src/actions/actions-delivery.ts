import type { RecordEndpoint } from '../log/logged-attempt.js';
import type { HeaderLine } from './actions-headers.js';

/**
 * The endpoint of a Webhooks (Actions) request: the mapped URL and headers, with the method and
 * `User-Agent: Segment (Actions)` the delivery engine sends instead of classic's. The request's
 * whole header block, in Segment's order and case, is `actionsRequestHeaders(endpoint, bodyLength,
 * signature)`; `headers` is the same mapping headers as a plain object (without `content-type`, with
 * `Accept: *` + `/*` unless mapped), for code that adds its own framing headers.
 *
 * @example
 * const endpoint: ActionsEndpoint = { url, parsed: new URL(url), headers: {}, mappedHeaders: [], method: 'PUT', userAgent: ACTIONS_USER_AGENT };
 */
export interface ActionsEndpoint extends RecordEndpoint {
  readonly method: 'POST' | 'PUT' | 'PATCH';
  readonly userAgent: string;
  /** The mapping's headers as Segment's code writes them (`segmentHeaderOrder`): lower-cased, in its order. */
  readonly mappedHeaders: readonly HeaderLine[];
}

/**
 * The `User-Agent` Segment's Actions runtime sends (`@segment/actions-core`'s request client).
 *
 * @example
 * attempt.requestHeaders['user-agent'] === ACTIONS_USER_AGENT; // true for an Actions delivery (Segment's lower case)
 */
export const ACTIONS_USER_AGENT = 'Segment (Actions)';
