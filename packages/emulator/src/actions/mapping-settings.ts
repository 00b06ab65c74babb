// A Webhooks (Actions) subscription's mapping setting: its URL, method, headers and batching, checked.
import { urlIssue } from '../sendable-fields.js';
import { SettingsError } from '../errors.js';
import { redactUrl } from '../redact.js';
import { DEFAULT_BATCH_SIZE, MAX_BATCH_SIZE } from './actions-limits.js';
import { segmentTransform } from './segment-code.js';
import { isDirective, isObject, rejectUnknown } from './settings-object.js';

const METHODS = ['POST', 'PUT', 'PATCH'] as const;
const MAPPING_KEYS = ['url', 'method', 'headers', 'data', 'enable_batching', 'batch_size', 'batch_keys'];
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** Headers the sender sets itself or that frame the request. */
const SENDER_HEADERS = ['user-agent', 'x-signature', 'content-length', 'host', 'transfer-encoding', 'connection'];

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

/** A subscription's mapping, checked: the mapping to run per event, and how its requests are batched. */
export interface ResolvedMapping {
  mapping: Record<string, unknown>;
  batching: boolean;
  batchSize: number;
  batchKeys: string[];
}

/**
 * Validates a subscription's `mapping` (URL, method, literal headers, batching) and runs it once
 * through Segment's transform so a bad directive is found now; throws a `SettingsError` naming the field.
 *
 * @example
 * resolveMapping({ url: 'http://127.0.0.1:3000/hook' }, 'subscriptions[0].mapping').batchSize; // 1000
 */
export function resolveMapping(value: unknown, path: string): ResolvedMapping {
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
