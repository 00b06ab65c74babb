import { endpointOutcome, notRetriedWords, type EndpointOutcome } from '../log/endpoint-outcome.js';
import type { DeliveryRecord } from '../log/delivery-record.js';
import type { EndpointStatusView } from './wire-types.js';

function lastStatusOf(record: DeliveryRecord, endpoint: string): number | string | undefined {
  const last = record.attempts.findLast((a) => a.endpoint === endpoint);
  return last ? (last.status ?? last.error?.code) : undefined;
}

function wordsFor(outcome: EndpointOutcome | undefined, record: DeliveryRecord, attempted: boolean): string {
  switch (outcome) {
    case 'not-retried':
      return `not retried — ${notRetriedWords(record.deliveredBy)}`;
    case 'pending':
      return attempted ? 'retrying' : 'queued';
    case 'delivered':
    case 'failed':
      return outcome;
    default:
      return 'no attempt';
  }
}

/**
 * Each endpoint's status for a delivery: the endpoints its attempts went to (masked, in the order
 * they were first tried), then `others` (the source's endpoints, masked) that had none.
 *
 * @example
 * endpointStatuses(record, masks.endpointsOf(record.writeKey).map((u) => masks.url(u)), (u) => masks.url(u));
 */
export function endpointStatuses(
  record: DeliveryRecord,
  others: readonly string[],
  shown: (endpoint: string) => string,
): EndpointStatusView[] {
  const tried = [...new Set(record.attempts.map((a) => a.endpoint))];
  const out = tried.map((endpoint) => {
    const outcome = endpointOutcome(record, endpoint);
    return {
      endpoint: shown(endpoint),
      outcome,
      lastStatus: lastStatusOf(record, endpoint),
      words: wordsFor(outcome, record, true),
    };
  });
  for (const endpoint of others) {
    if (out.some((e) => e.endpoint === endpoint)) continue;
    const outcome = record.state === 'pending' ? ('pending' as const) : undefined;
    out.push({ endpoint, outcome, lastStatus: undefined, words: wordsFor(outcome, record, false) });
  }
  return out;
}

/**
 * For a delivery's list row: what the last status means when the last attempt failed at an endpoint
 * that is not retried because another accepted the message (`not retried — endpoint 1 accepted`);
 * else undefined.
 *
 * @example
 * lastStatusNote(record); // 'not retried — endpoint 1 accepted' beside a delivered record's last status 500
 */
export function lastStatusNote(record: DeliveryRecord): string | undefined {
  const last = record.attempts.at(-1);
  if (last === undefined || endpointOutcome(record, last.endpoint) !== 'not-retried') return undefined;
  return wordsFor('not-retried', record, true);
}
