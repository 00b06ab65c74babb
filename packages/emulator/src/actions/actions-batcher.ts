import type { MessageType } from '@hookgate/core';
import type { Clock, ClockTimer } from '../clock.js';
import type { ResolvedSubscription } from './actions-settings.js';

/** Events waiting to be sent together: one subscription's, with the same batch keys (url, method, headers). */
export interface OpenBatch<Target> {
  readonly subscription: ResolvedSubscription;
  /** What the request is sent with (endpoint, source), the same for every event of the batch. */
  readonly target: Target;
  /** Each event's mapped `data`, in arrival order (`undefined` where it came out empty: sent as `null`). */
  readonly data: (Record<string, unknown> | undefined)[];
  /** The first event's type and receipt time (the batch's record shows them). */
  readonly type: MessageType;
  readonly firstReceivedMs: number;
  timer: ClockTimer | undefined;
  /** The records standing for calls whose event waits here (told where it went once the batch is sent). */
  readonly waiting: object[];
}

/**
 * Batching per subscription, as Segment's runtime batches for the Webhooks (Actions) `send` action:
 * events are grouped by subscription and batch keys; a batch is sent when it holds `batch_size`
 * events, when its flush window (`webhooksActions.batchWindowMs`, on the emulator's clock) ends after
 * its first event, on `drain()` and on `close()`.
 *
 * @example
 * const batcher = new ActionsBatcher(clock, (batch) => send(batch));
 * batcher.add('wk|1|…', subscription, 10_000, target, data, 'track', clock.now());
 * batcher.flushAll();
 */
export class ActionsBatcher<Target> {
  readonly #clock: Clock;
  readonly #send: (batch: OpenBatch<Target>) => void;
  readonly #open = new Map<string, OpenBatch<Target>>();

  constructor(clock: Clock, send: (batch: OpenBatch<Target>) => void) {
    this.#clock = clock;
    this.#send = send;
  }

  /** Events waiting in open batches. */
  get waiting(): number {
    let n = 0;
    for (const b of this.#open.values()) n += b.data.length;
    return n;
  }

  /**
   * Adds one event's data to its batch (`key` names subscription and batch keys); sends the batch once
   * full. Returns the batch when it is still open (the event waits), `undefined` when this event filled it.
   */
  add(
    key: string,
    subscription: ResolvedSubscription,
    windowMs: number,
    target: Target,
    data: Record<string, unknown> | undefined,
    type: MessageType,
    receivedMs: number,
  ): OpenBatch<Target> | undefined {
    let batch = this.#open.get(key);
    if (batch === undefined) {
      batch = { subscription, target, data: [], type, firstReceivedMs: receivedMs, timer: undefined, waiting: [] };
      this.#open.set(key, batch);
      const opened = batch;
      batch.timer = this.#clock.setTimer(() => {
        opened.timer = undefined;
        this.#flush(key, opened);
      }, windowMs);
    }
    batch.data.push(data);
    if (batch.data.length < subscription.batchSize) return batch;
    this.#flush(key, batch);
    return undefined;
  }

  /**
   * Sends the open batch under `key` now when it was opened under other settings (another subscription
   * object: the source was updated, which resolves its subscriptions again), so that no event is sent
   * with settings it did not come under.
   */
  settle(key: string, subscription: ResolvedSubscription): void {
    const batch = this.#open.get(key);
    if (batch !== undefined && batch.subscription !== subscription) this.#flush(key, batch);
  }

  /** Sends every open batch now (`drain()`, `close()`). */
  flushAll(): void {
    for (const [key, batch] of [...this.#open]) this.#flush(key, batch);
  }

  #flush(key: string, batch: OpenBatch<Target>): void {
    if (this.#open.get(key) !== batch) return;
    this.#open.delete(key);
    if (batch.timer !== undefined) this.#clock.clearTimer(batch.timer);
    batch.timer = undefined;
    if (batch.data.length > 0) this.#send(batch);
  }
}
