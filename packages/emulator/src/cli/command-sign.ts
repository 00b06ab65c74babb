import { sign } from '@hookgate/core';
import { parseCommandArgs, secretFlag } from './parse-command-args.js';
import { readStdin } from './read-input.js';
import { EXIT, UsageError } from './usage-error.js';

/** Usage of `hookgate sign`. */
export const SIGN_HELP = `Usage: hookgate sign --secret S < body.json

Prints the X-Signature of the body read from stdin: the lowercase hex HMAC-SHA1 of its exact bytes,
keyed with the shared secret. Every byte counts, a trailing newline included: the sender
signs JSON.stringify output, which never ends with one.

Options:
  --secret S    the shared secret (or set HOOKGATE_SECRET, which keeps it out of shell history)
  -h, --help    this help

Examples:
  printf '%s' "$(hookgate fixtures track --compact)" | hookgate sign --secret s3cret
  printf '%s' '{"type":"track"}' | HOOKGATE_SECRET=s3cret hookgate sign
`;

/**
 * `hookgate sign --secret S < body`: prints the signature of stdin's bytes.
 *
 * @example
 * process.exitCode = await runSign(['--secret', 's3cret']);
 */
export async function runSign(argv: string[]): Promise<number> {
  const { values } = parseCommandArgs('sign', argv, { secret: { type: 'string' } }, false);
  if (values.help) {
    process.stdout.write(SIGN_HELP);
    return EXIT.ok;
  }
  const secret = secretFlag(values.secret);
  if (secret === undefined) throw new UsageError('sign', '--secret is required (or set HOOKGATE_SECRET).');
  if (process.stdin.isTTY)
    throw new UsageError('sign', 'pipe the body into stdin, e.g. hookgate sign --secret S < body.json.');
  const body = await readStdin();
  if (body.length === 0) {
    process.stderr.write(
      'note: stdin was empty, so this is the signature of zero bytes; pipe the body in, e.g. hookgate sign --secret S < body.json.\n',
    );
  } else if (body[body.length - 1] === 0x0a) {
    process.stderr.write(
      "note: the body ends with a newline, which is signed too; the sender's bodies never end with one.\n",
    );
  }
  process.stdout.write(`${sign(body, secret)}\n`);
  return EXIT.ok;
}
