import type { SpecEvent } from '@hookgate/core';
import { redactUrl } from '../redact.js';
import type { ResolvedSubscription } from './actions-settings.js';
import { segmentTransform, segmentUriIssue } from './segment-code.js';

/**
 * What one event becomes under one subscription: the request's URL, method, headers and `data`.
 *
 * @example
 * const mapped = mapEvent(subscription, event);
 * if (mapped.ok) console.log(mapped.method, mapped.url, JSON.stringify(mapped.data));
 */
export type MappedEvent =
  | {
      ok: true;
      url: string;
      parsed: URL;
      method: 'POST' | 'PUT' | 'PATCH';
      headers: Readonly<Record<string, string>>;
      /** `undefined` when the mapping's `data` came out empty: Segment's code then sends an empty, unsigned request (in a batch, `null` in that slot). */
      data: Record<string, unknown> | undefined;
    }
  | { ok: false; reason: string };

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** Headers the sender sets itself or that frame the request (a mapped `content-type` is kept: see `actionsRequestHeaders`). */
const SENDER_HEADERS = ['user-agent', 'x-signature', 'content-length', 'host', 'transfer-encoding', 'connection'];

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * Runs Segment's mapping-kit `transform` over a subscription's mapping for one event, then applies
 * what Segment's runtime checks before the `send` action runs: empty top-level values dropped, `url`
 * a valid URI (Segment's own check: no space, nothing outside ASCII) with http(s), `method` one of
 * POST/PUT/PATCH, `headers` an object of one-line values, `data` an object or empty (then `data` is
 * `undefined`: Segment's code sends an empty, unsigned request). A mapping that cannot make a
 * request gives the reason (the record is then `filtered`).
 *
 * @example
 * mapEvent(subscription, { type: 'track', event: 'E', messageId: 'm1', timestamp: '…', receivedAt: '…' });
 */
export function mapEvent(subscription: ResolvedSubscription, event: SpecEvent): MappedEvent {
  let payload: Record<string, unknown>;
  try {
    payload = segmentTransform()(subscription.mapping as never, event as never);
  } catch (e) {
    return {
      ok: false,
      reason: `subscription ${subscription.number}: the mapping failed on this event: ${(e as Error).message}`,
    };
  }
  const where = `subscription ${subscription.number}`;
  const url = payload.url;
  if (typeof url !== 'string' || url === '')
    return {
      ok: false,
      reason: `${where}: the mapping's url resolved to ${JSON.stringify(url) ?? 'nothing'}; Segment needs a URL`,
    };
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return {
      ok: false,
      reason: `${where}: the mapping's url resolved to ${JSON.stringify(redactUrl(url))}, not a full URL`,
    };
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    return {
      ok: false,
      reason: `${where}: the mapping's url ${JSON.stringify(redactUrl(url))} must use http or https`,
    };
  const uriIssue = segmentUriIssue(url);
  if (uriIssue !== undefined)
    return {
      ok: false,
      reason: `${where}: the mapping's url resolved to ${JSON.stringify(redactUrl(url))}, which Segment's code refuses (400, nothing sent): ${uriIssue} Percent-encode spaces and characters outside ASCII (a space is %20).`,
    };
  const method = payload.method;
  if (method !== 'POST' && method !== 'PUT' && method !== 'PATCH')
    return {
      ok: false,
      reason: `${where}: the mapping's method resolved to ${JSON.stringify(method)}; it must be POST, PUT or PATCH`,
    };
  const headers: Record<string, string> = {};
  if (payload.headers !== undefined && payload.headers !== null && payload.headers !== '') {
    if (!isObject(payload.headers))
      return {
        ok: false,
        reason: `${where}: the mapping's headers resolved to a ${typeof payload.headers}, not an object`,
      };
    for (const [name, raw] of Object.entries(payload.headers)) {
      if (raw === undefined) continue;
      // eslint-disable-next-line @typescript-eslint/no-base-to-string -- a mapped header value is sent as its string form, the conversion fetch's Headers applies too
      const value = String(raw);
      if (!TOKEN.test(name))
        return {
          ok: false,
          reason: `${where}: the mapping's header ${JSON.stringify(name)} is not a valid header name`,
        };
      // What HTTP clients (Segment's fetch among them) refuse before sending: CR, LF, NUL, other controls, DEL, characters past U+00FF.

      if (/[^\t\x20-\x7e\x80-\xff]/.test(value))
        return {
          ok: false,
          reason: `${where}: the mapping's header ${JSON.stringify(name)} resolved to a value that is not a legal HTTP header value (control characters or characters past U+00FF); Segment's code sends nothing for this event`,
        };
      if (SENDER_HEADERS.includes(name.toLowerCase())) continue;
      headers[name] = value;
    }
  }
  const data = payload.data;
  // Segment's code sends an empty request (no body, no Content-Type, unsigned) for data that came out empty.
  if (data === undefined || data === null || data === '')
    return { ok: true, url, parsed, method, headers: Object.freeze(headers), data: undefined };
  if (!isObject(data))
    return {
      ok: false,
      reason: `${where}: the mapping's data resolved to ${Array.isArray(data) ? 'an array' : `a ${typeof data}`}; Segment sends only an object`,
    };
  return { ok: true, url, parsed, method, headers: Object.freeze(headers), data };
}
