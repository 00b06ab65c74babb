import type { AttemptError } from '../log/delivery-record.js';
import type { DeliveryResponsePolicy as ResponsePolicy } from './delivery-options.js';
import { redactLocation } from '../redact.js';
import type { DeliveryPolicy, Verdict } from './delivery-policy.js';

export type { Verdict } from './delivery-policy.js';

/**
 * The classic Webhooks destination's policy: `classifyStatus` and `classifyError` under the
 * emulator's `responsePolicy`.
 *
 * @example
 * engine.deliver(record, classicPolicy(options.responsePolicy));
 */
export function classicPolicy(policy: Required<ResponsePolicy>): DeliveryPolicy {
  return {
    judgeAnswer: (status, statusText, location) => classifyStatus(status, statusText, location, policy),
    judgeError: (error) => classifyError(error, policy),
    honorRetryAfter: policy.honorRetryAfter,
  };
}

/**
 * Classifies an answer by its status (the destination's documented policy): 2xx delivered; 5xx and
 * the `retryStatuses` (408, 429) retried; other 4xx and 3xx per the policy (default: failed at once).
 *
 * @example
 * classifyStatus(503, 'Service Unavailable', undefined, policy); // { outcome: 'retry', error: { code: 'http', ... } }
 */
export function classifyStatus(
  status: number,
  statusText: string | undefined,
  location: string | undefined,
  policy: Required<ResponsePolicy>,
): Verdict {
  if (status >= 200 && status < 300) return { outcome: 'delivered' };
  return statusVerdict(status, statusText, location, policy);
}

function statusVerdict(
  status: number,
  statusText: string | undefined,
  location: string | undefined,
  policy: Required<ResponsePolicy>,
): Verdict {
  const label = `${status}${statusText ? ` ${statusText}` : ''}`;
  if (status >= 300 && status < 400) {
    const error: AttemptError = {
      code: 'redirect',
      // The Location may carry a token (a login redirect): shown masked, like every URL in a reason.
      message: `${label}: redirects are not followed${location ? ` (Location: ${redactLocation(location)})` : ''}`,
    };
    return { outcome: policy.redirects === 'retry' ? 'retry' : 'fail', error };
  }
  const error: AttemptError = { code: 'http', message: label };
  // Stryker disable next-line EqualityOperator: a 200 returned delivered above, so `<= 200` cannot differ
  if (status >= 500 || status < 200) return { outcome: 'retry', error };
  if (policy.retryStatuses.includes(status)) return { outcome: 'retry', error };
  if (policy.clientErrors === 'retry') return { outcome: 'retry', error };
  return {
    outcome: 'fail',
    error: {
      ...error,
      message: `${label}: the receiver rejected the message (a 4xx is not retried; see responsePolicy.clientErrors)`,
    },
  };
}

/**
 * Classifies a request that got no answer: timeouts and connection errors are retried; TLS failures
 * per the policy (default failed: no request was sent); `aborted` (close) is final.
 *
 * @example
 * classifyError({ code: 'timeout', message: 'no answer within 5000 ms' }, policy).outcome; // 'retry'
 */
export function classifyError(error: AttemptError, policy: Required<ResponsePolicy>): Verdict {
  if (error.code === 'aborted') return { outcome: 'fail', error };
  if (error.code === 'tls') return { outcome: policy.tlsErrors === 'retry' ? 'retry' : 'fail', error };
  return { outcome: 'retry', error };
}
