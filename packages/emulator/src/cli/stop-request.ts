// What ends a long-running command (`serve`, `listen`): a signal, or its output going away (the
// reader of a pipe gone, as with `hookgate serve --json | head -1`). A closed stdout is not a crash:
// the command stops as on SIGTERM, writes nothing more, and exits with its usual code.

/** What asked the command to stop. */
export type StopRequest = 'SIGINT' | 'SIGTERM' | 'stdout closed';

let stdoutClosed = false;
const closedWaiters: Array<() => void> = [];

/**
 * Makes a closed stdout (EPIPE) a request to stop instead of an uncaught error. Called once by the bin.
 *
 * @example
 * watchStdout();
 */
export function watchStdout(): void {
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (stdoutClosed) return; // later writes fail too: nobody reads them
    if (error.code !== 'EPIPE') throw error;
    stdoutClosed = true;
    for (const wake of closedWaiters.splice(0)) wake();
  });
}

/**
 * Resolves with the first of SIGINT, SIGTERM or a closed stdout.
 *
 * @example
 * const why = await stopRequested(); // 'SIGTERM'
 */
export function stopRequested(): Promise<StopRequest> {
  return new Promise((resolve) => {
    if (stdoutClosed) return resolve('stdout closed');
    process.once('SIGINT', () => resolve('SIGINT'));
    process.once('SIGTERM', () => resolve('SIGTERM'));
    closedWaiters.push(() => resolve('stdout closed'));
  });
}
