// The inspector's JSON as the server sends it and the page (inspector-ui/) reads it: one module for both.
// Types only, and no imports, so the page's tsc (DOM types, no Node) reads it through `import type` and its
// bundle carries nothing of it. The server types its answers with these (delivery-view.ts, deliveries-feed.ts,
// inspector-routes.ts, listen/inbound-feed.ts): a field renamed or retyped on one side fails tsc on the other.
// Optional fields are the ones the server leaves out of the JSON when they have no value.

/**
 * A delivery's state.
 *
 * @example
 * const open: DeliveryState = 'pending';
 */
export type DeliveryState = 'pending' | 'delivered' | 'failed' | 'filtered';

/**
 * What made a delivery: a call, a deletion, an audience or computed-trait sync, or a replay.
 *
 * @example
 * const origin: DeliveryOrigin = 'replay';
 */
export type DeliveryOrigin = 'call' | 'delete' | 'audience' | 'computed-trait' | 'replay';

/**
 * The name of the header every inspector action (POST) must carry with the value `1` (it proves the request
 * does not come from another site). A type, so the page's copy of the string is checked against the server's.
 *
 * @example
 * const header: CsrfHeaderName = 'x-hookgate-inspector';
 */
export type CsrfHeaderName = 'x-hookgate-inspector';

/**
 * One row of the deliveries list: what a page may show of a delivery (URLs, signatures and write keys
 * masked). Also the `record` of a retry or replay answer and each of send-test's `records`.
 *
 * @example
 * const row: DeliverySummary = (await (await fetch('/_hookgate/ui/api/deliveries')).json()).items[0];
 */
export interface DeliverySummary {
  id: string;
  seq: number;
  receivedAt: string;
  /** The source's name, else `source` and its write key masked. */
  source: string;
  origin: DeliveryOrigin;
  /** The message type (`track`, `identify`, …). */
  type: string;
  /** The event name, or a one-line summary for other types. */
  summary: string;
  userId?: string;
  state: DeliveryState;
  attempts: number;
  /** The last attempt's status, else its error code. */
  lastStatus?: number | string;
  replayOf?: string;
  /** For a filtered record: why it was never sent, in words (the list shows it under the event name). */
  filteredBecause?: string;
  /** A Webhooks (Actions) record: method, subscription and how many events its request holds. */
  actions?: {
    /** The subscription's number (1-based, in the order given). */
    subscription: number;
    name?: string;
    /** Its `subscribe` condition (FQL). */
    subscribe: string;
    method: 'POST' | 'PUT' | 'PATCH';
    /** Events in the request: 1 for a single event, the array's length for a batch. */
    batchSize: number;
    batch: boolean;
  };
}

/**
 * One attempt of a delivery, as the page shows it.
 *
 * @example
 * const failed = detail.attemptList.filter((a: AttemptView) => a.outcome === 'fail');
 */
export interface AttemptView {
  /** The endpoint URL, masked. */
  endpoint: string;
  round: number;
  at: string;
  durationMs: number;
  status?: number;
  error?: { code: string; message: string };
  /** The start of the answer's body (at most 200 characters). */
  responseStart?: string;
  outcome: 'delivered' | 'retry' | 'fail';
}

/**
 * What a source's tracking plan did to a delivery (its message's `context.protocols`).
 *
 * @example
 * const view: ProtocolsView = { violations: [{ type: 'Invalid Type', field: 'properties.total', description: 'must be number (got string)' }], omitted: ['utm'], omittedOnViolation: [] };
 */
export interface ProtocolsView {
  violations: { type: string; field: string; description: string }[];
  /** Unplanned properties or traits removed (`unplannedProperties` / `unplannedTraits: omit`). */
  omitted: string[];
  /** Properties or traits removed because they broke the plan (`violations: omit`). */
  omittedOnViolation: string[];
}

/**
 * A delivery's detail (`GET /_hookgate/ui/api/deliveries/<id>`).
 *
 * @example
 * const detail: DeliveryDetail = await (await fetch('/_hookgate/ui/api/deliveries/dlv_1')).json();
 */
export interface DeliveryDetail extends DeliverySummary {
  /** The exact bytes sent, as UTF-8 text. */
  body: string;
  /** The headers sent: signature shortened, credential-like static header values masked. */
  headers: Record<string, string>;
  /** The source's endpoint URLs, masked. */
  endpoints: string[];
  attemptList: AttemptView[];
  firstAttemptAt?: string;
  nextAttemptAt?: string;
  /** When the 4 h retry window closes (from the first attempt), while the delivery is pending. */
  windowEndsAt?: string;
  /** The length of the retry window, from the first attempt. */
  windowMs: number;
  /** The emulator's clock now, so the page counts time left on the emulator's time. */
  now: string;
  reason?: string;
  deliveredTo?: string;
  /** A curl command that resends the body, its signature computed from $HOOKGATE_SECRET (never shown). */
  curl: string;
  signed: boolean;
  /**
   * False for a signed delivery whose source no longer has a shared secret (removed since): no secret
   * the user can look up reproduces its signature, so the page refuses to copy its curl command.
   */
  secretKnown: boolean;
  /** For a call the intake had already accepted with the same messageId: the record that took it. */
  duplicateOf?: string;
  /** What the intake noticed about the call (a number JSON parsing changed). */
  notes?: readonly string[];
  /** The call's text as the client sent it (write key masked), kept when there are notes. */
  rawCall?: string;
  protocols?: ProtocolsView;
}

