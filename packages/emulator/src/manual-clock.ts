import { performance } from 'node:perf_hooks';
import type { Clock, ClockTimer } from './clock.js';
import { SettingsError } from './errors.js';
import { InOrderList, type ListLinks } from './in-order-list.js';

/**
 * Options of `new ManualClock()`.
 *
 * @example
 * const clock = new ManualClock({ start: '2026-01-01T00:00:00.000Z', ioGraceMs: 50 });
 */
export interface ManualClockOptions {
  /** Where virtual time starts: a Date, epoch ms or an ISO string. Default: the real time at construction. */
  start?: Date | number | string;
  /**
   * Real milliseconds of quiet after which an in-flight HTTP attempt is presumed hanging, so virtual
   * time may pass its deadline: the attempt is at least this old, no other attempt ended and the
   * event loop was not held up during the last `ioGraceMs`. Default 200. Lower it to make tests with
   * never-answering receivers quicker; raise it if a slow receiver shows spurious timeouts.
   */
  ioGraceMs?: number;
  /** Upper bound on timers one `runAll()` fires, to stop a runaway schedule. Default 10,000,000. */
  maxSteps?: number;
}

interface ManualTimer extends ClockTimer {
  readonly seq: number;
  readonly fn: (arg: unknown) => void;
  readonly arg: unknown;
  /** Cancelled, or already run. */
  cancelled: boolean;
  fired: boolean;
}

/** Real I/O in flight, linked in the clock's list of fresh holds. */
class IoHold implements ListLinks<IoHold> {
  readonly startedAt = performance.now();
  prev: IoHold | undefined = undefined;
  next: IoHold | undefined = undefined;
  listed = false;
}

const earlier = (a: ManualTimer, b: ManualTimer) => a.dueAt < b.dueAt || (a.dueAt === b.dueAt && a.seq < b.seq);

/**
 * Virtual time for tests: nothing happens until you move it. `advance(ms)` and `runAll()` fire due
 * timers in order; between timers they wait for in-flight HTTP attempts to answer (an attempt that
 * stays silent while nothing else happens for `ioGraceMs` of real time is presumed hanging), so a
 * test runs the whole 4 h retry schedule in milliseconds while receivers still answer "on time" and
 * a never-answering one times out at its virtual deadline.
 *
 * @example
 * const clock = new ManualClock({ start: '2026-01-01T00:00:00.000Z' });
 * const emulator = createEmulator({ sources, clock });
 * emulator.track({ userId: 'u1', event: 'Signed Up' });
 * await clock.advance(60_000); // one virtual minute: retries due in it have run
 * await clock.runAll();        // everything, up to the end of the 4 h window
 */
export class ManualClock implements Clock {
  #now: number;
  #seq = 0;
  #live = 0;
  #cancelled = 0;
  readonly #heap: ManualTimer[] = [];
  /** In-flight I/O not yet presumed hanging, in start order. */
  readonly #fresh = new InOrderList<IoHold>();
  #staleCheck: ReturnType<typeof setTimeout> | undefined;
  #staleCheckDue = 0;
  #lastIoEnd = Number.NEGATIVE_INFINITY;
  /** When a stale check last found the event loop busy. */
  #busyAt = Number.NEGATIVE_INFINITY;
  #eluMark = performance.eventLoopUtilization();
  /** I/O begun and not ended, hanging or not. */
  #openIo = 0;
  #waiters: Array<() => void> = [];
  readonly #graceMs: number;
  readonly #maxSteps: number;

