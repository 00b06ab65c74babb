/**
 * Exit codes of the `hookgate` CLI, the same for every command: 0 success; 1 the receiver or the
 * check failed (a non-2xx answer, a timeout, a MUST failure); 2 a usage error or a target that
 * cannot be reached (nothing listens, the name does not resolve).
 */
export const EXIT = Object.freeze({ ok: 0, failure: 1, usage: 2, unreachable: 2 });

/**
 * A mistake in how a command was called (unknown flag, missing value, bad argument): printed with a
 * pointer to the command's `--help`, exit code 2.
 *
 * @example
 * throw new UsageError('send', '--to is required: the receiver URL to deliver to');
 */
export class UsageError extends Error {
  override readonly name = 'UsageError';
  constructor(
    readonly command: string,
    detail: string,
  ) {
    super(`hookgate ${command}: ${detail}\nRun "hookgate ${command} --help" for its usage.`);
  }
}
