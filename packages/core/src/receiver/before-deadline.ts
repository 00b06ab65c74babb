/** What `beforeDeadline` resolves to when the deadline came first. */
export const DEADLINE_PASSED: unique symbol = Symbol('deadline passed');

/**
 * Waits for `pending` until the receiver's deadline (counted from `receivedAtMs`): its value, or
 * `DEADLINE_PASSED` when the deadline came first (internal). For the work between verification and
 * the handler that may be async (a schema's `validate`), so that it too is answered in time.
 *
 * @example
 * const checked = await beforeDeadline(rules.check(value), receivedAt.getTime(), deadlineMs);
 * if (checked === DEADLINE_PASSED) return receiverResponse('deadline_exceeded', 'The schema did not finish in time.');
 */
export async function beforeDeadline<T>(
  pending: Promise<T>,
  receivedAtMs: number,
  deadlineMs: number,
): Promise<T | typeof DEADLINE_PASSED> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<typeof DEADLINE_PASSED>((resolve) => {
    timer = setTimeout(() => resolve(DEADLINE_PASSED), Math.max(0, deadlineMs - (Date.now() - receivedAtMs)));
  });
  try {
    return await Promise.race([pending, deadline]);
  } finally {
    clearTimeout(timer);
  }
}
