import { stopRequested } from './stop-request.js';
import { escapeControls } from './escape-controls.js';
import { urlIssue } from '../sendable-fields.js';
import { redactUrl } from '../debug-log.js';
import type { InboundRecord } from '../listen/inbound-record.js';
import { SENDER_BUDGET_MS, startListener } from '../listen/listen-server.js';
import { SERVER_TIMEOUTS_HELP } from '../server-timeouts.js';
import { intFlag, parseCommandArgs, secretFlag } from './parse-command-args.js';
import { portInUse } from './port-in-use.js';
import { painter, statusStyle, wantsColor, type Style } from './terminal-style.js';
import { EXIT, UsageError } from './usage-error.js';

/** Usage of `hookgate listen`. */
export const LISTEN_HELP = `Usage: hookgate listen [--secret S] [--port N] [--forward-to URL] [options]

Receives webhooks from any sender (the real service through a tunnel you run, or another tool),
records each request, verifies its X-Signature over the exact bytes received and explains a
mismatch, forwards the exact bytes and headers to your local receiver, and shows its answer and
time (flagged past the sender's 5 s). Runs until Ctrl-C, then prints a summary.

With --forward-to, the sender gets your receiver's answer (502 if it is unreachable, 504 if it
does not answer within --forward-timeout-ms). Without it, listen answers 200 to a verified
request and 401 to any other. Without --secret (and HOOKGATE_SECRET), listen is a catch-all: it
records and forwards every request, says "not verified" for each, and answers 200 itself.

The web inspector at http://HOST:PORT/ shows every request live: its verdict (and why a forged
or re-encoded one was refused), headers, body and the receiver's answer. JSON views: GET
/_hookgate/inbound (newest first), /_hookgate/inbound/<id>, and the live stream
/_hookgate/inbound/events. They and the page answer only to a loopback Host (or --host's name)
and, when --ui-token is set, only with it. Requests are forwarded without their hop-by-hop headers
(Connection, Keep-Alive, TE, Upgrade, ... and any header Connection names).
${SERVER_TIMEOUTS_HELP}

Options:
  --secret S              the shared secret (repeatable for a rotation; or set HOOKGATE_SECRET);
                          without one, nothing is verified
  --port N                the port to listen on (default 9000; 0 picks a free one)
  --host H                the address to bind (default 127.0.0.1; any other needs --ui-token)
  --forward-to URL        your local receiver, e.g. http://127.0.0.1:3000/webhooks
  --forward-timeout-ms N  how long to wait for it (default 30000)
  --max-body-bytes N      answer 413 to larger bodies (default 1048576)
  --max-log-bytes N       memory for the requests kept for the views, measured as their JSON
                          (at most 64 KiB of each body is kept); past it the oldest are dropped
                          first (default 104857600, 100 MiB)
  --ui-token T            token for the inspector and views (or set HOOKGATE_UI_TOKEN); needed
                          off loopback
  --json                  one JSON object per line on stdout ({"kind":"listening","url":…} first,
                          {"kind":"request",…} per request, {"kind":"summary",…} at the end); the
                          banner goes to stderr
  -h, --help              this help

Example:
  hookgate listen --port 9000 --secret s3cret --forward-to http://127.0.0.1:3000/webhooks
`;

function line(record: InboundRecord, paint: (style: Style, text: string) => string): string {
  const time = record.receivedAt.slice(11, 23);
  const what = record.type
    ? escapeControls(`${record.type}${record.summary ? ` "${record.summary}"` : ''}`)
    : 'not a message';
  const verdict = record.verdict.ok
    ? paint('green', `✔ verified (secret #${record.verdict.secretIndex})`)
    : record.verdict.reason === 'not_verified'
      ? paint('yellow', 'not verified (no --secret)')
      : paint('red', `✘ ${record.verdict.reason}`);
  let out = `${time} ${record.id} ${escapeControls(record.method)} ${escapeControls(record.path)} ${what} ${record.bodyBytes} B ${verdict}`;
  const f = record.forward;
  if (f) {
    const answer =
      f.status !== undefined
        ? paint(statusStyle(f.status), String(f.status))
        : paint('red', escapeControls(f.error ?? 'no answer'));
    out += ` → receiver ${answer} in ${f.durationMs} ms`;
    if (f.slow)
      out += paint(
        'yellow',
        ` ⚠ past the sender's ${SENDER_BUDGET_MS / 1000} s: the real sender would time out and retry`,
      );
  } else {
    out += ` → answered ${record.answeredStatus}`;
  }
  if (!record.verdict.ok && record.verdict.reason !== 'not_verified') {
    out += `\n    ${escapeControls(record.verdict.message)}`;
    for (const finding of record.verdict.findings.slice(0, 3))
      out += `\n    ${escapeControls(`${finding.path} [${finding.cause}] ${finding.message}`)}`;
  }
  return out;
}

/**
 * `hookgate listen`: records, verifies and forwards every inbound webhook until SIGINT/SIGTERM.
 *
 * @example
 * process.exitCode = await runListen(['--port', '9000', '--secret', 's3cret', '--forward-to', 'http://127.0.0.1:3000/webhooks']);
 */
