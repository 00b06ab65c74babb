import { SettingsError } from '../errors.js';
import { redactUrl } from '../redact.js';
import { resolveActions, type ResolvedActions, type WebhooksActionsSettings } from '../actions/actions-settings.js';
import { resolveProtocols, type ResolvedProtocols, type SchemaControls } from '../protocols/schema-controls.js';
import { headerNameIssue, headerValueIssue, urlIssue } from '../sendable-fields.js';

/**
 * Most endpoints a source's Webhooks destination may have.
 *
 * @example
 * if (urls.length > MAX_ENDPOINTS) throw new Error('too many endpoints');
 */
export const MAX_ENDPOINTS = 5;
/**
 * Most static headers one endpoint may have.
 *
 * @example
 * Object.keys(endpoint.headers ?? {}).length <= MAX_HEADERS;
 */
export const MAX_HEADERS = 5;

/**
 * Header names a static header may not use: the sender sets them itself (`Content-Type`,
 * `X-Signature`, `User-Agent` — use the `userAgent` option) or they frame the request.
 *
 * @example
 * RESERVED_HEADERS.includes('x-signature'); // true
 */
export const RESERVED_HEADERS: readonly string[] = [
  'content-type',
  'x-signature',
  'user-agent',
  'content-length',
  'transfer-encoding',
  'host',
  'connection',
  'keep-alive',
  'expect',
  'te',
  'trailer',
  'upgrade',
];

/**
 * One webhook endpoint: a full `http`/`https` URL and up to 5 static headers.
 *
 * @example
 * const endpoint: EndpointSettings = { url: 'https://hooks.example.com/segment', headers: { Authorization: 'Bearer t0k3n' } };
 */
export interface EndpointSettings {
  /** Full URL including the `http` or `https` scheme; any path. */
  url: string;
  /** Static headers added to every request to this endpoint (at most 5). */
  headers?: Record<string, string>;
}

/**
 * The Webhooks destination settings of one source.
 *
 * @example
 * const webhooks: WebhooksSettings = { enabled: true, endpoints: [{ url: 'http://127.0.0.1:3000/hook' }], sharedSecret: 's3cret' };
 */
export interface WebhooksSettings {
  /** The enabled toggle: when off, nothing is forwarded (calls are recorded as filtered). Default `true`. */
  enabled?: boolean;
  /** Up to 5 endpoints; every one gets each message. */
  endpoints: EndpointSettings[];
  /** When set, every request carries `X-Signature`: lowercase hex HMAC-SHA1 of the body. */
  sharedSecret?: string;
}

/**
 * The source's schema settings: track events blocked there are not forwarded, but
 * still count toward the source's API usage.
 *
 * @example
 * const schema: SourceSchemaSettings = { blockedEvents: ['Debug Ping'] };
 */
export interface SourceSchemaSettings {
  /** Track event names (exact, case sensitive) that are not forwarded to any destination. */
  blockedEvents?: string[];
}

/**
 * One source: its write key and its Webhooks destination.
 *
 * @example
 * const source: SourceSettings = {
 *   writeKey: 'wk_test',
 *   name: 'Backend',
 *   webhooks: { enabled: true, endpoints: [{ url: 'http://127.0.0.1:3000/hook' }], sharedSecret: 's3cret' },
 *   schema: { blockedEvents: ['Debug Ping'] },
 * };
 */
export interface SourceSettings {
  /** The source's write key: calls name it to reach this source. */
  writeKey: string;
  /** A readable name, shown in the delivery log. */
  name?: string;
  /** The Webhooks destination; absent means the destination is not connected (calls are filtered). */
  webhooks?: WebhooksSettings;
  /** The Webhooks (Actions) destination: subscriptions in Segment's own format (see `WebhooksActionsSettings`). */
  webhooksActions?: WebhooksActionsSettings;
  /** Schema filtering of track events. */
  schema?: SourceSchemaSettings;
  /**
   * The source's Segment tracking plan (its JSON as the Public API or Terraform exports it): each message
   * is checked before delivery, and `schemaControls` decide what is blocked or omitted.
   */
  trackingPlan?: unknown;
  /** Segment's Schema Configuration for the tracking plan; every control `forward` by default. */
  schemaControls?: SchemaControls;
}

