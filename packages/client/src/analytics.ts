import type { CallType } from '@hookgate/core/calls';
import { Batch, ENVELOPE_BYTES } from './batch.js';
import { createDebugLog, type DebugLog } from './debug-log.js';
import { deliverBatch, failBatch, type BatchSender } from './batch-delivery.js';
import { ClientClosedError, OptionError } from './errors.js';
import { unwatchExit, watchExit } from './exit-flush.js';
import { MAX_BATCH_BYTES } from './limits.js';
import { buildEntry } from './message.js';
import { resolveOptions, type AnalyticsOptions, type ResolvedOptions } from './options.js';
import { MessageQueue } from './queue.js';
import { Transport } from './transport.js';
import type { AliasParams, GroupParams, IdentifyParams, PageParams, ScreenParams, TrackParams } from './types.js';

/** Why a batch was cut: it filled up, or something asked for everything queued. */
type FlushReason = 'size' | 'timer' | 'flush' | 'close' | 'exit';

interface Waiter {
  target: number;
  resolve: () => void;
}

/**
 * Options of `close()`.
 *
 * @example
 * const options: CloseOptions = { timeoutMs: 5_000 };
 * await analytics.close(options);
 */
export interface CloseOptions {
  /**
   * Longest wait in ms. When it runs out, whatever is not delivered yet (still queued, waiting for a
   * retry, or in flight: that request is aborted) is reported to `onError` with reason `'closed'`,
   * and `close()` resolves. Default: no limit (wait for every batch to settle, retries included).
   */
  timeoutMs?: number;
}

/**
 * The batching client (the Go v2 library's, in TypeScript). Calls are checked, queued in memory and
 * return at once; batches are posted to `<endpoint>/v1/batch` when `flushAt` messages are queued or
 * `flushAfter` ms passed since the last flush, retried on 5xx/408/429/network errors, and reported to
 * `onError` when given up. `flush()` and `close()` lose nothing.
 *
 * @example
 * import { Analytics } from '@hookgate/client';
 * const analytics = new Analytics(process.env.WRITE_KEY!, { endpoint: 'http://127.0.0.1:8080' });
 * analytics.identify({ userId: 'u1', traits: { email: 'ada@example.com' } });
 * analytics.track({ userId: 'u1', event: 'Signed Up', properties: { plan: 'pro' } });
 * await analytics.close(); // sends what is queued, then stops
 */
export class Analytics {
  readonly #options: ResolvedOptions;
  readonly #transport: Transport;
  readonly #log: DebugLog | undefined;
  readonly #queue = new MessageQueue();
  /** Messages accepted so far (the next message's sequence number). */
  #enqueued = 0;
  /** Messages cut into batches so far. */
  #dispatched = 0;
  /** Batches being sent or waiting for a retry. */
  readonly #active = new Set<Batch>();
  /** Cut batches, full or not, until `#dispatched` reaches this. */
  #flushTarget = 0;
  #flushReason: FlushReason = 'flush';
  /** `flush()` callers, by increasing target. */
  #waiters: Waiter[] = [];
  #timer: NodeJS.Timeout | undefined;
  #timerArmedAt = 0;
  #lastFlushAt = Date.now();
  #closing: Promise<void> | undefined;
  /** Set when `close({ timeoutMs })` ran out of time: why what is left is given up. */
  #abandoned: string | undefined;
  /** Aborts the requests in flight when the client gives up (`close({ timeoutMs })`). */
  readonly #abort = new AbortController();
  /** Wakes the batches sleeping before a retry. */
  readonly #wakers = new Set<() => void>();
  /** What the batches being sent need of this client (see batch-delivery.ts). */
  readonly #sender: BatchSender;

