import { urlIssue } from '../sendable-fields.js';
import { SettingsError } from '../errors.js';
import { redactUrl } from '../redact.js';
import { segmentSubscriptions, segmentTransform, type ParsedSubscribe } from './segment-code.js';

/**
 * Most subscriptions one Webhooks (Actions) destination may have (Segment's limit for this destination).
 *
 * @example
 * if (subscriptions.length > MAX_SUBSCRIPTIONS) throw new Error('too many subscriptions');
 */
export const MAX_SUBSCRIPTIONS = 5;

/**
 * The largest `batch_size` Segment accepts for the Webhooks (Actions) destination, and the size used
 * when batching is on and `batch_size` is absent or 0.
 *
 * @example
 * Math.min(requested, MAX_BATCH_SIZE);
 */
export const MAX_BATCH_SIZE = 4000;
/**
 * Segment's documented default batch size for the Webhooks (Actions) destination, used when
 * `enable_batching` is on and `batch_size` is absent or 0.
 *
 * @example
 * const size = mapping.batch_size || DEFAULT_BATCH_SIZE; // 1000
 */
export const DEFAULT_BATCH_SIZE = 1000;

/**
 * How long a part-full batch waits on the emulator's clock before it is sent (hookgate's choice,
 * `webhooksActions.batchWindowMs`): 10 s.
 *
 * @example
 * clock.advance(DEFAULT_BATCH_WINDOW_MS); // every open batch is sent
 */
export const DEFAULT_BATCH_WINDOW_MS = 10_000;

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

const METHODS = ['POST', 'PUT', 'PATCH'] as const;
const MAPPING_KEYS = ['url', 'method', 'headers', 'data', 'enable_batching', 'batch_size', 'batch_keys'];
const SUBSCRIPTION_KEYS = ['subscribe', 'partnerAction', 'enabled', 'name', 'mapping'];
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** Headers the sender sets itself or that frame the request. */
const SENDER_HEADERS = ['user-agent', 'x-signature', 'content-length', 'host', 'transfer-encoding', 'connection'];

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

const isDirective = (v: unknown) => isObject(v) && Object.keys(v).some((k) => k.startsWith('@'));

function rejectUnknown(value: Record<string, unknown>, allowed: readonly string[], path: string): void {
  for (const key of Object.keys(value)) {
    if (allowed.includes(key)) continue;
    const near = allowed.find(
      (a) => a.toLowerCase() === key.toLowerCase() || a.replace(/_/g, '').toLowerCase() === key.toLowerCase(),
    );
    throw new SettingsError(
      `${path}.${key}`,
      `unknown setting${near ? `; did you mean "${near}"?` : ''} (known: ${allowed.join(', ')})`,
    );
  }
}

/**
 * Checks one literal header of a mapping; returns the value to send (a number or `true`/`false` as
 * its text, as Segment's request client sends it). A `Content-Type` is kept at its place: Segment's
 * code sends `application/json` there whenever there is a body, and the mapped value only on the
 * empty request of a mapping whose `data` came out empty. Throws a `SettingsError` naming it.
 *
 * @example
 * checkActionsHeader('X-Team', 'growth', 'mapping.headers["X-Team"]'); // 'growth'
 * checkActionsHeader('X-Version', 2, 'mapping.headers["X-Version"]'); // '2'
 */
export function checkActionsHeader(name: string, value: unknown, path: string): string {
  if (/[\r\n]/.test(name) || (typeof value === 'string' && /[\r\n]/.test(value)))
    throw new SettingsError(path, 'contains CR or LF: a header must be one line');
  if (!TOKEN.test(name)) throw new SettingsError(path, `${JSON.stringify(name)} is not a valid header name`);
  if (typeof value === 'number' && !Number.isFinite(value))
    throw new SettingsError(path, `must be a string or a finite number (got ${String(value)})`);
  if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean')
    throw new SettingsError(path, `must be a string or a number (got ${value === null ? 'null' : typeof value})`);
  const text = String(value);
  if (SENDER_HEADERS.includes(name.toLowerCase()))
    throw new SettingsError(path, `would replace the ${name} header the sender sets itself; remove it`);
  // eslint-disable-next-line no-control-regex
  if (/[\x00-\x08\x0a-\x1f\x7f]/.test(text) || /[^\x00-\x7f]/.test(text))
    throw new SettingsError(path, 'must be printable ASCII (Segment supports only ASCII header values)');
  return text;
}

