import type { ClockTimer } from '../clock.js';
import { redactSignature, redactUrl, type DebugLog } from '../debug-log.js';
import type {
  AttemptAnswer,
  AttemptEndpoint,
  AttemptError,
  AttemptInit,
  CancelledRetry,
  LoggedAttempt,
  LoggedDelivery,
} from '../log/delivery-record.js';
import type { EventHub } from '../log/events.js';
import { sendAttempt, type AttemptHandle, type AttemptResult } from './http-attempt.js';
import { EndpointAgents } from './endpoint-agents.js';
import type { ResolvedOptions } from '../options.js';
import { classifyError, classifyStatus, type Verdict } from './response-policy.js';
import { backoffDelay, retryAfterMs } from './retry-schedule.js';
import { RetryQueue } from './retry-queue.js';
import { InOrderList, type ListLinks } from '../in-order-list.js';
import type { ResolvedEndpoint } from '../routing/source-settings.js';
import { ActionsDelivery, type ActionsEndpoint } from '../actions/actions-delivery.js';
import { classifyActionsStatus } from '../actions/actions-response-policy.js';

/**
 * The reason given to every record still pending when `close()` runs.
 *
 * @example
 * const { pending } = await emulator.close();
 * pending.every((r) => r.reason === CLOSED_REASON); // true
 */
export const CLOSED_REASON = 'emulator closed before delivery';

/**
 * A record's delivery state inside the engine lives in the record itself (`round`, `engineBits`: no
 * object per pending record). `engineBits` packs three 5-bit fields, bit i for endpoint i (at most 5
 * endpoints): which endpoints are still worth another round, whose attempt of the current round
 * waits in its lane (not started yet), and how many attempts of the current round have not ended.
 */
const FIVE_BITS = 0b11111;
const QUEUED_SHIFT = 5;
const IN_ROUND_SHIFT = 10;

const retryableOf = (r: LoggedDelivery) => r.engineBits & FIVE_BITS;
const queuedOf = (r: LoggedDelivery) => (r.engineBits >> QUEUED_SHIFT) & FIVE_BITS;
const inRoundOf = (r: LoggedDelivery) => r.engineBits >> IN_ROUND_SHIFT;
const setRetryable = (r: LoggedDelivery, bits: number) => (r.engineBits = (r.engineBits & ~FIVE_BITS) | bits);
const setQueued = (r: LoggedDelivery, bits: number) =>
  (r.engineBits = (r.engineBits & ~(FIVE_BITS << QUEUED_SHIFT)) | (bits << QUEUED_SHIFT));
const setInRound = (r: LoggedDelivery, n: number) =>
  (r.engineBits = (r.engineBits & ((1 << IN_ROUND_SHIFT) - 1)) | (n << IN_ROUND_SHIFT));

/**
 * One endpoint's queue: at most `concurrency` requests in flight to it, the rest waiting in order.
 * `queue` holds pairs, a record then its endpoint's index (no object per queued attempt: with an
 * endpoint down, 100,000 first attempts may wait here at once).
 */
interface Lane {
  active: number;
  queue: Array<LoggedDelivery | number | undefined>;
  head: number;
}

/**
 * A request in flight, with its deadline on the emulator's clock (linked in the engine's in-flight list).
 * A class, not an object literal: V8 pretenures a literal's allocation site once most of its objects
 * outlive a scavenge (64 requests in flight through a burst do), and each dead pretenured entry then
 * kept its young request, closure and context alive into the old generation (~470 B per attempt).
 */
class InFlight implements ListLinks<InFlight> {
  handle: AttemptHandle | undefined = undefined;
  /** Set once, when the request exists. */
  deadlineMs = 0;
  prev: InFlight | undefined = undefined;
  next: InFlight | undefined = undefined;
  listed = false;
}

const iso = (ms: number) => new Date(ms).toISOString();

/** Distinct errors, and distinct bodies per error, whose answers are shared (see `#answer`). */
const ANSWERS_KEPT = 64;

/** Formats a duration for a reason: `4 h`, `90 s`, `250 ms`. */
export function formatDuration(ms: number): string {
  if (ms >= 3_600_000 && ms % 3_600_000 === 0) return `${ms / 3_600_000} h`;
  if (ms >= 60_000 && ms % 60_000 === 0) return `${ms / 60_000} min`;
  if (ms >= 1000 && ms % 1000 === 0) return `${ms / 1000} s`;
  return `${ms} ms`;
}

