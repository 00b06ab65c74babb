import type { WebhookMessage } from '../../messages/types.js';
import { dedupeKey } from '../dedupe-key.js';
import type { ClaimResult } from '../idempotency-store.js';
import { isPending, andThen, type MaybePromise } from '../maybe-promise.js';
import type { ReceiverSetup } from '../setup.js';
import { type ArrivedRequest, type Checked, type Claimed, type Refusal, type Verified } from './request.js';

/**
 * The step that claims the message in the dedupe store, keyed by what was signed (its `messageId`,
 * else a digest of the signed bytes or text), so every byte form of one signed message shares a key.
 * A message handled before is answered 200 `duplicate` without running again; one being handled
 * right now 503 `in_flight`; a store that fails 503 `store_unavailable` (the sender retries).
 * Without a store (dedupe off) nothing is claimed.
 *
 * @example
 * const claimed = await claim(setup, checked);
 * if (!isRefusal(claimed)) console.log(claimed.dedupeKey);
 */
export function claim<TExtra, R extends ArrivedRequest<TExtra> & Verified & Checked<TExtra>>(
  setup: ReceiverSetup<TExtra>,
  request: R,
): MaybePromise<Refusal | (R & Claimed)> {
  const { store } = setup;
  // Stryker disable next-line ObjectLiteral: a dedupeKey left out reads as undefined, the same
  if (store === null) return Object.assign(request, { dedupeKey: undefined });
  const { message } = request;
  const key = dedupeKey(request.keyedBy, request.signedBody ?? request.input.rawBody ?? JSON.stringify(message));
  return andThen(key, (dedupeKey): MaybePromise<Refusal | (R & Claimed)> => {
    const { answers } = setup;
    const storeFailed = (error: unknown) => {
      setup.onError(error, { message, dedupeKey, phase: 'store' });
      return answers.storeUnavailable;
    };
    const found = (state: ClaimResult): Refusal | (R & Claimed) => {
      if (state === 'done') return answers.duplicate;
      if (state === 'in-flight') return answers.inFlight;
      return Object.assign(request, { dedupeKey });
    };
    let state: ClaimResult | PromiseLike<ClaimResult>;
    try {
      state = store.claim(dedupeKey, setup.inFlightTtlMs);
    } catch (error) {
      return storeFailed(error);
    }
    return isPending(state) ? Promise.resolve(state).then(found, storeFailed) : found(state);
  });
}

/**
 * Records a handler's outcome for a claimed key: `handled` remembers it (for the dedupe TTL),
 * `failed` frees it for the sender's retry. A store failure is reported to `onError`, not thrown.
 *
 * @example
 * await settleClaim(setup, request.dedupeKey, 'handled', { message }); // a promise only from an async store
 */
export function settleClaim<TExtra>(
  setup: ReceiverSetup<TExtra>,
  key: string | undefined,
  outcome: 'handled' | 'failed',
  about: { message?: WebhookMessage } = {},
): MaybePromise<void> {
  const { store } = setup;
  if (store === null || key === undefined) return;
  const failed = (error: unknown) => setup.onError(error, { ...about, dedupeKey: key, phase: 'store' });
  try {
    const done = outcome === 'handled' ? store.complete(key, setup.ttlMs) : store.release(key);
    if (isPending(done)) return Promise.resolve(done).then(undefined, failed);
  } catch (error) {
    failed(error);
  }
}
