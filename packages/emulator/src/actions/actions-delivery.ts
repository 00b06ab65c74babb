import { LoggedDelivery, type RecordInit, type RecordSource } from '../log/delivery-record.js';
import type { ResolvedEndpoint } from '../routing/source-settings.js';
import type { HeaderLine } from './actions-headers.js';
import type { ActionsRecordInfo } from './actions-record-info.js';
import type { ResolvedActionsPolicy } from './actions-response-policy.js';

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
export interface ActionsEndpoint extends ResolvedEndpoint {
  readonly method: 'POST' | 'PUT' | 'PATCH';
  readonly userAgent: string;
  /** The mapping's headers as Segment's code writes them (`segmentHeaderOrder`): lower-cased, in its order. */
  readonly mappedHeaders: readonly HeaderLine[];
}

/**
 * The `User-Agent` Segment's Actions runtime sends (`@segment/actions-core`'s request client).
 *
 * @example
 * attempt.requestHeaders['User-Agent'] === ACTIONS_USER_AGENT; // true for an Actions delivery
 */
export const ACTIONS_USER_AGENT = 'Segment (Actions)';

/**
 * A Webhooks (Actions) delivery record: one request (one event, or a batch) of one subscription,
 * through the same delivery engine, log and inspector as classic records. Its `X-Signature` is the
 * one Segment's 3.387.0 code sends: HMAC-SHA1 of `JSON.stringify(data)` — for a batch, of the first
 * event's data only — made once, when the record is made.
 *
 * @example
 * const record = new ActionsDelivery(init, info, signature, policy);
 * record.actions.method; // 'PUT'
 */
export class ActionsDelivery extends LoggedDelivery {
  readonly #signature: string | undefined;
  /** Which subscription made the record, its method and how many events its request holds. */
  readonly actions: ActionsRecordInfo;
  /** How answers to this record's requests are classified. */
  readonly policy: ResolvedActionsPolicy;
  /** Where the request goes (the mapped endpoint) and the source it came from; a replay reuses it. */
  readonly target: RecordSource;

  constructor(init: RecordInit, info: ActionsRecordInfo, signature: string | undefined, policy: ResolvedActionsPolicy) {
    super({ ...init, signed: signature !== undefined });
    this.#signature = signature;
    this.actions = info;
    this.policy = policy;
    this.target = init.source;
  }

  /** The signature computed when the record was made (a batch's covers only its first element). */
  override signatureOf(): string | undefined {
    return this.#signature;
  }
}
