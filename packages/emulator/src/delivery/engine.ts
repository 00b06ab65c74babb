import type { ClockTimer } from '../clock.js';
import { redactUrl, type DebugLog } from '../debug-log.js';
import type { CancelledRetry, LoggedDelivery } from '../log/delivery-record.js';
import { DeliveryBook, type Cancelled, type Progress } from './delivery-book.js';
import type { EventHub } from '../log/events.js';
import { notRetriedWords } from '../log/endpoint-outcome.js';
import type { RecordEndpoint } from '../log/logged-attempt.js';
import type { EngineOptions } from './delivery-options.js';
import type { DeliveryPolicy } from './delivery-policy.js';
import { attemptLogLine, formatDuration, lastErrors } from './delivery-wording.js';
import { EndpointAgents } from './endpoint-agents.js';
import { sendAttempt, type AttemptHandle, type AttemptResult } from './http-attempt.js';
import { RetryQueue } from './retry-queue.js';
import { nextRoundDelay, retryAfterWait } from './retry-schedule.js';

/**
 * The reason given to every record still pending when `close()` runs.
 *
 * @example
 * const { pending } = await emulator.close();
 * pending.every((r) => r.reason === CLOSED_REASON); // true
 */
export const CLOSED_REASON = 'emulator closed before delivery';

/** One endpoint's queue: at most `concurrency` requests in flight to it, the rest waiting in order. */
interface Lane {
  active: number;
  /** Entries before `head` were taken. */
  queue: Array<{ record: LoggedDelivery; index: number }>;
  head: number;
}

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * The delivery engine: rounds of attempts to every still-retryable endpoint, in parallel (at most
 * `concurrency` in flight per endpoint, so a hanging endpoint does not hold up the others); the
 * first 2xx delivers the record; otherwise the next round follows after a randomized exponential
 * backoff, until the retry window closes or every endpoint failed for good. Each record comes with
 * its destination's policy, which judges the answers. Deadlines and retry timers run on the
 * emulator's clock.
 *
 * @example
 * const engine = new DeliveryEngine(options, events, undefined);
 * engine.deliver(record, classicPolicy(options.responsePolicy));
 * await engine.drain();
 */
export class DeliveryEngine {
  readonly #options: EngineOptions;
  readonly #events: EventHub;
  readonly #log: DebugLog | undefined;
  readonly #agents: EndpointAgents;
  /** Every record handed to `deliver` and not done with, and where each of its endpoints stands. */
  readonly #book = new DeliveryBook<LoggedDelivery>();
  /** Records waiting for their next round, in due order behind one clock timer. */
  readonly #waiting: RetryQueue<LoggedDelivery>;
  readonly #lanes = new Map<string, Lane>();
  /** Requests in flight, with their deadline timers. */
  readonly #inFlight = new Map<AttemptHandle, ClockTimer>();
  #idleWaiters: Array<() => void> = [];
  /** Resolved when an attempt ends or the engine falls idle: what `drain()` waits on when the clock has nothing due. */
  #stepWaiters: Array<() => void> = [];
  #closed = false;

