import { MESSAGE_TYPES } from '@hookgate/core';
import type { DeliveryRecord } from '../log/delivery-record.js';
import { summarizeDelivery, type ViewMasks } from './delivery-view.js';
import type { DeliverySummary } from './wire-types.js';

/** The delivery states the list filters on. */
const STATES = ['pending', 'delivered', 'failed', 'filtered'] as const;

/** Rows per page: default and largest. */
export const PAGE_SIZE = { default: 100, max: 500 } as const;

/**
 * A parsed list query: filters, a text search, and a cursor (`before`: only records older than this
 * sequence number; the previous page's `next`).
 *
 * @example
 * const q = parseListQuery(new URLSearchParams('state=failed&q=u1'));
 */
export interface ListQuery {
  state?: (typeof STATES)[number];
  type?: (typeof MESSAGE_TYPES)[number];
  /** A masked endpoint URL, as the page lists them. */
  endpoint?: string;
  /** Case-insensitive text searched in the user id, the event name (or summary) and the id. */
  q?: string;
  before?: number;
  limit: number;
}

/** A page of the list, newest first. `next` is the cursor of the following page (null at the end). */
export interface ListPage {
  items: DeliverySummary[];
  next: number | null;
  /** Records looked at to fill this page (the cost of the filters). */
  scanned: number;
}

/**
 * Reads a list query; throws a `RangeError` naming the bad parameter.
 *
 * @example
 * parseListQuery(new URLSearchParams('type=track&limit=50')); // { type: 'track', limit: 50 }
 */
export function parseListQuery(params: URLSearchParams): ListQuery {
  const query: ListQuery = { limit: PAGE_SIZE.default };
  for (const [name, value] of params) {
    if (value === '') continue;
    switch (name) {
      case 'state':
        if (!(STATES as readonly string[]).includes(value))
          throw new RangeError(`state must be one of ${STATES.join(', ')} (got ${JSON.stringify(value)})`);
        query.state = value as ListQuery['state'];
        break;
      case 'type':
        if (!(MESSAGE_TYPES as readonly string[]).includes(value))
          throw new RangeError(`type must be one of ${MESSAGE_TYPES.join(', ')} (got ${JSON.stringify(value)})`);
        query.type = value as ListQuery['type'];
        break;
      case 'endpoint':
        query.endpoint = value;
        break;
      case 'q':
        query.q = value.slice(0, 200).toLowerCase();
        break;
      case 'before':
      case 'limit': {
        const n = Number(value);
        const max = name === 'limit' ? PAGE_SIZE.max : Number.MAX_SAFE_INTEGER;
        if (!/^\d+$/.test(value) || n < 1 || n > max)
          throw new RangeError(`${name} must be a whole number from 1 to ${max} (got ${JSON.stringify(value)})`);
        query[name] = n;
        break;
      }
      default:
        throw new RangeError(
          `unknown parameter ${JSON.stringify(name)}: filter with state, type, endpoint, q, before and limit`,
        );
    }
  }
  return query;
}

/** The index of the newest record older than `before` (records are in sequence order). */
function startIndex(records: readonly DeliveryRecord[], before: number | undefined): number {
  if (before === undefined) return records.length - 1;
  let lo = 0;
  let hi = records.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    if ((records[mid] as DeliveryRecord).seq < before) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found;
}

/**
 * One page of deliveries, newest first, matching the query. Filters on state and type cost nothing
 * per record; the endpoint filter looks at the source's endpoints and the attempts; the text search
 * decodes a body only when its bytes contain the text, then checks the user id and summary.
 *
 * @example
 * const page = listDeliveries(emulator.deliveries, masks, parseListQuery(params));
 */
export function listDeliveries(records: readonly DeliveryRecord[], masks: ViewMasks, query: ListQuery): ListPage {
  const items: DeliverySummary[] = [];
  let scanned = 0;
  let i = startIndex(records, query.before);
  const needle = query.q;
  const endpointRaw = query.endpoint === undefined ? undefined : masks.rawUrlsShownAs(query.endpoint);
  const sourceHits = new Map<string, boolean>();
  for (; i >= 0 && items.length < query.limit; i--) {
    const r = records[i] as DeliveryRecord;
    scanned++;
    if (query.state !== undefined && r.state !== query.state) continue;
    if (query.type !== undefined && r.type !== query.type) continue;
    if (endpointRaw !== undefined) {
      let hit = sourceHits.get(r.writeKey);
      if (hit === undefined) {
        hit = masks.endpointsOf(r.writeKey).some((u) => endpointRaw.has(u));
        sourceHits.set(r.writeKey, hit);
      }
      if (!hit && !r.attempts.some((a) => endpointRaw.has(a.endpoint))) continue;
    }
    if (needle !== undefined) {
      if (r.id !== needle) {
        // A cheap check on the whole body first; only a body containing the text is parsed.
        if (!r.body.toLowerCase().includes(needle)) continue;
        const row = summarizeDelivery(r, masks);
        if (!`${row.userId ?? ''}\n${row.summary}`.toLowerCase().includes(needle)) continue;
        items.push(row);
        continue;
      }
    }
    items.push(summarizeDelivery(r, masks));
  }
  const last = items[items.length - 1];
  return { items, next: i >= 0 && last !== undefined ? last.seq : null, scanned };
}
