// A source's `webhooksActions` setting: its shape, its limits, and the check that resolves it
// (each subscription's condition and mapping are checked in their own files).
import { SettingsError } from '../errors.js';
import { MAX_SUBSCRIPTIONS, DEFAULT_BATCH_WINDOW_MS } from './actions-limits.js';
import { resolveMapping } from './mapping-settings.js';
import type { ParsedSubscribe } from './segment-code.js';
import { isObject, rejectUnknown } from './settings-object.js';
import { resolveCondition } from './subscribe-condition.js';

export { MAX_SUBSCRIPTIONS, MAX_BATCH_SIZE, DEFAULT_BATCH_SIZE, DEFAULT_BATCH_WINDOW_MS } from './actions-limits.js';

/**
 * The mapping of one subscription, as Segment exports it for the Webhooks (Actions) `send` action.
 * Every field may be a literal or a mapping-kit directive (`@path`, `@template`, `@if`, ...).
 *
 * @example
 * const mapping: ActionsMapping = { url: 'https://hooks.example.com/orders', method: 'PUT', data: { '@path': '$.properties' } };
 */
export interface ActionsMapping {
  /** Where the request goes: a full `http`/`https` URL. */
  url: unknown;
  /** `POST` (default), `PUT` or `PATCH`. */
  method?: unknown;
  /** Headers sent with each request (not `User-Agent`, `X-Signature`, `Content-Length`, `Host`). */
  headers?: unknown;
  /** The body: a mapping-kit object; default `{ "@path": "$." }`, the whole Segment event. */
  data?: unknown;
  /** Send events in batches (a JSON array per request). */
  enable_batching?: boolean;
  /** Events per batch, 1–4000; default 1000. */
  batch_size?: number;
  /** The mapping keys batches are grouped by; Segment's default `["url", "method", "headers"]`. */
  batch_keys?: string[];
}

/**
 * One subscription in Segment's own format: a `subscribe` condition (FQL) and a mapping.
 *
 * @example
 * const subscription: ActionsSubscription = {
 *   subscribe: 'type = "track" and event = "Order Completed"',
 *   partnerAction: 'send',
 *   enabled: true,
 *   mapping: { url: 'http://127.0.0.1:3000/orders', method: 'POST', data: { '@path': '$.' } },
 * };
 */
export interface ActionsSubscription {
  /** Segment's FQL condition, e.g. `type = "track" and event = "Order Completed"`. */
  subscribe: string;
  /** The action: `send` (the only action of this destination). */
  partnerAction: 'send';
  /** Default `true`; a disabled subscription sends nothing. */
  enabled?: boolean;
  /** A label shown in the delivery log and inspector. */
  name?: string;
  mapping: ActionsMapping;
}

/**
 * The Webhooks (Actions) destination of one source, next to the classic `webhooks` setting.
 *
 * @example
 * const webhooksActions: WebhooksActionsSettings = {
 *   enabled: true,
 *   sharedSecret: 's3cret',
 *   subscriptions: [{ subscribe: 'type = "track"', partnerAction: 'send', mapping: { url: 'http://127.0.0.1:3000/hook', method: 'PUT' } }],
 * };
 */
export interface WebhooksActionsSettings {
  /** The destination's toggle. Default `true`. */
  enabled?: boolean;
  /** When set, requests carry `X-Signature`: hex HMAC-SHA1 of `JSON.stringify(data)` (a batch: the first event's data only). */
  sharedSecret?: string;
  /** Up to 5 subscriptions, in Segment's format. */
  subscriptions: ActionsSubscription[];
  /** How long a part-full batch waits on the emulator's clock before it is sent. Default 10,000 ms. */
  batchWindowMs?: number;
}

/** A validated subscription. */
export interface ResolvedSubscription {
  /** 1-based, as shown in the log. */
  readonly number: number;
  readonly name: string | undefined;
  readonly subscribe: string;
  readonly condition: ParsedSubscribe;
  readonly enabled: boolean;
  /** The mapping handed to Segment's `transform` (`data` defaulted, `enable_batching`/`batch_size` included as given). */
  readonly mapping: Readonly<Record<string, unknown>>;
  readonly batching: boolean;
  readonly batchSize: number;
  readonly batchKeys: readonly string[];
}