/**
 * The delivery engine: rounds of attempts to every still-retryable endpoint, in parallel (at most
 * `concurrency` in flight per endpoint, so a hanging endpoint does not hold up the others); the
 * first 2xx delivers the record; otherwise the next round follows after a randomized exponential
 * backoff, until the retry window closes or every endpoint failed for good. Deadlines and retry
 * timers run on the emulator's clock.
 *
 * @example
 * const engine = new DeliveryEngine(options, events, undefined);
 * engine.deliver(record);
 * await engine.whenIdle();
 */
export class DeliveryEngine {
  readonly #options: ResolvedOptions;
  readonly #events: EventHub;
  readonly #log: DebugLog | undefined;
  readonly #agents: EndpointAgents;
  /** Records handed to `deliver` and not yet delivered or failed (the log holds them: no set of them here). */
  #pendingCount = 0;
  /** Records waiting for their next round, behind one clock timer. */
  readonly #waiting: RetryQueue<LoggedDelivery>;
  /** The largest Retry-After (ms) seen in a record's current round, for the few records that got one. */
  readonly #retryAfter = new Map<LoggedDelivery, number>();
  /** Shared answers, by error object then body (see `#answer`). */
  readonly #answers = new Map<AttemptError | undefined, Map<string | undefined, AttemptAnswer>>();
  /** What attempts to each endpoint share (the endpoint and the User-Agent sent). */
  readonly #attemptEndpoints = new WeakMap<ResolvedEndpoint, AttemptEndpoint>();
  readonly #lanes = new Map<string, Lane>();
  /** Requests in flight, oldest first: with one `timeoutMs` for all, also earliest deadline first. */
  readonly #inFlight = new InOrderList<InFlight>();
  /** One clock timer watches every deadline: it is set for the oldest request in flight. */
  #deadlineTimer: ClockTimer | undefined;
  /** Attempts queued or in flight (a delivered record's first-round attempts to the others included). */
  #outstanding = 0;
  #idleWaiters: Array<() => void> = [];
  #closed = false;
  /** Body bytes of the records not finished (what the pipeline weighs against `packBodiesOver`). */
  #pendingBodyBytes = 0;

  constructor(options: ResolvedOptions, events: EventHub, log: DebugLog | undefined) {
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

  /** Records not yet delivered, failed or filtered. */
  get pendingCount(): number {
    return this.#pendingCount;
  }

  /** The bodies' bytes (UTF-8, unpacked) of the records not yet delivered or failed. */
  get pendingBodyBytes(): number {
    return this.#pendingBodyBytes;
  }

  /** Whether no record is pending and no attempt is queued or in flight. */
  get idle(): boolean {
    return this.#pendingCount === 0 && this.#outstanding === 0;
  }

  /** Starts delivering a pending record: its first round goes to every endpoint of its source now. */
  deliver(record: LoggedDelivery): void {
    record.round = 0;
    record.engineBits = 0;
    setRetryable(record, (1 << record.endpoints.length) - 1);
    this.#pendingCount++;
    this.#pendingBodyBytes += record.bodyLength;
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
    const clock = this.#options.clock as ResolvedOptions['clock'] & {
      runUntil?: (done: () => boolean) => Promise<boolean>;
    };
    while (!this.idle) {
      if (typeof clock.runUntil === 'function') {
        if (await clock.runUntil(() => this.idle)) return;
        // Nothing due on the clock yet work is pending: wait a little real time for I/O.
        await Promise.race([this.whenIdle(), new Promise((r) => setTimeout(r, 5))]);
      } else {
        await this.whenIdle();
      }
    }
  }

