/** Exit codes of the `hookgate` CLI. */
export const EXIT = Object.freeze({ ok: 0, failure: 1, usage: 2 });

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
