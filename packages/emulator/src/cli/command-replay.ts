import { CSRF_HEADER } from '../inspector/request-guard.js';
import { parseCommandArgs } from './parse-command-args.js';
import { flagHint } from './serve-options.js';
import { EXIT, UsageError } from './usage-error.js';

/** Default address of the `hookgate serve` whose delivery is replayed. */
export const REPLAY_DEFAULT_URL = 'http://127.0.0.1:8080';

/** Usage of `hookgate replay`. */
export const REPLAY_HELP = `Usage: hookgate replay <delivery id> [--url http://127.0.0.1:PORT] [--json]

Asks a running "hookgate serve" to deliver a recorded message again (POST /_hookgate/deliveries/<id>/replay):
the same bytes, signed with the current secret, to the current endpoints, as a new delivery whose
replayOf is <id>. Prints the new delivery's id. Exit code 0 when replayed; 1 when the serve refuses
(no such delivery, a wrong --ui-token); 2 on a usage error or when no serve answers at --url.

Options:
  --url URL       the serve's intake (default ${REPLAY_DEFAULT_URL})
  --ui-token T    the inspector's token, when serve runs with one (or set HOOKGATE_UI_TOKEN)
  --json          print the server's JSON answer
  -h, --help      this help

Examples:
  hookgate replay dlv_42
  hookgate replay dlv_42 --url http://127.0.0.1:9000 --json
`;

/**
 * `hookgate replay <id>`: calls a running serve's replay endpoint and prints the new delivery's id.
 *
 * @example
 * process.exitCode = await runReplay(['dlv_3', '--url', 'http://127.0.0.1:8080']);
 */
export async function runReplay(argv: string[]): Promise<number> {
  const { values, positionals } = parseCommandArgs(
    'replay',
    argv,
    { url: { type: 'string' }, 'ui-token': { type: 'string' }, json: { type: 'boolean' } },
    true,
  );
  if (values.help) {
    process.stdout.write(REPLAY_HELP);
    return EXIT.ok;
  }
  if (positionals.length !== 1)
    throw new UsageError(
      'replay',
      positionals.length === 0
        ? 'give the delivery id to replay, e.g. dlv_42.'
        : `takes one id (got ${positionals.join(' ')}).`,
    );
  const id = positionals[0] as string;
  if (!/^dlv_\d+$/.test(id))
    throw new UsageError('replay', `a delivery id looks like dlv_42 (got ${JSON.stringify(id)}).`);
  let base: URL;
  try {
    base = new URL(values.url ?? REPLAY_DEFAULT_URL);
    if (base.protocol !== 'http:' && base.protocol !== 'https:') throw new Error('not http');
  } catch {
    throw new UsageError(
      'replay',
      `--url must be the serve's http URL, e.g. ${REPLAY_DEFAULT_URL} (got ${JSON.stringify(values.url)}).`,
    );
  }
  const token = values['ui-token'] || process.env.HOOKGATE_UI_TOKEN || undefined;
  const target = new URL(`/_hookgate/deliveries/${id}/replay`, base);
  let res: Response;
  try {
    res = await fetch(target, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        [CSRF_HEADER]: '1',
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      body: '{}',
      redirect: 'manual',
    });
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause?.code;
    process.stderr.write(
      `hookgate replay: no serve answers at ${base.origin} (${cause ?? (error as Error).message}); start one with "hookgate serve", or pass its --url.\n`,
    );
    return EXIT.unreachable;
  }
  const text = await res.text();
  let body: { record?: { id?: string }; error?: string } = {};
  try {
    body = JSON.parse(text) as typeof body;
  } catch {
    // not JSON: reported below
  }
  if (values.json) process.stdout.write(`${text}\n`);
  if (!res.ok || !body.record?.id) {
    if (!values.json)
      process.stderr.write(
        // The serve answers with the library's words (maxRecords, …): named here by the serve flags that set them.
        `hookgate replay: ${res.status} ${flagHint(body.error ?? (text.slice(0, 200) || 'no answer body'))}\n`,
      );
    return EXIT.failure;
  }
  if (!values.json) process.stdout.write(`${id} replayed as ${body.record.id}\n`);
  return EXIT.ok;
}