/** A validated Webhooks (Actions) destination. */
export interface ResolvedActions {
  readonly enabled: boolean;
  readonly sharedSecret: string | undefined;
  readonly subscriptions: readonly ResolvedSubscription[];
  readonly batchWindowMs: number;
}

const SUBSCRIPTION_KEYS = ['subscribe', 'partnerAction', 'enabled', 'name', 'mapping'];

function resolveSubscription(value: unknown, path: string, number: number): ResolvedSubscription {
  if (!isObject(value))
    throw new SettingsError(path, "must be an object { subscribe, partnerAction: 'send', enabled?, mapping }");
  rejectUnknown(value, SUBSCRIPTION_KEYS, path);
  const { subscribe, partnerAction, enabled, name } = value;
  const { text, condition } = resolveCondition(subscribe, `${path}.subscribe`);
  if (partnerAction !== 'send')
    throw new SettingsError(
      `${path}.partnerAction`,
      `must be "send", the Webhooks (Actions) destination's only action (got ${JSON.stringify(partnerAction)})`,
    );
  if (enabled !== undefined && typeof enabled !== 'boolean')
    throw new SettingsError(`${path}.enabled`, `must be true or false (got ${JSON.stringify(enabled)})`);
  if (name !== undefined && typeof name !== 'string') throw new SettingsError(`${path}.name`, 'must be a string');
  const m = resolveMapping(value.mapping, `${path}.mapping`);
  return Object.freeze({
    number,
    name: name,
    subscribe: text,
    condition,
    enabled: enabled !== false,
    mapping: Object.freeze(m.mapping),
    batching: m.batching,
    batchSize: m.batchSize,
    batchKeys: Object.freeze(m.batchKeys),
  });
}

/**
 * Validates a source's `webhooksActions` setting; throws a `SettingsError` naming the bad field
 * (more than 5 subscriptions, FQL that does not parse, a method other than POST/PUT/PATCH, a URL
 * without scheme, a header the sender sets itself, a batch size over 4000, a bad directive, ...).
 *
 * @example
 * resolveActions({ subscriptions: [{ subscribe: 'type = "track"', partnerAction: 'send', mapping: { url: 'http://127.0.0.1:3000/hook' } }] }, 'sources[0].webhooksActions');
 */
export function resolveActions(value: unknown, path: string): ResolvedActions {
  if (!isObject(value))
    throw new SettingsError(path, 'must be an object { enabled?, sharedSecret?, subscriptions, batchWindowMs? }');
  rejectUnknown(value, ['enabled', 'sharedSecret', 'subscriptions', 'batchWindowMs'], path);
  const { enabled, sharedSecret, subscriptions, batchWindowMs } = value;
  if (enabled !== undefined && typeof enabled !== 'boolean')
    throw new SettingsError(`${path}.enabled`, `must be true or false (got ${JSON.stringify(enabled)})`);
  if (sharedSecret !== undefined && (typeof sharedSecret !== 'string' || sharedSecret.length === 0))
    throw new SettingsError(
      `${path}.sharedSecret`,
      'must be a non-empty string (leave it out to send unsigned requests)',
    );
  if (!Array.isArray(subscriptions))
    throw new SettingsError(
      `${path}.subscriptions`,
      "is required: a list of up to 5 { subscribe, partnerAction: 'send', mapping }",
    );
  if (subscriptions.length > MAX_SUBSCRIPTIONS)
    throw new SettingsError(
      `${path}.subscriptions`,
      `has ${subscriptions.length} subscriptions; the limit is ${MAX_SUBSCRIPTIONS}`,
    );
  if (
    batchWindowMs !== undefined &&
    (typeof batchWindowMs !== 'number' || !Number.isFinite(batchWindowMs) || batchWindowMs < 0)
  )
    throw new SettingsError(
      `${path}.batchWindowMs`,
      `must be a number of milliseconds ≥ 0 (got ${JSON.stringify(batchWindowMs)})`,
    );
  return Object.freeze({
    enabled: enabled !== false,
    sharedSecret: sharedSecret,
    subscriptions: Object.freeze(
      subscriptions.map((s, i) => resolveSubscription(s, `${path}.subscriptions[${i}]`, i + 1)),
    ),
    batchWindowMs: batchWindowMs ?? DEFAULT_BATCH_WINDOW_MS,
  });
}