/** A validated endpoint, with its URL parsed once. */
export interface ResolvedEndpoint {
  readonly url: string;
  readonly parsed: URL;
  readonly headers: Readonly<Record<string, string>>;
}

/** A validated source, as the engine uses it. */
export interface ResolvedSource {
  readonly writeKey: string;
  readonly name: string | undefined;
  readonly connected: boolean;
  readonly enabled: boolean;
  readonly endpoints: readonly ResolvedEndpoint[];
  readonly sharedSecret: string | undefined;
  readonly blockedEvents: ReadonlySet<string>;
  /** The Webhooks (Actions) destination, when set. */
  readonly actions: ResolvedActions | undefined;
  /** The tracking plan and its schema controls, when set. */
  readonly protocols?: ResolvedProtocols | undefined;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Rejects keys that are not in `allowed`, suggesting the closest one. */
export function rejectUnknownKeys(value: Record<string, unknown>, allowed: readonly string[], path: string): void {
  for (const key of Object.keys(value)) {
    if (allowed.includes(key)) continue;
    const near = allowed.find((a) => a.toLowerCase() === key.toLowerCase() || a.startsWith(key) || key.startsWith(a));
    throw new SettingsError(
      path ? `${path}.${key}` : key,
      `unknown setting${near ? `; did you mean "${near}"?` : ''} (known: ${allowed.join(', ')})`,
    );
  }
}

function resolveEndpoint(value: unknown, path: string): ResolvedEndpoint {
  if (!isObject(value)) throw new SettingsError(path, 'must be an object { url, headers? }');
  rejectUnknownKeys(value, ['url', 'headers'], path);
  const url = value.url;
  if (typeof url !== 'string' || url.length === 0)
    throw new SettingsError(`${path}.url`, 'is required: a full URL including the http or https scheme');
  const written = urlIssue(url);
  if (written !== undefined) throw new SettingsError(`${path}.url`, written);
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new SettingsError(
      `${path}.url`,
      `${JSON.stringify(redactUrl(url))} is not a full URL: include the http:// or https:// scheme`,
    );
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    throw new SettingsError(
      `${path}.url`,
      `${JSON.stringify(redactUrl(url))} must use the http or https scheme (got "${parsed.protocol.slice(0, -1)}")`,
    );
  if (!/^https?:\/\//i.test(url))
    throw new SettingsError(`${path}.url`, `${JSON.stringify(redactUrl(url))} must start with http:// or https://`);
  // The user name and password become the request's Basic credentials, %-decoded: refuse now what
  // cannot be decoded, rather than fail every delivery later.
  try {
    decodeURIComponent(parsed.username);
    decodeURIComponent(parsed.password);
  } catch {
    throw new SettingsError(
      `${path}.url`,
      `${JSON.stringify(redactUrl(url))} has a user name or password with a malformed %-escape: write a literal % as %25`,
    );
  }
  const headers: Record<string, string> = {};
  if (value.headers !== undefined) {
    if (!isObject(value.headers))
      throw new SettingsError(`${path}.headers`, 'must be an object of header name → value');
    const entries = Object.entries(value.headers);
    if (entries.length > MAX_HEADERS)
      throw new SettingsError(
        `${path}.headers`,
        `has ${entries.length} headers; an endpoint has at most ${MAX_HEADERS} static headers`,
      );
    const seen = new Set<string>();
    for (const [name, v] of entries) {
      const hp = `${path}.headers[${JSON.stringify(name)}]`;
      const nameIssue = headerNameIssue(name);
      if (nameIssue !== undefined) throw new SettingsError(hp, `is not a valid header name: it ${nameIssue}`);
      const lower = name.toLowerCase();
      if (RESERVED_HEADERS.includes(lower)) {
        const fix =
          lower === 'user-agent' ? 'set the emulator option userAgent instead' : 'the sender sets it itself; remove it';
        throw new SettingsError(hp, `would replace the ${name} header the sender sends; ${fix}`);
      }
      if (seen.has(lower))
        throw new SettingsError(hp, `duplicates another header of this endpoint (names are case-insensitive)`);
      seen.add(lower);
      if (typeof v !== 'string') throw new SettingsError(hp, `must be a string (got ${typeof v})`);
      const valueIssue = headerValueIssue(v);
      if (valueIssue !== undefined) throw new SettingsError(hp, `cannot be sent: its value ${valueIssue}`);
      headers[name] = v;
    }
  }
  return Object.freeze({ url, parsed, headers: Object.freeze(headers) });
}

/**
 * Validates one source's settings and returns the engine's frozen form; throws a `SettingsError`
 * naming the offending setting (more than 5 endpoints or headers, a URL without scheme, a header
 * with CR/LF or one that would replace `Content-Type`/`X-Signature`, ...).
 *
 * @example
 * resolveSource({ writeKey: 'k', webhooks: { enabled: true, endpoints: [{ url: 'http://127.0.0.1:3000' }] } }, 'sources[0]');
 */
export function resolveSource(value: unknown, path: string): ResolvedSource {
  if (!isObject(value)) throw new SettingsError(path, 'must be an object { writeKey, name?, webhooks?, schema? }');
  rejectUnknownKeys(
    value,
    ['writeKey', 'name', 'webhooks', 'webhooksActions', 'schema', 'trackingPlan', 'schemaControls'],
    path,
  );
  const { writeKey, name, webhooks, webhooksActions, schema } = value;
  if (typeof writeKey !== 'string' || writeKey.length === 0)
    throw new SettingsError(`${path}.writeKey`, 'is required: a non-empty string that calls use to reach this source');
  if (name !== undefined && typeof name !== 'string') throw new SettingsError(`${path}.name`, 'must be a string');
  let enabled = false;
  let connected = false;
  let endpoints: ResolvedEndpoint[] = [];
  let sharedSecret: string | undefined;
  if (webhooks !== undefined) {
    const wp = `${path}.webhooks`;
    if (!isObject(webhooks)) throw new SettingsError(wp, 'must be an object { enabled, endpoints, sharedSecret? }');
    rejectUnknownKeys(webhooks, ['enabled', 'endpoints', 'sharedSecret'], wp);
    connected = true;
    if (webhooks.enabled !== undefined && typeof webhooks.enabled !== 'boolean')
      throw new SettingsError(`${wp}.enabled`, `must be true or false (got ${JSON.stringify(webhooks.enabled)})`);
    enabled = webhooks.enabled !== false;
    if (!Array.isArray(webhooks.endpoints))
      throw new SettingsError(`${wp}.endpoints`, 'is required: a list of up to 5 { url, headers? }');
    if (webhooks.endpoints.length > MAX_ENDPOINTS)
      throw new SettingsError(
        `${wp}.endpoints`,
        `has ${webhooks.endpoints.length} endpoints; a source's Webhooks destination has at most ${MAX_ENDPOINTS}`,
      );
    endpoints = webhooks.endpoints.map((e, i) => resolveEndpoint(e, `${wp}.endpoints[${i}]`));
    const urls = new Set<string>();
    endpoints.forEach((e, i) => {
      if (urls.has(e.url))
        throw new SettingsError(`${wp}.endpoints[${i}].url`, `${JSON.stringify(e.url)} is listed twice`);
      urls.add(e.url);
    });
    if (webhooks.sharedSecret !== undefined) {
      if (typeof webhooks.sharedSecret !== 'string' || webhooks.sharedSecret.length === 0)
        throw new SettingsError(
          `${wp}.sharedSecret`,
          'must be a non-empty string (leave it out to send unsigned requests)',
        );
      sharedSecret = webhooks.sharedSecret;
    }
  }
  const blocked = new Set<string>();
  if (schema !== undefined) {
    if (!isObject(schema)) throw new SettingsError(`${path}.schema`, 'must be an object { blockedEvents? }');
    rejectUnknownKeys(schema, ['blockedEvents'], `${path}.schema`);
    if (schema.blockedEvents !== undefined) {
      if (!Array.isArray(schema.blockedEvents) || schema.blockedEvents.some((e) => typeof e !== 'string'))
        throw new SettingsError(`${path}.schema.blockedEvents`, 'must be a list of track event names (strings)');
      for (const e of schema.blockedEvents as string[]) blocked.add(e);
    }
  }
  return Object.freeze({
    writeKey,
    name: name,
    connected,
    enabled,
    endpoints: Object.freeze(endpoints),
    sharedSecret,
    blockedEvents: blocked,
    actions: webhooksActions === undefined ? undefined : resolveActions(webhooksActions, `${path}.webhooksActions`),
    protocols: resolveProtocols(value.trackingPlan, value.schemaControls, path, writeKey),
  });
}