function resolveMapping(
  value: unknown,
  path: string,
): { mapping: Record<string, unknown>; batching: boolean; batchSize: number; batchKeys: string[] } {
  if (!isObject(value))
    throw new SettingsError(path, 'must be an object { url, method, headers?, data?, enable_batching?, batch_size? }');
  rejectUnknown(value, MAPPING_KEYS, path);
  const { url, method, headers, enable_batching, batch_size, batch_keys } = value;
  if (url === undefined || url === '')
    throw new SettingsError(`${path}.url`, 'is required: a full URL including the http or https scheme');
  if (typeof url === 'string') {
    const issue = urlIssue(url);
    if (issue !== undefined) throw new SettingsError(`${path}.url`, issue);
    let parsed: URL | undefined;
    try {
      parsed = new URL(url);
    } catch {
      parsed = undefined;
    }
    if (!parsed || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') || !/^https?:\/\//i.test(url))
      throw new SettingsError(`${path}.url`, `${JSON.stringify(redactUrl(url))} is not a full http:// or https:// URL`);
  } else if (!isDirective(url))
    throw new SettingsError(
      `${path}.url`,
      'must be a URL string or a mapping directive such as { "@template": "https://…/{{userId}}" }',
    );
  if (method !== undefined && !isDirective(method) && !(METHODS as readonly unknown[]).includes(method))
    throw new SettingsError(`${path}.method`, `must be "POST", "PUT" or "PATCH" (got ${JSON.stringify(method)})`);
  const literalHeaders: Record<string, unknown> = {};
  if (headers !== undefined && headers !== null) {
    if (!isObject(headers)) throw new SettingsError(`${path}.headers`, 'must be an object of header name → value');
    if (!isDirective(headers)) {
      for (const [name, v] of Object.entries(headers)) {
        const hp = `${path}.headers[${JSON.stringify(name)}]`;
        if (isDirective(v)) {
          if (!TOKEN.test(name)) throw new SettingsError(hp, `${JSON.stringify(name)} is not a valid header name`);
          if (SENDER_HEADERS.includes(name.toLowerCase()))
            throw new SettingsError(hp, `would replace the ${name} header the sender sets itself; remove it`);
          literalHeaders[name] = v;
          continue;
        }
        literalHeaders[name] = checkActionsHeader(name, v, hp);
      }
    }
  }
  if (enable_batching !== undefined && typeof enable_batching !== 'boolean')
    throw new SettingsError(
      `${path}.enable_batching`,
      `must be true or false (got ${JSON.stringify(enable_batching)})`,
    );
  let batchSize = DEFAULT_BATCH_SIZE;
  if (batch_size !== undefined && batch_size !== 0) {
    if (
      typeof batch_size !== 'number' ||
      !Number.isInteger(batch_size) ||
      batch_size < 1 ||
      batch_size > MAX_BATCH_SIZE
    )
      throw new SettingsError(
        `${path}.batch_size`,
        `must be a whole number from 1 to ${MAX_BATCH_SIZE} (got ${JSON.stringify(batch_size)}); leave it out for ${DEFAULT_BATCH_SIZE}`,
      );
    batchSize = batch_size;
  }
  let batchKeys = ['url', 'method', 'headers'];
  if (batch_keys !== undefined) {
    if (!Array.isArray(batch_keys) || batch_keys.some((k) => !['url', 'method', 'headers'].includes(k as string)))
      throw new SettingsError(`${path}.batch_keys`, 'must be a list of "url", "method", "headers"');
    batchKeys = batch_keys as string[];
  }
  const mapping: Record<string, unknown> = structuredClone(value);
  if (headers !== undefined && headers !== null && !isDirective(headers)) mapping.headers = literalHeaders;
  if (mapping.method === undefined) mapping.method = 'POST';
  if (mapping.data === undefined) mapping.data = { '@path': '$.' };
  try {
    segmentTransform()(mapping as never, {});
  } catch (e) {
    throw new SettingsError(path, `is not a valid mapping: ${(e as Error).message}`);
  }
  return { mapping, batching: enable_batching === true, batchSize, batchKeys };
}

/** Tokens Segment's FQL parser takes as a condition's value when the value is missing (`type = ` reads as type = "eos"). */
const NOT_VALUES = new Set(['eos', '=', '!=', '>', '<', '>=', '<=', '(', ')', 'and', 'or', '!', ',']);

/**
 * A value Segment's parser read from the end of the text or from an operator (an incomplete condition,
 * `===`), unless the text quotes it: such a subscription parses without an error and never matches.
 */
function misreadValue(node: unknown, text: string): string | undefined {
  if (typeof node !== 'object' || node === null) return undefined;
  const n = node as { value?: unknown; operator?: unknown; children?: unknown };
  const unary = n.operator === 'exists' || n.operator === 'not_exists';
  if (!unary && typeof n.value === 'string' && NOT_VALUES.has(n.value) && !text.includes(JSON.stringify(n.value)))
    return n.value;
  if (Array.isArray(n.children))
    for (const child of n.children) {
      const found = misreadValue(child, text);
      if (found !== undefined) return found;
    }
  return undefined;
}

/**
 * FQL that Segment's parser reads without an error but not as written: a negated group (`!(…)` or
 * `not …`: the negation is dropped) or `and` and `or` at the same level (read as all `or`).
 */
function fqlQuirk(text: string): string | undefined {
  // Quoted strings out, then the words and parentheses that matter.
  const bare = text.replace(/"(?:[^"\\]|\\.)*"/g, '""');
  if (/!\s*\(/.test(bare) || /(^|[\s(])not\b/i.test(bare))
    return "Segment's FQL code ignores a negated group (!(…) or not …) and would match the opposite; use != or !contains(…) / !match(…)";
  const levels: Array<Set<string>> = [new Set()];
  for (const m of bare.matchAll(/\(|\)|\b(and|or)\b/gi)) {
    if (m[0] === '(') levels.push(new Set());
    else if (m[0] === ')') {
      if (levels.length > 1) levels.pop();
    } else {
      const level = levels[levels.length - 1] as Set<string>;
      level.add(m[0].toLowerCase());
      if (level.size > 1)
        return 'mixes and and or without parentheses, which Segment\'s FQL code reads as all or; group them, e.g. type = "track" and (event = "A" or event = "B")';
    }
  }
  return undefined;
}

function resolveSubscription(value: unknown, path: string, number: number): ResolvedSubscription {
  if (!isObject(value))
    throw new SettingsError(path, "must be an object { subscribe, partnerAction: 'send', enabled?, mapping }");
  rejectUnknown(value, SUBSCRIPTION_KEYS, path);
  const { subscribe, partnerAction, enabled, name } = value;
  if (typeof subscribe !== 'string' || subscribe.trim() === '')
    throw new SettingsError(
      `${path}.subscribe`,
      'is required: a condition in Segment\'s FQL, e.g. type = "track" and event = "Order Completed"',
    );
  const condition = segmentSubscriptions().parseFql(subscribe);
  if (condition.error)
    throw new SettingsError(
      `${path}.subscribe`,
      `${JSON.stringify(subscribe)} is not valid FQL (Segment's parser stopped on it); e.g. type = "track" and event = "Order Completed"`,
    );
  const quirk = fqlQuirk(subscribe);
  if (quirk !== undefined) throw new SettingsError(`${path}.subscribe`, `${JSON.stringify(subscribe)}: ${quirk}`);
  const misread = misreadValue(condition, subscribe);
  if (misread !== undefined)
    throw new SettingsError(
      `${path}.subscribe`,
      `${JSON.stringify(subscribe)} is not valid FQL: a condition has no value (Segment's parser reads ${JSON.stringify(misread)} as its value, so it would never match); e.g. type = "track" and event = "Order Completed"`,
    );
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
    subscribe,
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
