import { urlIssue } from '../sendable-fields.js';
import { formatConformanceReport } from '../conformance/format-report.js';
import { formatProgressLine } from '../conformance/progress-line.js';
import { CONFORMANCE_DEFAULTS, CONSECUTIVE_TIMEOUTS_TO_STOP, runConformance } from '../conformance/run-conformance.js';
import { ConformanceUnreachableError } from '../conformance/unreachable-error.js';
import { looksLikeClassicReceiver } from '../conformance/wrong-destination.js';
import { looksLikeWrongSecret } from '../conformance/wrong-secret.js';
import { redactUrl } from '../redact.js';
import { writeJsonLine } from './json-line.js';
import { headerFlags, intFlag, parseCommandArgs, secretFlag } from './parse-command-args.js';
import { wantsColor } from './terminal-style.js';
import { EXIT, UsageError } from './usage-error.js';

/** Usage of `hookgate conformance`. */
export const CONFORMANCE_HELP = `Usage: hookgate conformance URL --secret S [--destination classic|actions] [--json] [options]

Runs the receiver conformance suite against a webhook URL: real signed (and deliberately broken)
requests, a table of cases with the observed status and time. Exit code 1 when any MUST case fails;
2 when the receiver cannot be reached at all (refused, unknown host, TLS refused: one error, no case
run). On a terminal, a line of progress per case on stderr as it ends. No answer within --timeout-ms is a
timeout, reported as one; ${CONSECUTIVE_TIMEOUTS_TO_STOP} timeouts in a row stop the run (the rest is reported not run).
When every signed request gets 401 and every unsigned one is refused, the receiver uses another
secret: the first line says "every signed request got 401: check --secret" (wrongSecret in --json).

MUST    every message type signed correctly -> 2xx within 5 s; missing signature, wrong signature,
        wrong secret, tampered body -> 4xx and not counted as delivered; a duplicate delivery -> 2xx
SHOULD  malformed JSON -> 400; wrong content type -> 415; oversize body -> 413; bodies signed over
        bytes JSON.stringify would not reproduce (1.0, \\u00E9, \\/, integer-like keys) -> 2xx;
        answers well under 5 s

With --destination actions (a Webhooks (Actions) receiver), the cases are instead:
MUST    whole Segment events by PUT, PATCH and POST -> 2xx; a mapped payload -> 2xx; a wrong
        signature -> 4xx; a duplicate delivery -> 2xx; a batch signed over its first element only
        (as Segment signs it) -> 4xx
When both PUT and PATCH get 405, the receiver takes Webhooks (Classic) deliveries only: the first
line says so, with the fix (classicReceiver in --json).

Options:
  --secret S             the receiver's shared secret (or set HOOKGATE_SECRET)
  --destination D        classic (default) or actions (Webhooks (Actions))
  --json                 one JSON object per line: {"event":"case",...} per case, then {"event":"report",...}
                         with every case (no table, no progress, no colour)
  --progress             a progress line per case on stderr even when it is not a terminal
  --header 'K: V'        a static header sent with every request (repeatable)
  --timeout-ms N         wait this long for each answer (default ${CONFORMANCE_DEFAULTS.timeoutMs})
  --quick-ms N           "well under 5 s" means within this (default ${CONFORMANCE_DEFAULTS.quickMs})
  --oversize-bytes N     size of the oversize body (default ${CONFORMANCE_DEFAULTS.oversizeBytes})
  -h, --help             this help

Examples:
  hookgate conformance http://127.0.0.1:3000/webhooks --secret s3cret
  HOOKGATE_SECRET=s3cret hookgate conformance https://staging.example.com/hooks --json > report.json
`;

/**
 * `hookgate conformance URL --secret S [--json]`: runs the suite and prints a table (or JSON).
 *
 * @example
 * process.exitCode = await runConformanceCommand(['http://127.0.0.1:3000/webhooks', '--secret', 's3cret']);
 */
export async function runConformanceCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseCommandArgs(
    'conformance',
    argv,
    {
      secret: { type: 'string' },
      destination: { type: 'string' },
      json: { type: 'boolean' },
      progress: { type: 'boolean' },
      header: { type: 'string', multiple: true },
      'timeout-ms': { type: 'string' },
      'quick-ms': { type: 'string' },
      'oversize-bytes': { type: 'string' },
    },
    true,
  );
  if (values.help) {
    process.stdout.write(CONFORMANCE_HELP);
    return EXIT.ok;
  }
  if (positionals.length !== 1) {
    throw new UsageError(
      'conformance',
      positionals.length === 0
        ? 'give the receiver URL, e.g. http://127.0.0.1:3000/webhooks.'
        : `takes one URL (got ${positionals.join(' ')}).`,
    );
  }
  const url = positionals[0] as string;
  const issue = urlIssue(url);
  if (issue !== undefined) throw new UsageError('conformance', `URL ${issue}.`);
  if (!/^https?:\/\/./i.test(url))
    throw new UsageError('conformance', `URL must be a full http(s) URL (got ${JSON.stringify(redactUrl(url))}).`);
  const secret = secretFlag(values.secret);
  if (secret === undefined) throw new UsageError('conformance', '--secret is required (or set HOOKGATE_SECRET).');
  const destination = values.destination ?? 'classic';
  if (destination !== 'classic' && destination !== 'actions')
    throw new UsageError(
      'conformance',
      `--destination must be classic or actions (got ${JSON.stringify(destination)}).`,
    );
  const json = values.json === true;
  const progress = !json && (values.progress === true || process.stderr.isTTY === true);
  let report;
  try {
    report = await runConformance({
      url,
      secret,
      destination,
      headers: headerFlags('conformance', values.header),
      timeoutMs: intFlag('conformance', '--timeout-ms', values['timeout-ms'], 1, 600_000),
      quickMs: intFlag('conformance', '--quick-ms', values['quick-ms'], 1, 600_000),
      oversizeBytes: intFlag('conformance', '--oversize-bytes', values['oversize-bytes'], 1, 1024 * 1024 * 1024),
      onCase: (result, index, total) => {
        if (json) writeJsonLine(process.stdout, { event: 'case', index, total, ...result });
        else if (progress) process.stderr.write(`${formatProgressLine(result, index, total)}\n`);
      },
    });
  } catch (error) {
    if (!(error instanceof ConformanceUnreachableError)) throw error;
    if (json)
      writeJsonLine(process.stdout, {
        event: 'error',
        code: 'unreachable',
        url: error.url,
        cause: error.code ?? null,
        message: error.message,
      });
    process.stderr.write(`hookgate conformance: ${error.message}\n`);
    return EXIT.usage;
  }
  if (json)
    writeJsonLine(process.stdout, {
      event: 'report',
      ...report,
      wrongSecret: looksLikeWrongSecret(report),
      classicReceiver: looksLikeClassicReceiver(report),
    });
  else
    process.stdout.write(
      `${formatConformanceReport(report, { color: wantsColor(process.stdout), secretName: '--secret' })}\n`,
    );
  return report.ok ? EXIT.ok : EXIT.failure;
}