/**
 * A page of the deliveries list (`GET /_hookgate/ui/api/deliveries?state=…&before=…`), newest first.
 *
 * @example
 * const page: DeliveryListPage = await (await fetch('/_hookgate/ui/api/deliveries?state=failed')).json();
 */
export interface DeliveryListPage {
  items: DeliverySummary[];
  /** The cursor of the following page (its `before`), null at the end. */
  next: number | null;
  /** Records looked at to fill this page (the cost of the filters). */
  scanned: number;
  /** Every endpoint of every source, masked (the endpoint filter's choices). */
  endpoints: string[];
  order: 'newest first';
}

/**
 * What the page needs before its first list (`GET /_hookgate/ui/api/meta`).
 *
 * @example
 * const meta: InspectorMeta = await (await fetch('/_hookgate/ui/api/meta')).json();
 */
export interface InspectorMeta {
  /** The feeds served: `deliveries` under `serve`, `inbound` under `listen`. */
  feeds: string[];
  mode: 'serve' | 'listen';
  states: DeliveryState[];
  types: readonly string[];
  endpoints: string[];
  /** The sources: name and write key (masked), for the empty list's help. */
  sources: Array<{ name: string | null; writeKey: string; webhooks: boolean }>;
  /** Send-test's example messages, by type. */
  templates: Record<string, unknown>;
  now: string;
}

/**
 * One request `hookgate listen` received, as a row of the inbound list.
 *
 * @example
 * const refused = page.items.filter((r: InboundRow) => !r.verdict.ok);
 */
export interface InboundRow {
  id: string;
  seq: number;
  receivedAt: string;
  method: string;
  path: string;
  type?: string;
  summary?: string;
  bodyBytes: number;
  verdict: { ok: boolean; reason?: string; message: string };
  forward?: { status?: number; error?: string; timedOut: boolean; durationMs: number; slow: boolean };
  answeredStatus: number;
}

/**
 * Where the bytes a request carried differ from their `JSON.stringify` form.
 *
 * @example
 * const finding: InboundFinding = { path: '$.properties.price', cause: 'number-format', message: '…', raw: '1.50' };
 */
export interface InboundFinding {
  path: string;
  cause: string;
  message: string;
  raw?: string;
  reserialized?: string;
}

/**
 * One request `hookgate listen` received, in full (`GET /_hookgate/ui/api/inbound/<id>`).
 *
 * @example
 * const detail: InboundDetail = await (await fetch('/_hookgate/ui/api/inbound/in_1')).json();
 */
export interface InboundDetail {
  id: string;
  receivedAt: string;
  method: string;
  path: string;
  /** The headers as received, in order, credentials masked. */
  headers: Array<[string, string]>;
  bodyBytes: number;
  body: string;
  bodyTruncated: boolean;
  type?: string;
  summary?: string;
  verdict:
    | { ok: true; form: string; secretIndex: number; message: string }
    | { ok: false; reason: string; message: string; findings: InboundFinding[]; matchesForm?: string };
  forward?: {
    url: string;
    status?: number;
    error?: string;
    timedOut: boolean;
    durationMs: number;
    slow: boolean;
    bodyStart?: string;
  };
  answeredStatus: number;
  durationMs: number;
}

/**
 * A page of the inbound list (`GET /_hookgate/ui/api/inbound?before=…`), newest first.
 *
 * @example
 * const page: InboundPage = await (await fetch('/_hookgate/ui/api/inbound')).json();
 */
export interface InboundPage {
  items: InboundRow[];
  /** The cursor of the following page (its `before`), null at the end. */
  next: number | null;
  total: number;
  /** Requests dropped from the log (its count and byte budgets). */
  dropped: number;
  order: 'newest first';
}

/**
 * One problem in a request the API refused (send-test's message, say).
 *
 * @example
 * const issue: ApiIssue = { path: '$.userId', message: 'a userId or an anonymousId is required' };
 */
export interface ApiIssue {
  path: string;
  message: string;
}

/**
 * The body of an error answer of the API.
 *
 * @example
 * const answer: ApiErrorBody = { error: 'No delivery "dlv_9" in the log.' };
 */
export interface ApiErrorBody {
  error: string;
  issues?: ApiIssue[];
}
