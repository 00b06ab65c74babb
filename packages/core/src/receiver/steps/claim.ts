import type { WebhookMessage } from '../../messages/types.js';
import { dedupeKey } from '../dedupe-key.js';
import type { ReceiverSetup } from '../setup.js';
import { refuse, type ArrivedRequest, type Checked, type Claimed, type Refusal, type Verified } from './request.js';

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
export async function claim<TExtra, R extends ArrivedRequest<TExtra> & Verified & Checked<TExtra>>(
  setup: ReceiverSetup<TExtra>,
  request: R,
): Promise<Refusal | (R & Claimed)> {
  const { store } = setup;
  // Stryker disable next-line ObjectLiteral: a dedupeKey left out reads as undefined, the same
  if (store === null) return Object.assign(request, { dedupeKey: undefined });
  const { message } = request;
  const key = await dedupeKey(request.keyedBy, request.signedBody ?? request.input.rawBody ?? JSON.stringify(message));
  let state;
  try {
    state = await store.claim(key, setup.inFlightTtlMs);
  } catch (error) {
    setup.onError(error, { message, dedupeKey: key, phase: 'store' });
    return refuse('store_unavailable', 'The dedupe store is unavailable; the sender will retry.');
  }
  if (state === 'done') return refuse('duplicate', 'Already handled; not run again.', { duplicate: true });
  if (state === 'in-flight') {
    return refuse('in_flight', 'The same message is being handled right now; the sender will retry.');
  }
  return Object.assign(request, { dedupeKey: key });
}

/**
 * Records a handler's outcome for a claimed key: `handled` remembers it (for the dedupe TTL),
 * `failed` frees it for the sender's retry. A store failure is reported to `onError`, not thrown.
 *
 * @example
 * await settleClaim(setup, request.dedupeKey, 'handled', { message });
 */
export async function settleClaim<TExtra>(
  setup: ReceiverSetup<TExtra>,
  key: string | undefined,
  outcome: 'handled' | 'failed',
  about: { message?: WebhookMessage } = {},
): Promise<void> {
  const { store } = setup;
  if (store === null || key === undefined) return;
  try {
    if (outcome === 'handled') await store.complete(key, setup.ttlMs);
    else await store.release(key);
  } catch (error) {
    setup.onError(error, { ...about, dedupeKey: key, phase: 'store' });
  }
}
