// The flow's one rule for waiting: a step returns its value, or a promise when it really waits (a
// body still arriving, an async store, schema or handler); the flow waits only on a promise. An
// `await` of a value that is already there still costs a trip through the microtask queue per step.

/**
 * A value, or a promise of it when it is not there yet (internal).
 *
 * @example
 * const verified: MaybePromise<Refusal | Verified> = verify(setup, request);
 */
export type MaybePromise<T> = T | Promise<T>;

/**
 * Whether `value` is a promise or another thenable (a user's store or handler may give either).
 *
 * @example
 * if (isPending(state)) state = await state;
 */
export function isPending<T>(value: T | PromiseLike<T>): value is PromiseLike<T> {
  return typeof (value as { then?: unknown } | null | undefined)?.then === 'function';
}

/**
 * Runs `next` with `value` (named `andThen`, not `then`: a module exporting `then` is itself a thenable
 * to `await import()`): now when the value is there, once it settled when it is pending (a
 * rejection passes through untouched). The flow's steps are joined with it.
 *
 * @example
 * return andThen(verify(setup, request), (verified) => (isRefusal(verified) ? verified : parseBody(setup, verified)));
 */
export function andThen<T, U>(value: T | PromiseLike<T>, next: (value: T) => MaybePromise<U>): MaybePromise<U> {
  return isPending(value) ? Promise.resolve(value).then(next) : next(value);
}
