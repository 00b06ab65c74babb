// A plan check that throws (a validator's own limit: a recursive `$ref` over data nested thousands deep
// overflows the stack, a schema construct the validator refuses only when it runs) must not reject the
// request: the deadline cannot help, and every retry of the same message would throw again. So a throw
// becomes a violation naming it, wherever a plan is checked (receiver, worker, emulator).
import type { CompiledTrackingPlan, PlanCheckResult } from '../tracking-plan/compile-plan.js';
import type { ExactNumber } from '../tracking-plan/exact-numbers.js';

/** The keyword of the violation that says the plan check itself failed. */
export const PLAN_CHECK_FAILED = 'planCheckFailed';

/** How much of the error's own words the violation keeps. */
const MAX_REASON_LENGTH = 200;

/**
 * `plan.check(message, exactNumbers)`, never throwing: a check that throws gives one violation at the
 * message's root, keyword `planCheckFailed`, whose message names the error (its type and words, cut to
 * 200 characters), so handlers and `onViolation` see a message the plan could not vouch for.
 *
 * @example
 * const { violations } = guardedPlanCheck(plan, message);
 * if (violations.some((v) => v.keyword === PLAN_CHECK_FAILED)) console.warn(violations[0].message);
 */
export function guardedPlanCheck(
  plan: CompiledTrackingPlan,
  message: unknown,
  exactNumbers?: readonly ExactNumber[],
): PlanCheckResult {
  try {
    return plan.check(message, exactNumbers);
  } catch (error) {
    const words = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    const reason = words.length > MAX_REASON_LENGTH ? `${words.slice(0, MAX_REASON_LENGTH)}…` : words;
    return {
      planned: isPlanned(plan, message),
      violations: [
        {
          path: '(root)',
          message: `the tracking plan check failed (${reason}); the message was not checked`,
          keyword: PLAN_CHECK_FAILED,
        },
      ],
    };
  }
}

/** Whether the plan has a rule for the message, as far as finding it goes (`false` if that throws too). */
function isPlanned(plan: CompiledTrackingPlan, message: unknown): boolean {
  try {
    return plan.plannedFields(message) !== undefined;
  } catch {
    return false;
  }
}
