import { headerNameIssue, headerValueIssue } from '../sendable-fields.js';
import { parseArgs } from 'node:util';
import { didYouMean } from './did-you-mean.js';
import { UsageError } from './usage-error.js';

/** One flag of a command: a string (repeatable with `multiple`) or a boolean. */
export interface FlagSpec {
  type: 'string' | 'boolean';
  multiple?: boolean;
  short?: string;
}

/** The parsed values of a command's flags, typed from their specs; `help` is always there. */
export type FlagValues<O extends Record<string, FlagSpec>> = {
  [K in keyof O]?: O[K] extends { type: 'boolean' } ? boolean : O[K] extends { multiple: true } ? string[] : string;
} & { help?: boolean };

/**
 * `node:util` parseArgs in strict mode, with its errors turned into `UsageError`s that name the flag
 * and point to the command's `--help`.
 *
 * @example
 * const { values, positionals } = parseCommandArgs('send', argv, { to: { type: 'string' } }, true);
 */
export function parseCommandArgs<O extends Record<string, FlagSpec>>(
  command: string,
  argv: string[],
  options: O,
  allowPositionals: boolean,
): { values: FlagValues<O>; positionals: string[] } {
  try {
    const parsed = parseArgs({
      args: argv,
      options: { ...options, help: { type: 'boolean', short: 'h' } },
      strict: true,
      allowPositionals,
    });
    return { values: parsed.values, positionals: parsed.positionals };
  } catch (error) {
    const e = error as Error & { code?: string };
    const flag = /'(-[^' ]+)/.exec(e.message)?.[1];
    switch (e.code) {
      case 'ERR_PARSE_ARGS_UNKNOWN_OPTION': {
        const near = flag?.startsWith('--')
          ? didYouMean(flag.slice(2).split('=')[0]!, [...Object.keys(options), 'help'], '--')
          : '';
        throw new UsageError(command, near ? `unknown option ${flag}${near}` : `unknown option ${flag ?? e.message}.`);
      }
      case 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE':
        if (!flag) throw new UsageError(command, e.message);
        if (/argument missing/.test(e.message)) throw new UsageError(command, `option ${flag} needs a value.`);
        if (/ambiguous/.test(e.message)) {
          throw new UsageError(
            command,
            `option ${flag} needs a value; to give one that starts with a dash, write ${flag}=<value>.`,
          );
        }
        throw new UsageError(command, `option ${flag} does not take a value.`);
      case 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL':
        throw new UsageError(
          command,
          `unexpected argument ${/'([^']*)'/.exec(e.message)?.[1] ?? ''}.`.replace(' .', '.'),
        );
      default:
        throw new UsageError(command, e.message);
    }
  }
}

/**
 * Reads a whole-number flag value, or throws a `UsageError` naming the flag.
 *
 * @example
 * const port = intFlag('serve', '--port', values.port, 0, 65535) ?? 8080;
 */
export function intFlag(
  command: string,
  flag: string,
  value: string | undefined,
  min: number,
  max: number,
): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > max) {
    throw new UsageError(
      command,
      `${flag} must be a whole number from ${min} to ${max} (got ${JSON.stringify(value)}).`,
    );
  }
  return Number(value);
}

/**
 * Parses repeated `--header 'Name: value'` flags into an object; throws a `UsageError` for a bad one.
 *
 * @example
 * headerFlags('serve', ['X-Env: dev']); // { 'X-Env': 'dev' }
 */
export function headerFlags(command: string, values: string[] | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const raw of values ?? []) {
    const colon = raw.indexOf(':');
    const name = colon === -1 ? '' : raw.slice(0, colon).trim();
    if (!name || headerNameIssue(name) !== undefined) {
      throw new UsageError(command, `--header must look like 'Name: value' (got ${JSON.stringify(raw)}).`);
    }
    const value = raw.slice(colon + 1).trim();
    const issue = headerValueIssue(value);
    if (issue !== undefined)
      throw new UsageError(command, `--header ${JSON.stringify(name)} cannot be sent: its value ${issue}.`);
    out[name] = value;
  }
  return out;
}

/**
 * The shared secret from `--secret`, else the `HOOKGATE_SECRET` environment variable (which keeps it
 * out of the shell history and the process list).
 *
 * @example
 * const secret = secretFlag(values.secret); // string | undefined
 */
export function secretFlag(value: string | undefined): string | undefined {
  if (value !== undefined && value !== '') return value;
  const env = process.env.HOOKGATE_SECRET;
  return env !== undefined && env !== '' ? env : undefined;
}