  constructor(options: EngineOptions, events: EventHub, log: DebugLog | undefined) {
    this.#options = options;
    this.#events = events;
    this.#log = log;
    this.#agents = new EndpointAgents(options.tls, options.userAgent);
    this.#waiting = new RetryQueue(
      options.clock,
      (record) => record.nextAttemptMs as number,
      (record) => this.#startRound(record),
    );
  }

  /** Records not yet delivered or failed. */
  get pendingCount(): number {
    return this.#book.pending;
  }

  /** Whether no record is pending and no attempt is queued or in flight. */
  get idle(): boolean {
    return this.#book.pending === 0 && this.#book.outstanding === 0;
  }

  /** Starts delivering a pending record under its destination's policy: its first round goes to every endpoint now. */
  deliver(record: LoggedDelivery, policy: DeliveryPolicy): void {
    if (record.state !== 'pending') return; // failed by a close() that ran while it was being recorded
    this.#book.open(record, record.endpoints.length, policy);
    if (this.#closed) this.#fail(record, CLOSED_REASON);
    else this.#startRound(record);
  }

  /** Starts a record's scheduled retry round now; false when none is scheduled (unknown, finished, or in flight). */
  retryNow(recordId: string): boolean {
    if (this.#closed) return false;
    const record = this.#waiting.remove((r) => r.id === recordId);
    if (!record) return false;
    this.#startRound(record);
    return true;
  }

  /** Resolves when `idle` (real time; a manual clock must be moved by the caller). */
  whenIdle(): Promise<void> {
    if (this.idle) return Promise.resolve();
    return new Promise((resolve) => this.#idleWaiters.push(resolve));
  }

  /**
   * Resolves when `idle`, moving a `ManualClock`'s virtual time as its `runAll()` does (a clock with
   * `runUntil`); on the system clock it just waits.
   */
  async drain(): Promise<void> {
    const clock = this.#options.clock as EngineOptions['clock'] & {
      runUntil?: (done: () => boolean) => Promise<boolean>;
    };
    if (typeof clock.runUntil !== 'function') return this.whenIdle();
    while (!this.idle) {
      if (await clock.runUntil(() => this.idle)) return;
      // Nothing due on the clock yet work is pending (an attempt ending after its deadline fired, or
      // presumed hanging): the next attempt's end is what can schedule a timer or make the engine idle.
      await new Promise<void>((resolve) => this.#stepWaiters.push(resolve));
    }
  }

  /**
   * Stops everything: timers cleared, in-flight requests aborted (recorded as `aborted` attempts),
   * queued attempts dropped, and every pending record marked failed with `CLOSED_REASON` and
   * emitted as `failed`. Returns those records. `records`: the delivery log's records (pending ones
   * are never evicted; one being recorded as `close()` runs is among them, not yet handed over).
   */
  close(records: Iterable<LoggedDelivery>): LoggedDelivery[] {
    this.#closed = true;
    this.#waiting.clear();
    for (const handle of [...this.#inFlight.keys()]) handle.abort({ code: 'aborted' });
    this.#book.dropQueued();
    this.#lanes.clear();
    const pending = [...records].filter((r) => r.state === 'pending');
    for (const record of pending) this.#fail(record, CLOSED_REASON);
    this.#agents.destroy();
    this.#signal();
    return pending;
  }

  /** Wakes `drain()` after a step (an attempt ended, a record finished, `close()`), and `whenIdle()` callers once idle. */
  #signal(): void {
    if (this.#stepWaiters.length > 0) {
      const steps = this.#stepWaiters;
      this.#stepWaiters = [];
      for (const w of steps) w();
    }
    if (!this.idle || this.#idleWaiters.length === 0) return;
    const waiters = this.#idleWaiters;
    this.#idleWaiters = [];
    for (const w of waiters) w();
  }

  #startRound(record: LoggedDelivery): void {
    record.nextAttemptMs = undefined;
    for (const index of this.#book.startRound(record)) {
      const lane = this.#lane((record.endpoints[index] as RecordEndpoint).url);
      lane.queue.push({ record, index });
      this.#dispatch(lane);
    }
  }

  #lane(url: string): Lane {
    let lane = this.#lanes.get(url);
    if (!lane) {
      lane = { active: 0, queue: [], head: 0 };
      this.#lanes.set(url, lane);
    }
    return lane;
  }

  #dispatch(lane: Lane): void {
    while (lane.active < this.#options.concurrency && lane.head < lane.queue.length && !this.#closed) {
      const { record, index } = lane.queue[lane.head] as { record: LoggedDelivery; index: number };
      lane.head++;
      // Checked as the attempt starts: a retry whose message another endpoint accepted meanwhile was
      // cancelled (and accounted for) then; it leaves only its queue entry behind.
      if (!this.#book.take(record, index)) continue;
      lane.active++;
      this.#send(record, index, lane);
    }
    // Drop the taken entries once they are half the queue (an array's shift() would copy it each time).
    if (lane.head === lane.queue.length || lane.head * 2 > lane.queue.length) {
      lane.queue = lane.queue.slice(lane.head);
      lane.head = 0;
    }
  }

  #send(record: LoggedDelivery, index: number, lane: Lane): void {
    const { clock, timeoutMs } = this.#options;
    const endpoint = record.endpoints[index] as RecordEndpoint;
    const startMs = clock.now();
    record.firstAttemptMs ??= startMs;
    const round = (this.#book.get(record) as Progress).round;
    const release = clock.beginIo();
    let handle: AttemptHandle | undefined = undefined;
    const ended = (result: AttemptResult) => {
      const deadline = this.#inFlight.get(handle as AttemptHandle);
      if (deadline !== undefined) clock.clearTimer(deadline);
      this.#inFlight.delete(handle as AttemptHandle);
      lane.active--;
      try {
        this.#ended(record, index, round, startMs, result);
        this.#dispatch(lane);
      } finally {
        this.#signal();
        release();
      }
    };
    // A send can end before `sendAttempt` returns (a request node:http refuses to write): its end is
    // then taken up one tick later, once the handle and its deadline exist (and without nesting a
    // whole lane of such sends in one call stack).
    handle = sendAttempt(this.#agents.target(endpoint), record.bytes, record.signature, (result) => {
      if (handle === undefined) process.nextTick(ended, result);
      else ended(result);
    });
    // At the deadline, answers already received are read first (one I/O pass): a busy process must not make them timeouts.
    const inFlight = handle;
    const expire = () =>
      setImmediate(() => this.#inFlight.has(inFlight) && inFlight.abort({ code: 'timeout', limitMs: timeoutMs }));
    this.#inFlight.set(inFlight, clock.setTimer(expire, timeoutMs));
  }

  #ended(record: LoggedDelivery, index: number, round: number, startMs: number, result: AttemptResult): void {
    const endpoint = record.endpoints[index] as RecordEndpoint;
    const progress = this.#book.get(record) as Progress;
    const verdict = result.error
      ? progress.policy.judgeError(result.error)
      : progress.policy.judgeAnswer(result.status ?? 0, result.statusText, result.responseHeaders?.location);
    // Another endpoint accepted the message while this attempt was out: it is not retried, and says so.
    const acceptedBy = progress.acceptedBy;
    const notRetried = verdict.outcome === 'retry' && acceptedBy !== undefined;
    if (verdict.outcome === 'retry' && !notRetried) {
      const retryAfter = result.responseHeaders?.['retry-after'];
      const wait = retryAfterWait(
        result.status,
        retryAfter,
        progress.policy.honorRetryAfter,
        this.#options.clock.now(),
      );
      if (wait !== undefined) this.#book.askedToWait(record, wait);
    }
    const attempt = record.addAttempt({
      endpoint,
      sentThrough: this.#agents.target(endpoint),
      wording: progress.policy,
      round,
      atMs: startMs,
      status: result.status,
      statusText: result.statusText,
      responseHeaders: result.responseHeaders,
      responseBody: result.responseBody,
      durationMs: result.durationMs,
      failure: result.error,
      outcome: notRetried ? 'not-retried' : verdict.outcome,
      notRetriedBecause: notRetried ? notRetriedWords(acceptedBy + 1) : undefined,
    });
    this.#log?.(attemptLogLine(record, attempt, endpoint.parsed));
    this.#events.emit('attempt', attempt, record);
    const delivered = verdict.outcome === 'delivered' && record.state === 'pending';
    const roundOver = this.#book.ended(record, index, verdict.outcome === 'retry');
    if (delivered) {
      record.state = 'delivered';
      record.deliveredVia = endpoint;
      record.deliveredBy = index + 1;
      const cancelled = this.#book.accepted(record, index);
      this.#finish(record);
      this.#events.emit('delivered', record);
      if (cancelled.length > 0) this.#cancelled(record, cancelled, index, result.status ?? 0);
    }
    if (roundOver && record.state === 'pending') this.#roundEnded(record, progress);
  }

  /**
   * Logs and emits each retry that will not come because endpoint `winner` accepted the message (as
   * the service does: once delivery to any one succeeds, the message is not retried to the others):
   * this round's retries still waiting in their lanes, and the next round's retries of endpoints
   * whose attempt of this round had already failed as retryable (their line said "will retry"; this
   * says it will not). The reason is worded once, here, only when there is something to cancel.
   */
  #cancelled(record: LoggedDelivery, cancelled: Cancelled[], winner: number, status: number): void {
    const at = iso(this.#options.clock.now());
    const winnerUrl = (record.endpoints[winner] as RecordEndpoint).parsed;
    const reason = `endpoint ${winner + 1} (${redactUrl(winnerUrl)}) answered ${status}: a message is not retried after an endpoint accepted it`;
    for (const { index, round } of cancelled) {
      const entry: CancelledRetry = Object.freeze({
        recordId: record.id,
        endpoint: redactUrl((record.endpoints[index] as RecordEndpoint).url),
        round,
        at,
        reason,
      });
      record.addCancelled(entry);
      this.#log?.(`${entry.at} ${record.id} ${record.type} round ${round} POST ${entry.endpoint} cancelled: ${reason}`);
      this.#events.emit('cancelled', entry, record);
    }
  }

  #roundEnded(record: LoggedDelivery, progress: Readonly<Progress>): void {
    if (this.#closed) return;
    if (!this.#book.retryable(record)) {
      this.#fail(record, `every endpoint failed for good: ${lastErrors(record)}`);
      return;
    }
    const { clock, retry } = this.#options;
    const delay = nextRoundDelay(progress.round, retry, progress.retryAfterMs);
    const now = clock.now();
    const first = record.firstAttemptMs ?? now;
    const due = Math.ceil(now + delay); // whole milliseconds, rounded up: never early
    if (due - first > retry.windowMs) {
      this.#fail(
        record,
        `gave up: the next retry would start more than ${formatDuration(retry.windowMs)} after the first attempt (retry.windowMs); ` +
          `${progress.round} round(s), last error: ${lastErrors(record)}`,
      );
      return;
    }
    record.nextAttemptMs = due;
    this.#waiting.add(record);
  }

  #fail(record: LoggedDelivery, reason: string): void {
    if (record.state !== 'pending') return;
    record.state = 'failed';
    record.reason = reason;
    this.#finish(record);
    this.#log?.(`${iso(this.#options.clock.now())} ${record.id} ${record.type} failed: ${reason}`);
    this.#events.emit('failed', record);
  }

  #finish(record: LoggedDelivery): void {
    record.nextAttemptMs = undefined;
    // Never handed over when false (close() failed it as it was being recorded).
    if (this.#book.finish(record)) this.#signal();
  }
}
