import { fixtures, MESSAGE_TYPES, type MessageType } from '@hookgate/core';
import { didYouMean } from './did-you-mean.js';
import { parseCommandArgs } from './parse-command-args.js';
import { EXIT, UsageError } from './usage-error.js';

/** Usage of `hookgate fixtures`. */
export const FIXTURES_HELP = `Usage: hookgate fixtures [type] [--compact]

Prints the fixture of one message type, or of every type (an object keyed by type), as JSON in the
shapes the Webhooks destination delivers.

Types: ${MESSAGE_TYPES.join(', ')}

Options:
  --compact     one line of JSON (as the sender serializes it) instead of indented
  -h, --help    this help

Examples:
  hookgate fixtures
  hookgate fixtures track --compact > track.json
`;

/**
 * `hookgate fixtures [type]`: prints fixtures as JSON.
 *
 * @example
 * process.exitCode = await runFixtures(['track']);
 */
export async function runFixtures(argv: string[]): Promise<number> {
  const { values, positionals } = parseCommandArgs('fixtures', argv, { compact: { type: 'boolean' } }, true);
  if (values.help) {
    process.stdout.write(FIXTURES_HELP);
    return EXIT.ok;
  }
  if (positionals.length > 1)
    throw new UsageError('fixtures', `takes at most one type (got ${positionals.join(' ')}).`);
  const type = positionals[0];
  if (type !== undefined && !(MESSAGE_TYPES as readonly string[]).includes(type)) {
    throw new UsageError(
      'fixtures',
      `unknown type ${JSON.stringify(type)}${didYouMean(type, MESSAGE_TYPES) || '.'} Types: ${MESSAGE_TYPES.join(', ')}.`,
    );
  }
  const value = type === undefined ? fixtures : fixtures[type as MessageType];
  process.stdout.write(`${values.compact ? JSON.stringify(value) : JSON.stringify(value, null, 2)}\n`);
  return EXIT.ok;
}