export async function runListen(argv: string[]): Promise<number> {
  const { values } = parseCommandArgs(
    'listen',
    argv,
    {
      secret: { type: 'string', multiple: true },
      port: { type: 'string' },
      host: { type: 'string' },
      'forward-to': { type: 'string' },
      'forward-timeout-ms': { type: 'string' },
      'max-body-bytes': { type: 'string' },
      'max-log-bytes': { type: 'string' },
      'ui-token': { type: 'string' },
      json: { type: 'boolean' },
    },
    false,
  );
  if (values.help) {
    process.stdout.write(LISTEN_HELP);
    return EXIT.ok;
  }
  const secrets = (values.secret ?? []).filter((s) => s !== '');
  const fromEnv = secretFlag(undefined);
  if (secrets.length === 0 && fromEnv !== undefined) secrets.push(fromEnv);
  const forwardTo = values['forward-to'];
  if (forwardTo !== undefined) {
    const issue = urlIssue(forwardTo);
    if (issue !== undefined) throw new UsageError('listen', `--forward-to ${issue}.`);
    let url: URL | undefined;
    try {
      url = new URL(forwardTo);
    } catch {
      url = undefined;
    }
    if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
      throw new UsageError(
        'listen',
        `--forward-to must be a full http(s) URL, e.g. http://127.0.0.1:3000/webhooks (got ${JSON.stringify(forwardTo)}).`,
      );
    }
  }
  const host = values.host ?? '127.0.0.1';
  const uiToken = values['ui-token'] ?? (process.env.HOOKGATE_UI_TOKEN || undefined);
  let listener;
  try {
    listener = await startListener({
      secret: secrets,
      forwardTo,
      port: intFlag('listen', '--port', values.port, 0, 65535) ?? 9000,
      host,
      uiToken,
      forwardTimeoutMs: intFlag('listen', '--forward-timeout-ms', values['forward-timeout-ms'], 1, 600_000),
      maxBodyBytes: intFlag('listen', '--max-body-bytes', values['max-body-bytes'], 1, 100 * 1024 * 1024),
      maxLogBytes: intFlag('listen', '--max-log-bytes', values['max-log-bytes'], 1, 1024 ** 4),
    });
  } catch (error) {
    if (error instanceof UsageError) throw error;
    if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE')
      throw portInUse('listen', intFlag('listen', '--port', values.port, 0, 65535) ?? 9000, host);
    throw new UsageError('listen', (error as Error).message.replace(/^listen: /, ''));
  }
  const json = values.json === true;
  const paint = painter(!json && wantsColor(process.stdout));
  const banner = process.stderr;
  banner.write(
    `hookgate listen on ${listener.url}/ (any path), ` +
      `${secrets.length === 0 ? 'no secret: nothing verified (catch-all)' : `${secrets.length} secret${secrets.length > 1 ? 's' : ''}`}, ` +
      `${forwardTo ? `forwarding to ${redactUrl(new URL(forwardTo))}` : secrets.length === 0 ? 'not forwarding (answers 200 to every request)' : 'not forwarding (answers 200 verified / 401 refused)'}\n` +
      `inspector  ${listener.inspectorUrl}${uiToken ? ' (open it once with ?token=YOUR_TOKEN)' : ''}\n` +
      `views: ${listener.url}/_hookgate/inbound — Ctrl-C to stop\n`,
  );
  // For a script: where it listens comes first on stdout (with --port 0 nothing else tells the port).
  if (json) {
    const listening = {
      kind: 'listening',
      url: listener.url,
      inspector: listener.inspectorUrl,
      views: `${listener.url}/_hookgate/inbound`,
      verifying: secrets.length > 0,
      forwardTo: forwardTo ? redactUrl(new URL(forwardTo)) : null,
    };
    process.stdout.write(`${JSON.stringify(listening)}\n`);
  }
  const counts = { requests: 0, verified: 0, refused: 0, notVerified: 0, forwarded: 0, slow: 0, unreachable: 0 };
  listener.log.subscribe((record) => {
    counts.requests++;
    if (record.verdict.ok) counts.verified++;
    else if (record.verdict.reason === 'not_verified') counts.notVerified++;
    else counts.refused++;
    if (record.forward?.status !== undefined) counts.forwarded++;
    else if (record.forward) counts.unreachable++;
    if (record.forward?.slow) counts.slow++;
    process.stdout.write(`${json ? JSON.stringify({ kind: 'request', ...record }) : line(record, paint)}\n`);
  });
  const signal = await stopRequested();
  await listener.close();
  const summary = { kind: 'summary', signal, ...counts };
  if (json) process.stdout.write(`${JSON.stringify(summary)}\n`);
  else {
    process.stdout.write(
      `\n${signal}: ${counts.requests} request${counts.requests === 1 ? '' : 's'}: ` +
        (secrets.length === 0
          ? `${counts.notVerified} not verified (no --secret)`
          : `${counts.verified} verified, ${counts.refused} refused`) +
        (forwardTo
          ? `; ${counts.forwarded} answered by the receiver, ${counts.unreachable} not answered, ${counts.slow} past 5 s`
          : '') +
        '\n',
    );
  }
  return EXIT.ok;
}
