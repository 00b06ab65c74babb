import type { DeliveryPolicy } from './delivery-policy.js';

/**
 * Where one endpoint stands in a record's delivery:
 * - `next`: it gets an attempt when the next round starts (every endpoint before round 1; after, one
 *   whose last attempt failed as retryable);
 * - `queued`: its attempt of the current round waits in its endpoint's lane;
 * - `sending`: its attempt of the current round is in flight;
 * - `done`: no attempt to come (it accepted, failed for good, is not retried after another accepted,
 *   or its retry was cancelled).
 */
export type EndpointState = 'next' | 'queued' | 'sending' | 'done';

/** One record's delivery: its round and where each of its endpoints stands. */
export interface Progress {
  readonly policy: DeliveryPolicy;
  /** 1 for the first round, 2 for the first retry round, ... (0 before the first). */
  round: number;
  /** Per endpoint, in the record's endpoint order. */
  readonly endpoints: EndpointState[];
  /** The largest Retry-After (ms) answered in the current round. */
  retryAfterMs: number;
  /** The index of the endpoint whose 2xx delivered the record, once one did. */
  acceptedBy: number | undefined;
  /** Delivered or failed (its first-round attempts may still be out). */
  finished: boolean;
}

/** A retry that will not come because another endpoint accepted: its endpoint and the round it belonged to. */
export interface Cancelled {
  readonly index: number;
  readonly round: number;
}

/**
 * The delivery engine's state: every record handed over and not done with, and where each of its
 * endpoints stands. Every change goes through the methods below, which keep these rules:
 *
 * 1. An endpoint is `queued` or `sending` only for its record's current round; `outstanding` counts
 *    exactly the endpoints, over every record, that are `queued` or `sending`.
 * 2. A round is over when none of its record's endpoints is `queued` or `sending`; only then does the
 *    next start (the `next` ones become `queued`) or the record fail (when none is `next`).
 * 3. Once an endpoint accepted, no retry starts to any endpoint: every `next` endpoint and every
 *    `queued` retry (round 2 or later) becomes `done`, each reported as cancelled. A `queued` first
 *    attempt still goes out (every endpoint gets the message once); an attempt that ends after the
 *    acceptance is `done` whatever its outcome.
 * 4. `pending` counts the records not `finished`; a record leaves the book once it is finished and
 *    none of its endpoints is `queued` or `sending`.
 *
 * @example
 * const book = new DeliveryBook<Job>();
 * book.open(job, 2, policy);
 * book.startRound(job); // [0, 1]: both endpoints queued for round 1
 */
export class DeliveryBook<R> {
  readonly #progress = new Map<R, Progress>();
  #pending = 0;
  #outstanding = 0;

  /** Records not yet delivered or failed. */
  get pending(): number {
    return this.#pending;
  }

  /** Attempts queued or in flight, over every record (a delivered record's first attempts to the others included). */
  get outstanding(): number {
    return this.#outstanding;
  }

  /** The progress of a record in the book, or `undefined`. */
  get(record: R): Readonly<Progress> | undefined {
    return this.#progress.get(record);
  }

  /** Takes in a record with `endpointCount` endpoints, each to get an attempt in round 1. */
  open(record: R, endpointCount: number, policy: DeliveryPolicy): void {
    this.#pending++;
    this.#progress.set(record, {
      policy,
      round: 0,
      endpoints: new Array<EndpointState>(endpointCount).fill('next'),
      retryAfterMs: 0,
      acceptedBy: undefined,
      finished: false,
    });
  }

  /** Starts the record's next round: every `next` endpoint becomes `queued`; returns their indexes. */
  startRound(record: R): number[] {
    const p = this.#progress.get(record);
    if (p === undefined || p.finished) return [];
    p.round++;
    p.retryAfterMs = 0;
    const queued: number[] = [];
    p.endpoints.forEach((state, i) => {
      if (state !== 'next') return;
      p.endpoints[i] = 'queued';
      this.#outstanding++;
      queued.push(i);
    });
    return queued;
  }

  /** A queued attempt starts: `queued` → `sending`. False when it is not queued (cancelled meanwhile). */
  take(record: R, index: number): boolean {
    const p = this.#progress.get(record);
    if (p?.endpoints[index] !== 'queued') return false;
    p.endpoints[index] = 'sending';
    return true;
  }

  /**
   * An attempt ended: `sending` → `next` when it is to be retried and no endpoint accepted, else
   * `done`. Returns whether its round is over (nothing of it queued or in flight).
   */
  ended(record: R, index: number, retry: boolean): boolean {
    const p = this.#progress.get(record) as Progress;
    p.endpoints[index] = retry && p.acceptedBy === undefined ? 'next' : 'done';
    this.#outstanding--;
    const over = !p.endpoints.some((s) => s === 'queued' || s === 'sending');
    if (over && p.finished) this.#progress.delete(record);
    return over;
  }

  /** Keeps the largest `Retry-After` wait of the round. */
  askedToWait(record: R, ms: number): void {
    const p = this.#progress.get(record) as Progress;
    p.retryAfterMs = Math.max(p.retryAfterMs, ms);
  }

  /**
   * Endpoint `index` accepted (rule 3): the retries that will not come become `done`; returns them,
   * in endpoint order (none when there are none: the caller words a reason only then).
   */
  accepted(record: R, index: number): Cancelled[] {
    const p = this.#progress.get(record) as Progress;
    p.acceptedBy = index;
    const cancelled: Cancelled[] = [];
    p.endpoints.forEach((state, i) => {
      if (state === 'queued' && p.round > 1) {
        p.endpoints[i] = 'done';
        this.#outstanding--;
        cancelled.push({ index: i, round: p.round });
      } else if (state === 'next') {
        p.endpoints[i] = 'done';
        cancelled.push({ index: i, round: p.round + 1 });
      }
    });
    return cancelled;
  }

  /** Whether any endpoint of the record is to get another round. */
  retryable(record: R): boolean {
    return this.#progress.get(record)?.endpoints.includes('next') === true;
  }

  /** The record is delivered or failed (rule 4): no longer pending; it leaves once nothing of it is out. */
  finish(record: R): boolean {
    const p = this.#progress.get(record);
    if (p === undefined || p.finished) return false;
    p.finished = true;
    this.#pending--;
    if (!p.endpoints.some((s) => s === 'queued' || s === 'sending')) this.#progress.delete(record);
    return true;
  }

  /** Every queued attempt is dropped (`close()`): `queued` → `done`. In-flight ones end through `ended`. */
  dropQueued(): void {
    for (const p of this.#progress.values())
      p.endpoints.forEach((state, i) => {
        if (state !== 'queued') return;
        p.endpoints[i] = 'done';
        this.#outstanding--;
      });
  }
}
