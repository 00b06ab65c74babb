import type { DeliveryRecord } from './delivery-record.js';

/**
 * Where a record stands at one of its endpoints: `delivered` there; `failed` there (given up, or the
 * record failed); `pending` (the record is still being delivered); `not-retried` (it failed there,
 * and was not retried because another endpoint accepted the message).
 *
 * @example
 * const shown: EndpointOutcome = 'not-retried';
 */
export type EndpointOutcome = 'delivered' | 'failed' | 'pending' | 'not-retried';

/**
 * Why a failed attempt is not retried once another endpoint accepted the message, naming that endpoint
 * by its 1-based place in the source's endpoints (as `serve` numbers its `--endpoint` flags).
 *
 * @example
 * notRetriedWords(1); // 'endpoint 1 accepted'
 */
export function notRetriedWords(acceptedBy: number | undefined): string {
  return acceptedBy === undefined ? 'another endpoint accepted' : `endpoint ${acceptedBy} accepted`;
}

/**
 * A record's outcome at one endpoint (masked, as `Attempt.endpoint`), from its attempts there and its
 * state; `undefined` when the endpoint had no attempt of a finished record (it was not one of its endpoints).
 *
 * @example
 * endpointOutcome(record, 'http://127.0.0.1:3001/b'); // 'not-retried' when endpoint 1 answered 200 and this one 500
 */
export function endpointOutcome(record: DeliveryRecord, endpoint: string): EndpointOutcome | undefined {
  const here = record.attempts.filter((a) => a.endpoint === endpoint);
  if (here.some((a) => a.outcome === 'delivered')) return 'delivered';
  if (here.some((a) => a.outcome === 'fail') || record.state === 'failed') return 'failed';
  if (record.state === 'pending') return 'pending';
  if (record.state === 'delivered' && here.length > 0) return 'not-retried';
  return undefined;
}
