/** What `beforeDeadline` resolves to when the deadline came first. */
export const DEADLINE_PASSED: unique symbol = Symbol('deadline passed');

/**
 * Waits for `pending` until the receiver's deadline (counted from `receivedAtMs`): its value, or
 * `DEADLINE_PASSED` when the deadline came first (internal). For work that really waits (a schema's
 * `validate`, a handler's or a queue's promise), so that it too is answered in time: one timer, armed
 * only while `pending` is pending and cleared as soon as it settles; a value already there never
 * comes here.
 *
 * @example
 * const checked = await beforeDeadline(rules.check(value), receivedAt.getTime(), deadlineMs);
 * if (checked === DEADLINE_PASSED) return receiverResponse('deadline_exceeded', 'The schema did not finish in time.');
 */
export function beforeDeadline<T>(
  pending: PromiseLike<T>,
  receivedAtMs: number,
  deadlineMs: number,
): Promise<T | typeof DEADLINE_PASSED> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => resolve(DEADLINE_PASSED), Math.max(0, deadlineMs - (Date.now() - receivedAtMs)));
    pending.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- the work's own rejection, passed on as it is
        reject(error);
      },
    );
  });
}