  /**
   * Stops everything: timers cleared, in-flight requests aborted (recorded as `aborted` attempts),
   * queued attempts dropped, and every pending record marked failed with `CLOSED_REASON` and
   * emitted as `failed`. Returns those records. `records`: the delivery log's records (the engine keeps
   * no list of its own; pending records are never evicted from the log).
   */
  close(records: Iterable<LoggedDelivery>): LoggedDelivery[] {
    this.#closed = true;
    const { clock } = this.#options;
    this.#waiting.clear();
    for (const a of this.#inFlight.toArray())
      a.handle?.abort({ code: 'aborted', message: 'close() ended the request' });
    if (this.#deadlineTimer) clock.clearTimer(this.#deadlineTimer);
    this.#deadlineTimer = undefined;
    for (const lane of this.#lanes.values())
      for (let i = lane.head; i < lane.queue.length; i += 2) {
        const record = lane.queue[i] as LoggedDelivery;
        if (queuedOf(record) & (1 << (lane.queue[i + 1] as number))) this.#outstanding--;
      }
    this.#lanes.clear();
    const pending: LoggedDelivery[] = [];
    for (const record of records) if (record.state === 'pending') pending.push(record);
    for (const record of pending) this.#fail(record, CLOSED_REASON);
    this.#agents.destroy();
    this.#checkIdle();
    return pending;
  }

  #checkIdle(): void {
    if (!this.idle || this.#idleWaiters.length === 0) return;
    const waiters = this.#idleWaiters;
    this.#idleWaiters = [];
    for (const w of waiters) w();
  }

  #startRound(record: LoggedDelivery): void {
    record.nextAttemptMs = undefined;
    record.round++;
    const endpoints = record.endpoints;
    const retryable = retryableOf(record);
    for (let i = 0; i < endpoints.length; i++) {
      if (!(retryable & (1 << i))) continue;
      setInRound(record, inRoundOf(record) + 1);
      setQueued(record, queuedOf(record) | (1 << i));
      this.#outstanding++;
      const lane = this.#lane((endpoints[i] as ResolvedEndpoint).url);
      lane.queue.push(record, i);
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
    const limit = this.#options.concurrency;
    while (lane.active < limit && lane.head < lane.queue.length && !this.#closed) {
      const record = lane.queue[lane.head] as LoggedDelivery;
      const index = lane.queue[lane.head + 1] as number;
      lane.queue[lane.head] = undefined;
      lane.head += 2;
      // Checked as the attempt starts, not when it was queued: a retry whose message another endpoint
      // accepted meanwhile was cancelled (and accounted for) then; it leaves only this mark behind.
      const bit = 1 << index;
      if (!(queuedOf(record) & bit)) continue;
      setQueued(record, queuedOf(record) & ~bit);
      lane.active++;
      this.#send(record, index, lane);
    }
    if (lane.head === lane.queue.length) {
      lane.queue = [];
      lane.head = 0;
    } else if (lane.head > 2048 && lane.head * 2 > lane.queue.length) {
      lane.queue = lane.queue.slice(lane.head);
      lane.head = 0;
    }
  }

  #send(record: LoggedDelivery, index: number, lane: Lane): void {
    const { clock } = this.#options;
    const endpoint = record.endpoints[index] as ResolvedEndpoint;
    const startMs = clock.now();
    if (record.firstAttemptMs === undefined) record.firstAttemptMs = startMs;
    const body = record.bodyBytes;
    const round = record.round;
    const release = clock.beginIo();
    // The deadline is set once the request exists (below): the budget counts from the request, not from
    // the dispatch, which a GC pause or a busy loop may have delayed.
    const entry = new InFlight();
    let settled = false;
    entry.handle = sendAttempt(this.#agents.target(endpoint), body, record.signatureOf(body), (result) => {
      settled = true;
      entry.handle = undefined;
      if (this.#inFlight.delete(entry) && this.#inFlight.size === 0) this.#stopDeadlineTimer();
      lane.active--;
      this.#outstanding--;
      try {
        this.#ended(record, index, round, startMs, result);
        this.#dispatch(lane);
      } finally {
        this.#checkIdle();
        release();
      }
    });
    // The callback may already have run (a synchronous error): then nothing is in flight.
    if (!settled) {
      entry.deadlineMs = clock.now() + this.#options.timeoutMs;
      this.#inFlight.push(entry);
      if (this.#deadlineTimer === undefined) this.#armDeadlineTimer(entry.deadlineMs);
    }
  }

  /**
   * The answer as attempts keep it: one shared object per distinct short answer (error, body, no
   * headers kept), so thousands of identical failures cost one; at most `ANSWERS_KEPT` distinct ones.
   */
  #answer(
    error: AttemptError | undefined,
    responseBody: string | undefined,
    responseHeaders: Readonly<Record<string, string>> | undefined,
  ): AttemptAnswer {
    if (responseHeaders !== undefined || (responseBody !== undefined && responseBody.length > 256))
      return { error, responseBody, responseHeaders };
    let byBody = this.#answers.get(error);
    if (byBody === undefined) {
      if (this.#answers.size >= ANSWERS_KEPT) return { error, responseBody, responseHeaders };
      byBody = new Map();
      this.#answers.set(error, byBody);
    }
    let answer = byBody.get(responseBody);
    if (answer === undefined) {
      answer = Object.freeze({ error, responseBody, responseHeaders: undefined });
      if (byBody.size < ANSWERS_KEPT) byBody.set(responseBody, answer);
    }
    return answer;
  }

  #attemptEndpoint(endpoint: ResolvedEndpoint): AttemptEndpoint {
    let to = this.#attemptEndpoints.get(endpoint);
    if (to === undefined) {
      to = Object.freeze({
        endpoint,
        userAgent: (endpoint as Partial<ActionsEndpoint>).userAgent ?? this.#options.userAgent,
      });
      this.#attemptEndpoints.set(endpoint, to);
    }
    return to;
  }

  #armDeadlineTimer(deadlineMs: number): void {
    const { clock } = this.#options;
    this.#deadlineTimer = clock.setTimer(() => {
      this.#deadlineTimer = undefined;
      this.#expireDeadlines();
    }, deadlineMs - clock.now());
  }

  #stopDeadlineTimer(): void {
    if (this.#deadlineTimer) this.#options.clock.clearTimer(this.#deadlineTimer);
    this.#deadlineTimer = undefined;
  }

  /** Times out every request whose deadline passed, then watches the next one. */
  #expireDeadlines(): void {
    const now = this.#options.clock.now();
    const timeout: AttemptError = Object.freeze({
      code: 'timeout',
      message: `no answer within ${this.#options.timeoutMs} ms (timeoutMs)`,
    });
    // Oldest first; each abort removes its entry (and may start the next queued request, at the end).
    for (let entry = this.#inFlight.first; entry !== undefined; entry = this.#inFlight.first) {
      if (entry.deadlineMs > now) {
        // The oldest request still in flight has the earliest deadline (a send made while expiring
        // may have set the timer for its own, later deadline).
        this.#stopDeadlineTimer();
        this.#armDeadlineTimer(entry.deadlineMs);
        return;
      }
      entry.handle?.abort(timeout); // removes the entry from #inFlight
      this.#inFlight.delete(entry); // (already done, unless its request had ended: never loop on it)
    }
  }

  #ended(record: LoggedDelivery, index: number, round: number, startMs: number, result: AttemptResult): void {
    const endpoint = record.endpoints[index] as ResolvedEndpoint;
    // A Webhooks (Actions) record answers to Segment's rule for Actions destinations (responsePolicy.actions).
    const actions = record instanceof ActionsDelivery ? record.policy : undefined;
    const policy = actions?.status ?? this.#options.responsePolicy;
    const verdict: Verdict = result.error
      ? classifyError(result.error, policy)
      : actions
        ? classifyActionsStatus(result.status ?? 0, result.statusText, result.responseHeaders?.location, actions)
        : classifyStatus(result.status ?? 0, result.statusText, result.responseHeaders?.location, policy);
    const error = verdict.outcome === 'delivered' ? undefined : verdict.error;
    const init: AttemptInit = {
      to: this.#attemptEndpoint(endpoint),
      round,
      atMs: startMs,
      status: result.status,
      answer: this.#answer(error, result.responseBody, result.responseHeaders),
      durationMs: result.durationMs,
      outcome: verdict.outcome,
    };
    if (error) {
      if (verdict.outcome === 'fail') setRetryable(record, retryableOf(record) & ~(1 << index));
      else if (policy.honorRetryAfter && (result.status === 429 || result.status === 503)) {
        const wait = retryAfterMs(result.responseHeaders?.['retry-after'], this.#options.clock.now());
        if (wait !== undefined) this.#retryAfter.set(record, Math.max(this.#retryAfter.get(record) ?? 0, wait));
      }
    }
    const attempt = record.addAttempt(init);
    this.#logAttempt(record, attempt, endpoint.parsed);
    this.#events.emit('attempt', attempt, record);
    if (verdict.outcome === 'delivered' && record.state === 'pending') {
      record.state = 'delivered';
      record.deliveredTo = redactUrl(endpoint.url);
      this.#finish(record);
      this.#events.emit('delivered', record);
      this.#cancelQueuedRetries(record, index, result.status ?? 0);
    }
    setInRound(record, inRoundOf(record) - 1);
    if (inRoundOf(record) === 0) this.#roundEnded(record);
  }

  /**
   * Once an endpoint accepted the message, the retries of this round still waiting in other
   * endpoints' lanes will not start (as the service does: once delivery to any one succeeds, the message is
   * processed and not retried to the others). First attempts keep the fan-out: every endpoint gets
   * the message once, even when queued behind a slow one. Each cancelled retry is logged, with why.
   */
  #cancelQueuedRetries(record: LoggedDelivery, winner: number, status: number): void {
    if (record.round === 1 || queuedOf(record) === 0) return;
    const now = this.#options.clock.now();
    const endpoints = record.endpoints;
    const winnerUrl = (endpoints[winner] as ResolvedEndpoint).parsed;
    const reason = `endpoint ${winner + 1} (${redactUrl(winnerUrl)}) answered ${status}: a message is not retried after an endpoint accepted it`;
    for (let i = 0; i < endpoints.length; i++) {
      if (!(queuedOf(record) & (1 << i))) continue;
      setQueued(record, queuedOf(record) & ~(1 << i));
      setInRound(record, inRoundOf(record) - 1);
      this.#outstanding--;
      const endpoint = endpoints[i] as ResolvedEndpoint;
      const cancelled: CancelledRetry = Object.freeze({
        recordId: record.id,
        endpoint: endpoint.url,
        round: record.round,
        at: iso(now),
        reason,
      });
      record.addCancelled(cancelled);
      this.#log?.(
        `${cancelled.at} ${record.id} ${record.type} round ${record.round} POST ${redactUrl(endpoint.parsed)} cancelled: ${reason}`,
      );
      this.#events.emit('cancelled', cancelled, record);
    }
  }

  #roundEnded(record: LoggedDelivery): void {
    const retryAfter = this.#retryAfter.get(record) ?? 0;
    this.#retryAfter.delete(record);
    if (record.state !== 'pending' || this.#closed) return;
    if (retryableOf(record) === 0) {
      this.#fail(record, `every endpoint failed for good: ${this.#lastErrors(record)}`);
      return;
    }
    const { clock, retry } = this.#options;
    const delay = Math.max(backoffDelay(record.round, retry), retryAfter);
    const now = clock.now();
    const first = record.firstAttemptMs ?? now;
    // Whole milliseconds (rounded up: never early): a jittered delay is fractional, and a fractional time
    // would be kept boxed, 16 bytes more per waiting record.
    const due = Math.ceil(now + delay);
    if (due - first > retry.windowMs) {
      this.#fail(
        record,
        `gave up: the next retry would start more than ${formatDuration(retry.windowMs)} after the first attempt (retry.windowMs); ` +
          `${record.round} round(s), last error: ${this.#lastErrors(record)}`,
      );
      return;
    }
    record.nextAttemptMs = due;
    this.#waiting.add(record);
  }

  #lastErrors(record: LoggedDelivery): string {
    // Each endpoint's last error is its last attempt's (read back from the record: nothing kept per record).
    const attempts = record.attempts;
    const lastError = (endpoint: ResolvedEndpoint): AttemptError | undefined => {
      for (let k = attempts.length - 1; k >= 0; k--) {
        const a = attempts[k] as LoggedAttempt;
        if (a.resolvedEndpoint === endpoint) return a.error;
      }
      return undefined;
    };
    return record.endpoints
      .map((e) => {
        const err = lastError(e);
        return `${redactUrl(e.parsed)} → ${err ? `${err.code}: ${err.message}` : 'no error'}`;
      })
      .join('; ');
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
    this.#retryAfter.delete(record); // (a round cut short by close() never reaches #roundEnded)
    this.#pendingCount--;
    this.#pendingBodyBytes -= record.bodyLength;
    this.#checkIdle();
  }

  #logAttempt(record: LoggedDelivery, a: LoggedAttempt, url: URL): void {
    if (!this.#log) return;
    const answer = !a.error
      ? `${a.status}`
      : a.error.code === 'http'
        ? a.error.message
        : `${a.status !== undefined ? `${a.status} ` : ''}${a.error.code}: ${a.error.message}`;
    const signature = record.signature;
    const sig = signature ? ` sig=${redactSignature(signature)}` : '';
    const method = record instanceof ActionsDelivery ? record.actions.method : 'POST';
    this.#log(
      `${a.at} ${record.id} ${record.type} round ${a.round} ${method} ${redactUrl(url)} → ${answer} ${a.durationMs}ms ${a.outcome}${sig}`,
    );
  }
}
