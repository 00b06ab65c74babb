/**
 * A timer handle returned by `Clock.setTimer`; pass it to `clearTimer`.
 *
 * @example
 * const timer: ClockTimer = clock.setTimer(() => {}, 1000);
 * new Date(timer.dueAt).toISOString();
 */
export interface ClockTimer {
  /** Virtual or real epoch milliseconds at which the timer is due. */
  readonly dueAt: number;
}

/**
 * The time source of the emulator: timestamps of messages and attempts, request deadlines and
 * retry timers all come from it. `systemClock` (the default) is real time; a `ManualClock` is
 * virtual time that a test moves forward.
 *
 * @example
 * const clock: Clock = systemClock;
 * const t = clock.setTimer(() => console.log('due'), 1000);
 * clock.clearTimer(t);
 */
export interface Clock {
  /** Epoch milliseconds. */
  now(): number;
  /** Runs `fn(arg)` once, `delayMs` from now on this clock (`arg` saves a closure per timer). */
  setTimer<T = undefined>(fn: (arg: T) => void, delayMs: number, arg?: T): ClockTimer;
  /** Cancels a timer; does nothing for a timer that already ran. */
  clearTimer(timer: ClockTimer): void;
  /**
   * Marks the start of real I/O (an HTTP attempt) and returns the function that marks its end.
   * A manual clock waits for such work (up to its grace) before moving virtual time forward.
   */
  beginIo(): () => void;
}

interface SystemTimer extends ClockTimer {
  handle: ReturnType<typeof setTimeout>;
}

const noop = () => {};

/**
 * Real time: `Date.now()` and `setTimeout`. The emulator's default clock.
 *
 * @example
 * createEmulator({ sources, clock: systemClock }); // the same as leaving `clock` out
 */
export const systemClock: Clock = {
  now: () => Date.now(),
  setTimer<T>(fn: (arg: T) => void, delayMs: number, arg?: T) {
    const ms = Math.max(0, delayMs);
    // setTimeout caps at 2^31-1 ms (~24.8 days); longer waits re-arm.
    const timer: SystemTimer = { dueAt: Date.now() + ms, handle: setTimeout(fire, Math.min(ms, 2 ** 31 - 1)) };
    function fire() {
      const left = timer.dueAt - Date.now();
      if (left > 0) timer.handle = setTimeout(fire, Math.min(left, 2 ** 31 - 1));
      else fn(arg as T);
    }
    return timer;
  },
  clearTimer(timer) {
    clearTimeout((timer as SystemTimer).handle);
  },
  beginIo: () => noop,
};