  constructor(options: ManualClockOptions = {}) {
    const start = options.start ?? Date.now();
    const ms = start instanceof Date ? start.getTime() : typeof start === 'string' ? Date.parse(start) : start;
    if (!Number.isFinite(ms))
      throw new SettingsError('ManualClock.start', `must be a Date, epoch ms or ISO string (got ${String(start)})`);
    this.#now = ms;
    this.#graceMs = options.ioGraceMs ?? 200;
    if (!(this.#graceMs >= 0))
      throw new SettingsError('ManualClock.ioGraceMs', 'must be a number ≥ 0 (real milliseconds)');
    this.#maxSteps = options.maxSteps ?? 10_000_000;
  }

  /** Virtual epoch milliseconds. @example new Date(clock.now()).toISOString() */
  now(): number {
    return this.#now;
  }

  /** Schedules `fn(arg)` at now + delayMs of virtual time. @example clock.setTimer(() => {}, 1000) */
  setTimer<T = undefined>(fn: (arg: T) => void, delayMs: number, arg?: T): ClockTimer {
    const timer: ManualTimer = {
      dueAt: this.#now + Math.max(0, delayMs || 0),
      seq: this.#seq++,
      fn: fn as (arg: unknown) => void,
      arg,
      cancelled: false,
      fired: false,
    };
    this.#push(timer);
    this.#live++;
    return timer;
  }

  /** Cancels a timer. @example clock.clearTimer(t) */
  clearTimer(timer: ClockTimer): void {
    const t = timer as ManualTimer;
    if (t.cancelled || t.fired || typeof t.seq !== 'number') return;
    t.cancelled = true;
    this.#live--;
    this.#cancelled++;
    if (this.#cancelled > 1024 && this.#cancelled > this.#live) this.#compact();
  }

  /**
   * Marks real I/O in flight (used by the delivery engine) and returns its end marker. The I/O holds
   * virtual time back until it ends, or until it is `ioGraceMs` old while no other I/O ended for
   * `ioGraceMs` (then it is presumed hanging, and its deadline may pass).
   *
   * @example
   * const done = clock.beginIo();
   * socket.once('close', done);
   */
  beginIo(): () => void {
    const hold = new IoHold();
    this.#fresh.push(hold);
    this.#openIo++;
    if (this.#staleCheck === undefined) {
      this.#eluMark = performance.eventLoopUtilization();
      this.#armStaleCheck(this.#graceMs);
    }
    let done = false;
    return () => {
      if (done) return;
      done = true;
      this.#openIo--;
      this.#lastIoEnd = performance.now();
      if (this.#fresh.delete(hold) && this.#fresh.size === 0 && this.#staleCheck !== undefined) {
        clearTimeout(this.#staleCheck);
        this.#staleCheck = undefined;
      }
      this.#notify();
    };
  }

  #armStaleCheck(ms: number): void {
    const wait = Math.max(1, ms);
    this.#staleCheckDue = performance.now() + wait;
    this.#staleCheck = setTimeout(() => {
      this.#staleCheck = undefined;
      this.#expireStale();
    }, wait);
  }

  /**
   * Marks as hanging the in-flight I/O that is `ioGraceMs` old while the process was quiet for
   * `ioGraceMs`: no other I/O ended, and the event loop was free (a check that runs late means the
   * loop was busy — with this process's own work or a GC pause — which is not quiet either). I/O older
   * than `20 × ioGraceMs` (at least 5 s) counts as hanging even in a process that is never quiet.
   */
  #expireStale(): void {
    const now = performance.now();
    // Busy, not quiet: the check ran late, or this process spent much of the interval working (a
    // receiver in this process still handling requests, a GC pause, our own callbacks).
    const elu = performance.eventLoopUtilization(this.#eluMark);
    this.#eluMark = performance.eventLoopUtilization();
    if (now - this.#staleCheckDue > this.#graceMs || elu.utilization > 0.5) this.#busyAt = now;
    const quiet = now - Math.max(this.#lastIoEnd, this.#busyAt);
    const threshold = quiet >= this.#graceMs ? this.#graceMs : Math.max(20 * this.#graceMs, 5000);
    let expired = false;
    let next = quiet >= this.#graceMs ? this.#graceMs : this.#graceMs - quiet;
    for (let hold = this.#fresh.first; hold !== undefined; hold = this.#fresh.first) {
      const age = now - hold.startedAt;
      if (age < threshold) {
        next = Math.min(next, threshold - age);
        break;
      }
      this.#fresh.delete(hold);
      expired = true;
    }
    if (this.#fresh.size > 0) this.#armStaleCheck(next);
    if (expired) this.#notify();
  }

  /** Timers not yet run nor cancelled. @example expect(clock.pendingTimers).toBe(0) */
  get pendingTimers(): number {
    return this.#live;
  }

  /** Virtual time of the next timer, or `undefined` when none is pending. @example clock.nextTimerAt */
  get nextTimerAt(): number | undefined {
    return this.#peek()?.dueAt;
  }

  /**
   * Resolves once every in-flight HTTP attempt has answered or is presumed hanging.
   *
   * @example
   * emulator.track({ userId: 'u1', event: 'E' });
   * await clock.settle(); // the first attempt has been answered (or is hanging)
   */
  async settle(): Promise<void> {
    while (this.#fresh.size > 0) await new Promise<void>((resolve) => this.#waiters.push(resolve));
  }

  /**
   * Moves virtual time forward by `ms`, running every timer due on the way at its own time.
   *
   * @example
   * await clock.advance(5_000); // past a hanging attempt's 5 s deadline
   */
  async advance(ms: number): Promise<void> {
    if (!(ms >= 0)) throw new RangeError(`ManualClock.advance(ms): ms must be a number ≥ 0 (got ${ms})`);
    await this.#run(this.#now + ms, undefined);
  }

  /**
   * Moves virtual time to an instant (not backwards), running the timers due on the way.
   *
   * @example
   * await clock.advanceTo('2026-01-01T04:00:00.000Z');
   */
  async advanceTo(time: Date | number | string): Promise<void> {
    const ms = time instanceof Date ? time.getTime() : typeof time === 'string' ? Date.parse(time) : time;
    if (!Number.isFinite(ms)) throw new RangeError(`ManualClock.advanceTo(time): not a time: ${String(time)}`);
    await this.#run(Math.max(ms, this.#now), undefined);
  }

  /**
   * Runs every timer, including the ones that running timers schedule, until none is left.
   *
   * @example
   * emulator.track({ userId: 'u1', event: 'E' }); // the receiver answers 500 every time
   * await clock.runAll(); // the whole 4 h schedule; the record is now failed
   */
  async runAll(): Promise<void> {
    await this.#run(Number.POSITIVE_INFINITY, undefined);
  }

  /**
   * Runs timers in order until `done()` is true or none is left; resolves with `done()`.
   *
   * @example
   * await clock.runUntil(() => emulator.deliveries.every((r) => r.state !== 'pending'));
   */
  async runUntil(done: () => boolean): Promise<boolean> {
    await this.#run(Number.POSITIVE_INFINITY, done);
    return done();
  }

  async #run(target: number, done: (() => boolean) | undefined): Promise<void> {
    let steps = 0;
    let lastYield = performance.now();
    await this.settle();
    while (!done?.()) {
      const next = this.#peek();
      if (!next || next.dueAt > target) break;
      this.#pop();
      this.#live--;
      next.fired = true;
      if (next.dueAt > this.#now) this.#now = next.dueAt;
      next.fn(next.arg);
      // With requests out (even presumed hanging ones), let their I/O run before the next timer.
      if (this.#openIo > 0) await new Promise<void>((resolve) => setImmediate(resolve));
      await this.settle();
      if (++steps > this.#maxSteps) {
        throw new Error(
          `ManualClock: more than ${this.#maxSteps} timers in one run; a schedule keeps re-arming (raise maxSteps if this is expected)`,
        );
      }
      // Let real I/O of stale attempts progress now and then, even when nothing is fresh.
      if (performance.now() - lastYield > 10) {
        await new Promise<void>((resolve) => setImmediate(resolve));
        await this.settle();
        lastYield = performance.now();
      }
    }
    if (Number.isFinite(target) && !done?.() && this.#now < target) this.#now = target;
  }

  #notify(): void {
    if (this.#waiters.length === 0) return;
    const waiters = this.#waiters;
    this.#waiters = [];
    for (const w of waiters) w();
  }

  #peek(): ManualTimer | undefined {
    const heap = this.#heap;
    while (heap.length > 0 && (heap[0] as ManualTimer).cancelled) {
      this.#pop();
      this.#cancelled--;
    }
    return heap[0];
  }

  #push(t: ManualTimer): void {
    const heap = this.#heap;
    heap.push(t);
    let i = heap.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!earlier(t, heap[parent] as ManualTimer)) break;
      heap[i] = heap[parent] as ManualTimer;
      i = parent;
    }
    heap[i] = t;
  }

  #pop(): ManualTimer | undefined {
    const heap = this.#heap;
    const top = heap[0];
    const last = heap.pop();
    if (heap.length === 0 || last === undefined) return top;
    let i = 0;
    const n = heap.length;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= n) break;
      const r = l + 1;
      const child = r < n && earlier(heap[r] as ManualTimer, heap[l] as ManualTimer) ? r : l;
      if (!earlier(heap[child] as ManualTimer, last)) break;
      heap[i] = heap[child] as ManualTimer;
      i = child;
    }
    heap[i] = last;
    return top;
  }

  #compact(): void {
    const live = this.#heap.filter((t) => !t.cancelled);
    this.#heap.length = 0;
    this.#cancelled = 0;
    for (const t of live) this.#push(t);
  }
}
