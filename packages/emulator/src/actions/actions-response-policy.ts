import type { DeliveryResponsePolicy } from '../delivery/delivery-options.js';
import type { DeliveryPolicy, Verdict } from '../delivery/delivery-policy.js';
import { classifyError, classifyStatus } from '../delivery/response-policy.js';
import { resolveActionsResponsePolicy, type ActionsResponsePolicy } from './actions-response-settings.js';

/**
 * The Webhooks (Actions) destination's policy, from the emulator's response policy: its `actions`
 * part, and the rest (such as `redirects`, `honorRetryAfter` and `tlsErrors`) shared with classic
 * deliveries: a status in `finalStatuses` fails at once; otherwise as classic, with the Actions
 * `retryStatuses`.
 *
 * @example
 * const policy = actionsPolicyOf(options.responsePolicy, options.responsePolicy.actions);
 * policy.judgeAnswer(501, 'Not Implemented', undefined).outcome; // 'fail'
 */
export function actionsPolicyOf(
  base: Required<DeliveryResponsePolicy>,
  settings: ActionsResponsePolicy | undefined,
): DeliveryPolicy {
  const actions = settings ?? resolveActionsResponsePolicy(undefined);
  const status: Required<DeliveryResponsePolicy> = {
    ...base,
    // Stryker disable next-line ArrayDeclaration: a resolved policy always has both lists; `?? []` only satisfies the optional type
    retryStatuses: [...(actions.retryStatuses ?? [])],
  };
  // Stryker disable next-line ArrayDeclaration: as above
  const finalStatuses = new Set(actions.finalStatuses ?? []);
  return {
    judgeAnswer: (code, statusText, location): Verdict => {
      if (!finalStatuses.has(code)) return classifyStatus(code, statusText, location, status);
      const label = `${code}${statusText ? ` ${statusText}` : ''}`;
      return {
        outcome: 'fail',
        error: {
          code: 'http',
          message: `${label}: Segment does not retry this status for Actions destinations (responsePolicy.actions.finalStatuses)`,
        },
      };
    },
    judgeError: (error) => classifyError(error, status),
    honorRetryAfter: status.honorRetryAfter,
  };
}
