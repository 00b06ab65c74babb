import { MESSAGE_TYPES } from '@hookgate/core';
import type { DeliveryRecord } from '../log/delivery-record.js';
import { redactHeaders, redactSignature, redactText, redactUrl, redactWriteKey } from '../redact.js';
import type { IntakeEngine } from './intake-engine.js';
import { intakeError, jsonResponse, type IntakeResponse } from './intake-response.js';

/** The delivery states a listing can be filtered on. */
export const DELIVERY_STATES = ['pending', 'delivered', 'failed', 'filtered'] as const;

/** Default and largest number of deliveries in one listing. */
export const DELIVERY_LIST_LIMIT = { default: 100, max: 1000 } as const;

/** A parsed `GET /_hookgate/deliveries` query. */
export interface DeliveryQuery {
  state?: (typeof DELIVERY_STATES)[number];
  type?: (typeof MESSAGE_TYPES)[number];
  limit: number;
}

/**
 * A delivery record as the deliveries view shows it: its JSON form (signature shortened, endpoint
 * header values masked) with every credential-bearing field redacted too: attempt endpoints,
 * `deliveredTo`, error messages, the reason, a `Location` answer header; the write key masked. The message and bodies are
 * shown exactly as sent: they are the message, not a credential.
 */
function viewOf(record: DeliveryRecord): Record<string, unknown> {
  const json =
    typeof (record as { toJSON?: unknown }).toJSON === 'function'
      ? (record as unknown as { toJSON(): Record<string, unknown> }).toJSON()
      : { ...record };
  const text = (v: unknown) => (typeof v === 'string' ? redactText(v) : v);
  const attempts = (json.attempts as Array<Record<string, unknown>> | undefined) ?? [];
  return {
    ...json,
    ...(typeof json.writeKey === 'string' ? { writeKey: redactWriteKey(json.writeKey) } : {}),
    ...(typeof json.signature === 'string' ? { signature: redactSignature(json.signature) } : {}),
    reason: text(json.reason),
    deliveredTo: typeof json.deliveredTo === 'string' ? redactUrl(json.deliveredTo) : json.deliveredTo,
    attempts: attempts.map((a) => {
      const error = a.error as { message?: unknown } | undefined;
      const responseHeaders = a.responseHeaders as Record<string, string> | undefined;
      return {
        ...a,
        endpoint: typeof a.endpoint === 'string' ? redactUrl(a.endpoint) : a.endpoint,
        requestHeaders: a.requestHeaders ? redactHeaders(a.requestHeaders as Record<string, string>) : a.requestHeaders,
        ...(error ? { error: { ...error, message: text(error.message) } } : {}),
        ...(responseHeaders?.location !== undefined
          ? { responseHeaders: { ...responseHeaders, location: redactUrl(responseHeaders.location) } }
          : {}),
      };
    }),
  };
}

/**
 * Reads `state`, `type` and `limit` from a deliveries query string; names the bad parameter otherwise.
 *
 * @example
 * parseDeliveryQuery(new URLSearchParams('state=failed&type=track')); // { ok: true, query: { state: 'failed', type: 'track', limit: 100 } }
 */
export function parseDeliveryQuery(
  params: URLSearchParams,
): { ok: true; query: DeliveryQuery } | { ok: false; response: IntakeResponse } {
  const bad = (name: string, message: string) => ({
    ok: false as const,
    response: intakeError('invalid_query', `Query parameter ${name} ${message}.`, [{ path: name, message }]),
  });
  const query: DeliveryQuery = { limit: DELIVERY_LIST_LIMIT.default };
  for (const name of params.keys()) {
    // `token` is the guard's (checked before the view answers), as on every other GET view.
    if (name !== 'state' && name !== 'type' && name !== 'limit' && name !== 'token') {
      return bad(name, 'is not known; filter with state, type and limit');
    }
  }
  const state = params.get('state');
  if (state !== null) {
    if (!(DELIVERY_STATES as readonly string[]).includes(state)) {
      return bad('state', `must be one of ${DELIVERY_STATES.join(', ')} (got ${JSON.stringify(state)})`);
    }
    query.state = state as DeliveryQuery['state'];
  }
  const type = params.get('type');
  if (type !== null) {
    if (!(MESSAGE_TYPES as readonly string[]).includes(type)) {
      return bad('type', `must be one of ${MESSAGE_TYPES.join(', ')} (got ${JSON.stringify(type)})`);
    }
    query.type = type as DeliveryQuery['type'];
  }
  const limit = params.get('limit');
  if (limit !== null) {
    const n = Number(limit);
    if (!/^\d+$/.test(limit) || n < 1 || n > DELIVERY_LIST_LIMIT.max) {
      return bad('limit', `must be a whole number from 1 to ${DELIVERY_LIST_LIMIT.max} (got ${JSON.stringify(limit)})`);
    }
    query.limit = n;
  }
  return { ok: true, query };
}

/**
 * The deliveries matching a query, newest first, at most `query.limit` of them.
 *
 * @example
 * selectDeliveries(emulator.deliveries, { state: 'failed', limit: 10 });
 */
export function selectDeliveries(
  records: readonly DeliveryRecord[],
  query: DeliveryQuery,
): { total: number; deliveries: DeliveryRecord[] } {
  const out: DeliveryRecord[] = [];
  let total = 0;
  for (let i = records.length - 1; i >= 0; i--) {
    const r = records[i] as DeliveryRecord;
    if (query.state !== undefined && r.state !== query.state) continue;
    if (query.type !== undefined && r.type !== query.type) continue;
    total++;
    if (out.length < query.limit) out.push(r);
  }
  return { total, deliveries: out };
}

/**
 * Answers `GET /_hookgate/deliveries?state=&type=&limit=`: the delivery log as JSON, newest first,
 * with every `X-Signature` shortened and no credential shown (see `viewOf`).
 *
 * @example
 * const r = deliveriesResponse(emulator, new URLSearchParams('state=failed'));
 */
export function deliveriesResponse(engine: IntakeEngine, params: URLSearchParams): IntakeResponse {
  const parsed = parseDeliveryQuery(params);
  if (!parsed.ok) return parsed.response;
  const { total, deliveries } = selectDeliveries(engine.deliveries, parsed.query);
  const response = jsonResponse(200, null);
  response.body = JSON.stringify({
    total,
    count: deliveries.length,
    order: 'newest first',
    deliveries: deliveries.map(viewOf),
  });
  return response;
}

/**
 * Answers `GET /_hookgate/health`: `{ ok: true, uptimeMs, deliveries: { total, pending, delivered, failed, filtered, evicted } }`
 * (counts since the start: records evicted from the log by `maxRecords` still count).
 *
 * @example
 * const r = healthResponse(emulator, startedAt);
 */
export function healthResponse(engine: IntakeEngine, startedAt: number): IntakeResponse {
  return jsonResponse(200, { ok: true, uptimeMs: Date.now() - startedAt, deliveries: engine.deliveryCounts() });
}
