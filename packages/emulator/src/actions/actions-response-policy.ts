import type { ResponsePolicy } from '../options.js';
import { classifyStatus, type Verdict } from '../delivery/response-policy.js';
import { resolveActionsResponsePolicy } from './actions-response-settings.js';

/** The resolved policy Actions records share (one object per emulator, so verdicts are cached). */
export interface ResolvedActionsPolicy {
  /** The emulator's policy with the Actions retry statuses. */
  readonly status: Required<ResponsePolicy>;
  readonly finalStatuses: ReadonlySet<number>;
}

/**
 * The Actions policy from the emulator's response policy (its `actions` part; the rest, such as
 * `redirects`, `honorRetryAfter` and `tlsErrors`, shared with classic deliveries).
 *
 * @example
 * const policy = actionsPolicyOf(options.responsePolicy);
 */
export function actionsPolicyOf(base: Required<ResponsePolicy>): ResolvedActionsPolicy {
  const actions = base.actions ?? resolveActionsResponsePolicy(undefined);
  return Object.freeze({
    // Stryker disable next-line ArrayDeclaration: a resolved policy always has both lists; `?? []` only satisfies the optional type
    status: { ...base, retryStatuses: [...(actions.retryStatuses ?? [])] },
    // Stryker disable next-line ArrayDeclaration: as above
    finalStatuses: new Set(actions.finalStatuses ?? []),
  });
}

/**
 * Classifies an answer to a Webhooks (Actions) request (see `ActionsResponsePolicy`): a status in
 * `finalStatuses` fails at once; otherwise as classic, with the Actions `retryStatuses`.
 *
 * @example
 * classifyActionsStatus(501, 'Not Implemented', undefined, policy).outcome; // 'fail'
 */
export function classifyActionsStatus(
  status: number,
  statusText: string | undefined,
  location: string | undefined,
  policy: ResolvedActionsPolicy,
): Verdict {
  if (policy.finalStatuses.has(status)) {
    const label = `${status}${statusText ? ` ${statusText}` : ''}`;
    return {
      outcome: 'fail',
      error: {
        code: 'http',
        message: `${label}: Segment does not retry this status for Actions destinations (responsePolicy.actions.finalStatuses)`,
      },
    };
  }
  return classifyStatus(status, statusText, location, policy.status);
}
