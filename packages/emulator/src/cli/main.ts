import { runConformanceCommand, CONFORMANCE_HELP } from './command-conformance.js';
import { FIXTURES_HELP, runFixtures } from './command-fixtures.js';
import { LISTEN_HELP, runListen } from './command-listen.js';
import { REPLAY_HELP, runReplay } from './command-replay.js';
import { runSend, SEND_HELP } from './command-send.js';
import { runServe, SERVE_HELP } from './command-serve.js';
import { runSign, SIGN_HELP } from './command-sign.js';
import { runTypes, TYPES_HELP } from './command-types.js';
import { redactText } from '../redact.js';
import { packageVersion } from './package-version.js';
import { didYouMean } from './did-you-mean.js';
import { EXIT, UsageError } from './usage-error.js';

/** The commands of the `hookgate` CLI, each with its runner and usage. */
export const COMMANDS = {
  serve: {
    run: runServe,
    help: SERVE_HELP,
    summary: 'run the intake and deliver every call to your endpoints, with a live log',
  },
  send: { run: runSend, help: SEND_HELP, summary: 'deliver one signed message to a receiver and print its answer' },
  fixtures: { run: runFixtures, help: FIXTURES_HELP, summary: 'print the fixture of one message type, or of all' },
  sign: { run: runSign, help: SIGN_HELP, summary: 'print the X-Signature of the body on stdin' },
  replay: { run: runReplay, help: REPLAY_HELP, summary: 'deliver a recorded message again, through a running serve' },
  listen: {
    run: runListen,
    help: LISTEN_HELP,
    summary: 'receive webhooks from any sender: record, verify, explain, forward to your receiver',
  },
  conformance: {
    run: runConformanceCommand,
    help: CONFORMANCE_HELP,
    summary: "check a receiver against the sender's contract",
  },
  types: {
    run: runTypes,
    help: TYPES_HELP,
    summary: 'write a typed module from a Segment tracking plan, for typed receiver handlers',
  },
} as const;

/** Usage of `hookgate` itself. */
export const MAIN_HELP = `Usage: hookgate <command> [options]

The sender side of the Webhooks destination, on your machine.

Commands:
${Object.entries(COMMANDS)
  .map(([name, c]) => `  ${name.padEnd(12)} ${c.summary}`)
  .join('\n')}

Options:
  --version    print the version of @hookgate/emulator
  -h, --help   this help

Run "hookgate <command> --help" for a command's options. Exit codes, for every command: 0 success,
1 the receiver or the check failed (a non-2xx answer, a timeout, a MUST failure), 2 a usage error
or an unreachable target.
`;

/**
 * Runs the CLI over `argv` (without the node and script paths) and resolves with the exit code.
 * Usage errors are printed to stderr with exit code 2; every error is printed without credentials
 * (URL passwords and query values masked, the shared secret never).
 *
 * @example
 * process.exitCode = await main(process.argv.slice(2));
 */
export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  try {
    // `hookgate help send` is `hookgate send --help`.
    if (name === 'help' && rest[0] !== undefined && Object.hasOwn(COMMANDS, rest[0]))
      return await (COMMANDS as Record<string, (typeof COMMANDS)[keyof typeof COMMANDS]>)[rest[0]]!.run(['--help']);
    if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
      process.stdout.write(MAIN_HELP);
      return name === undefined ? EXIT.usage : EXIT.ok;
    }
    if (name === '--version' || name === '-v') {
      process.stdout.write(`${packageVersion()}\n`);
      return EXIT.ok;
    }
    const command = (COMMANDS as Record<string, (typeof COMMANDS)[keyof typeof COMMANDS]>)[name];
    if (!command) {
      const problem = name.startsWith('-')
        ? `unknown option ${name}${didYouMean(name.replace(/^-+/, ''), ['version', 'help'], '--')}`
        : `unknown command ${JSON.stringify(name)}${didYouMean(name, Object.keys(COMMANDS))}`;
      process.stderr.write(
        `hookgate: ${problem}${problem.endsWith('?') ? '' : '.'} Commands: ${Object.keys(COMMANDS).join(', ')}.\nRun "hookgate --help" for the usage.\n`,
      );
      return EXIT.usage;
    }
    return await command.run(rest);
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`${redactText(error.message, [process.env.HOOKGATE_SECRET])}\n`);
      return EXIT.usage;
    }
    process.stderr.write(
      `hookgate ${name}: ${redactText(error instanceof Error ? error.message : String(error), [process.env.HOOKGATE_SECRET])}\n`,
    );
    return EXIT.failure;
  }
}