  /**
   * Creates a client for the source with this write key. Throws an `OptionError` naming a bad option.
   *
   * @example
   * const analytics = new Analytics('wk_123', { flushAt: 100, flushAfter: 10_000 });
   */
  constructor(writeKey: string, options?: AnalyticsOptions) {
    this.#options = resolveOptions(writeKey, options);
    this.#transport = new Transport(
      this.#options.batchUrl,
      writeKey,
      this.#options.timeoutMs,
      this.#options.maxInFlight,
    );
    this.#log = createDebugLog();
    this.#sender = {
      options: this.#options,
      transport: this.#transport,
      log: this.#log,
      signal: this.#abort.signal,
      abandoned: () => this.#abandoned,
      pause: (ms) => this.#pause(ms),
      settle: (batch) => this.#settle(batch),
    };
    const o = this.#options;
    this.#log?.(
      'ready',
      `posting to ${o.batchUrl.href}; flushAt ${o.flushAt}, flushAfter ${o.flushAfter} ms, maxRetries ${o.maxRetries}, timeoutMs ${o.timeoutMs}, maxInFlight ${o.maxInFlight}`,
    );
  }

  /**
   * Queues an identify call (who the user is, with traits) and returns its `messageId`.
   * Throws `FieldError` without userId or anonymousId.
   *
   * @example
   * analytics.identify({ userId: 'u1', traits: { email: 'ada@example.com' } });
   */
  identify(params: IdentifyParams): string {
    return this.#enqueue('identify', params);
  }

  /**
   * Queues a track call (an event the user did) and returns its `messageId`.
   * Throws `FieldError` without `event`, or without userId or anonymousId.
   *
   * @example
   * analytics.track({ userId: 'u1', event: 'Order Completed', properties: { revenue: 42 } });
   */
  track(params: TrackParams): string {
    return this.#enqueue('track', params);
  }

  /**
   * Queues a page call and returns its `messageId`. Needs userId or anonymousId (an anonymousId alone
   * is accepted, as by the tracking API).
   *
   * @example
   * analytics.page({ userId: 'u1', name: 'Pricing', properties: { url: 'https://example.com/pricing' } });
   */
  page(params: PageParams): string {
    return this.#enqueue('page', params);
  }

  /**
   * Queues a screen call (a mobile screen view) and returns its `messageId`.
   *
   * @example
   * analytics.screen({ anonymousId: 'a1', name: 'Settings' });
   */
  screen(params: ScreenParams): string {
    return this.#enqueue('screen', params);
  }

  /**
   * Queues a group call and returns its `messageId`. Throws `FieldError` without `groupId`, or
   * without userId or anonymousId.
   *
   * @example
   * analytics.group({ userId: 'u1', groupId: 'acme', traits: { plan: 'enterprise' } });
   */
  group(params: GroupParams): string {
    return this.#enqueue('group', params);
  }

  /**
   * Queues an alias call (`previousId` becomes `userId`) and returns its `messageId`.
   * Throws `FieldError` without `userId` or `previousId`.
   *
   * @example
   * analytics.alias({ previousId: 'anon-5e2f', userId: 'u1' });
   */
  alias(params: AliasParams): string {
    return this.#enqueue('alias', params);
  }

  /**
   * Sends every message queued so far and resolves once each of their batches is settled: accepted
   * by the server, or given up and reported to `onError` (after retries). Never rejects.
   *
   * @example
   * analytics.track({ userId: 'u1', event: 'Job Done' });
   * await analytics.flush(); // the server has answered for it
   */
  flush(): Promise<void> {
    const target = this.#enqueued;
    this.#requestFlush(target, this.#closing ? 'close' : 'flush');
    return this.#waitFor(target);
  }

  /**
   * Refuses further calls (they throw `ClientClosedError`), stops the timer, sends everything queued,
   * waits for every batch to settle (retries included) and closes the kept-alive connections.
   * With `timeoutMs`, what is not delivered when it runs out is reported to `onError` (reason
   * `'closed'`) and the promise resolves then. Calling it again returns the same promise (the first
   * call's `timeoutMs` applies). Never rejects; throws `OptionError` for a bad `timeoutMs`.
   *
   * @example
   * process.on('SIGTERM', () => void analytics.close({ timeoutMs: 5_000 }).then(() => process.exit(0)));
   */
  close(options: CloseOptions = {}): Promise<void> {
    if (!this.#closing) {
      const { timeoutMs } = options;
      if (timeoutMs !== undefined && !(typeof timeoutMs === 'number' && timeoutMs >= 0 && Number.isFinite(timeoutMs))) {
        throw new OptionError(
          'timeoutMs',
          `close() takes a number of milliseconds ≥ 0 (or none, to wait for every retry); got ${String(timeoutMs)}`,
        );
      }
      this.#disarmTimer();
      this.#closing = Promise.resolve().then(async () => {
        let timer: NodeJS.Timeout | undefined;
        if (timeoutMs !== undefined) timer = setTimeout(() => this.#giveUp(timeoutMs), timeoutMs);
        await this.flush();
        clearTimeout(timer);
        this.#transport.close();
        this.#log?.('closed', `${this.#enqueued} message(s) accepted in all; no more calls accepted`);
      });
    }
    return this.#closing;
  }

  /** `close({ timeoutMs })` ran out: everything not delivered yet is reported as `'closed'`, now. */
  #giveUp(timeoutMs: number): void {
    this.#abandoned = `close() gave up after ${timeoutMs} ms`;
    this.#log?.(
      'closed',
      `${this.#abandoned}: ${this.#enqueued - this.#settledUpTo()} message(s) not delivered are reported to onError`,
    );
    this.#abort.abort();
    for (const wake of this.#wakers) wake();
    this.#pump();
  }

  /** Waits `ms` before a retry, or less if the client gives up meanwhile. */
  #pause(ms: number): Promise<void> {
    return new Promise<void>((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        this.#wakers.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, ms);
      this.#wakers.add(wake);
    });
  }

  /** Sends what is queued when the process is about to exit on its own (see exit-flush.ts). */
  readonly #flushBeforeExit = (): void => {
    this.#requestFlush(this.#enqueued, 'exit');
  };

  #enqueue(type: CallType, params: unknown): string {
    if (this.#closing) throw new ClientClosedError(type);
    let entry;
    try {
      entry = buildEntry(type, params, this.#options.context);
    } catch (error) {
      this.#log?.('rejected', (error as Error).message);
      throw error;
    }
    this.#queue.push(entry);
    this.#enqueued++;
    this.#log?.('queued', `${type} ${entry.id} (${entry.bytes} bytes, ${this.#queue.length} waiting)`);
    this.#pump();
    if (this.#timer === undefined && this.#queue.length > 0) this.#armTimer(this.#options.flushAfter);
    return entry.id;
  }

  #requestFlush(target: number, reason: FlushReason): void {
    if (target > this.#flushTarget) {
      this.#flushTarget = target;
      this.#flushReason = reason;
    }
    this.#pump();
  }

  /** Cuts and sends batches while there are free slots and a batch is due (full, or asked for). */
  #pump(): void {
    const { flushAt, maxInFlight } = this.#options;
    const queue = this.#queue;
    if (this.#abandoned !== undefined) {
      this.#failQueued(this.#abandoned);
      return;
    }
    while (this.#active.size < maxInFlight && queue.length > 0) {
      const asked = this.#dispatched < this.#flushTarget;
      const full = queue.length >= flushAt || ENVELOPE_BYTES + queue.bytes >= MAX_BATCH_BYTES;
      if (!asked && !full) break;
      const entries = queue.take(flushAt, MAX_BATCH_BYTES - ENVELOPE_BYTES);
      const batch = new Batch(entries, this.#dispatched);
      this.#dispatched += entries.length;
      this.#lastFlushAt = Date.now();
      this.#active.add(batch);
      this.#log?.(
        'flushed',
        `${batch.count} message(s), ${batch.bytes} bytes (${full ? 'size' : this.#flushReason}; ${queue.length} still queued)`,
      );
      void deliverBatch(this.#sender, batch);
    }
    if (queue.length === 0) this.#disarmTimer();
  }

  /** Reports every message still queued (never sent) to `onError`, in batches as they would have gone. */
  #failQueued(why: string): void {
    const { flushAt } = this.#options;
    while (this.#queue.length > 0) {
      const batch = new Batch(this.#queue.take(flushAt, MAX_BATCH_BYTES - ENVELOPE_BYTES), this.#dispatched);
      this.#dispatched += batch.count;
      failBatch(this.#sender, batch, 'closed', `${why} with the batch still queued; it was never sent`);
    }
    this.#disarmTimer();
    this.#resolveWaiters();
  }

  #armTimer(delay: number): void {
    this.#timerArmedAt = Date.now();
    this.#timer = setTimeout(this.#onTimer, delay);
    this.#timer.unref();
    watchExit(this.#flushBeforeExit);
  }

  #disarmTimer(): void {
    if (this.#timer === undefined) return;
    clearTimeout(this.#timer);
    this.#timer = undefined;
    unwatchExit(this.#flushBeforeExit);
  }

  readonly #onTimer = (): void => {
    this.#timer = undefined;
    unwatchExit(this.#flushBeforeExit);
    if (this.#queue.length === 0 || this.#closing) return;
    // A batch went out since the timer was armed: wait flushAfter from that flush instead.
    const due = this.#lastFlushAt + this.#options.flushAfter;
    const now = Date.now();
    if (this.#lastFlushAt > this.#timerArmedAt && due > now) {
      this.#armTimer(due - now);
      return;
    }
    this.#requestFlush(this.#enqueued, 'timer');
    if (this.#queue.length > 0 && this.#timer === undefined) this.#armTimer(this.#options.flushAfter);
  };

  /** Messages before this sequence number are all settled. */
  #settledUpTo(): number {
    let low = this.#dispatched;
    for (const batch of this.#active) if (batch.firstSeq < low) low = batch.firstSeq;
    return low;
  }

  #waitFor(target: number): Promise<void> {
    if (this.#settledUpTo() >= target) return Promise.resolve();
    return new Promise((resolve) => this.#waiters.push({ target, resolve }));
  }

  #settle(batch: Batch): void {
    this.#active.delete(batch);
    this.#pump();
    this.#resolveWaiters();
  }

  #resolveWaiters(): void {
    if (this.#waiters.length === 0) return;
    const low = this.#settledUpTo();
    let i = 0;
    while (i < this.#waiters.length && (this.#waiters[i] as Waiter).target <= low)
      (this.#waiters[i++] as Waiter).resolve();
    if (i > 0) this.#waiters = this.#waiters.slice(i);
  }
}
