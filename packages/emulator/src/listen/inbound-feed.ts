import type { FeedAnswer, InspectorFeed } from '../inspector/inspector-feed.js';
import type { InboundLog } from './inbound-log.js';
import type { InboundRecord } from './inbound-record.js';
import type { InboundDetail, InboundPage, InboundRow } from '../inspector/wire-types.js';

const DEFAULT_LIMIT = 200;
const MAX_LIMIT = 1000;

/**
 * The row of one record (no headers, no body: those are in its detail), built from a record that is
 * already masked (see `inspect-inbound.ts`).
 *
 * @example
 * inboundRow(record).verdict; // { ok: false, reason: 'mismatch', message: '…' }
 */
export function inboundRow(record: InboundRecord): InboundRow {
  const v = record.verdict;
  const f = record.forward;
  return {
    id: record.id,
    seq: Number(record.id.slice(3)),
    receivedAt: record.receivedAt,
    method: record.method,
    path: record.path,
    type: record.type,
    summary: record.summary,
    bodyBytes: record.bodyBytes,
    verdict: v.ok ? { ok: true, message: v.message } : { ok: false, reason: v.reason, message: v.message },
    forward: f
      ? { status: f.status, error: f.error, timedOut: f.timedOut, durationMs: f.durationMs, slow: f.slow }
      : undefined,
    answeredStatus: record.answeredStatus,
  };
}

/**
 * The inspector's feed of the requests `hookgate listen` received (its extension point, named
 * `inbound`): `GET /_hookgate/ui/api/inbound?limit=N&before=SEQ` (newest first), `…/inbound/<id>` (the
 * record: headers, body, verdict with every finding, forward result) and SSE events `inbound`.
 *
 * @example
 * inspector.addFeed(inboundFeed(listener.log));
 */
export function inboundFeed(log: InboundLog): InspectorFeed {
  const problem = (status: number, message: string): FeedAnswer => ({ status, body: { error: message } });
  return {
    name: 'inbound',
    list(params) {
      const limitText = params.get('limit');
      const beforeText = params.get('before');
      const limit = limitText === null ? DEFAULT_LIMIT : Number(limitText);
      if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT)
        return problem(
          400,
          `Query: limit must be a whole number from 1 to ${MAX_LIMIT} (got ${JSON.stringify(limitText)}).`,
        );
      const before = beforeText === null ? Infinity : Number(beforeText);
      if (beforeText !== null && (!Number.isInteger(before) || before < 1))
        return problem(400, `Query: before must be a request number ≥ 1 (got ${JSON.stringify(beforeText)}).`);
      const records = log.records;
      const items: InboundRow[] = [];
      let i = records.length - 1;
      for (; i >= 0 && items.length < limit; i--) {
        const row = inboundRow(records[i] as InboundRecord);
        if (row.seq < before) items.push(row);
      }
      const last = items.at(-1);
      const next = i >= 0 && last ? last.seq : null;
      const page: InboundPage = { items, next, total: records.length, dropped: log.dropped, order: 'newest first' };
      return { status: 200, body: page };
    },
    detail(id) {
      const record = log.get(id);
      if (!record)
        return problem(
          404,
          `No request ${JSON.stringify(id)} in the log (unknown, or dropped: the log keeps at most 10,000 requests and --max-log-bytes).`,
        );
      const detail: InboundDetail = record;
      return { status: 200, body: detail };
    },
    watch(onChange) {
      return log.subscribe((record) => onChange(record.id));
    },
    row(id) {
      const record = log.get(id);
      return record ? inboundRow(record) : undefined;
    },
  };
}
