import { stopRequested } from './stop-request.js';
import { escapeControls } from './escape-controls.js';
import { isBatchStandIn } from '../actions/batch-stand-in.js';
import { createEmulator } from '../emulator.js';
import { readActionsFile } from './actions-file.js';
import { listenIntake } from '../intake/listen-intake.js';
import { redactText, redactUrl } from '../redact.js';
import { writeJsonLine } from './json-line.js';
import { assertInspectorExposure } from '../inspector/inspector-options.js';
import { normalizeOrigin } from '../intake/origin-policy.js';
import { SERVER_TIMEOUTS_HELP } from '../server-timeouts.js';
import { headerFlags, intFlag, parseCommandArgs, secretFlag } from './parse-command-args.js';
import { portInUse } from './port-in-use.js';
import { SERVE_OPTION_FLAGS, SERVE_OPTION_HELP, flagHint, serveOptionsFromFlags } from './serve-options.js';
import {
  deliveredProtocols,
  BLOCKED_SOURCE_NAME,
  TRACKING_PLAN_FLAGS,
  TRACKING_PLAN_HELP,
  trackingPlanFromFlags,
} from './tracking-plan-flags.js';
import {
  attemptJson,
  cancelledJson,
  clockTime,
  formatAttemptLine,
  formatCancelledLine,
  formatCloseReport,
  formatFilteredLine,
  formatSummary,
  shown,
  summaryJson,
} from './serve-summary.js';
import { painter, wantsColor } from './terminal-style.js';
import { EXIT, UsageError } from './usage-error.js';

/** Defaults of `hookgate serve`. */
export const SERVE_DEFAULTS = Object.freeze({ port: 8080, host: '127.0.0.1', writeKey: 'hookgate-dev', drainMs: 3000 });

/** Usage of `hookgate serve`. */
export const SERVE_HELP = `Usage: hookgate serve --endpoint URL [--endpoint URL...] [--actions FILE.json] [options]

Runs the intake (the tracking HTTP API: POST /v1/identify|track|page|screen|group|alias|batch|import)
and the delivery engine: every call accepted is delivered to the endpoints as the Webhooks destination
does (signed, 5 s deadline, retries of 5xx for up to 4 h). One log line per attempt, printed when it
ends and showing the time it ended (so times never go backwards) and the delivery id (what
"hookgate replay" takes); one per message filtered, per retry cancelled and per delivery failed. Once
an endpoint accepts a message, the others are not retried: a failure there says "not retried:
endpoint 1 accepted", or a "retry cancelled" line follows its "will retry". On
Ctrl-C it stops taking calls, lets deliveries in flight finish (up to --drain-ms), lists what was
still pending (now recorded failed), then prints a summary per endpoint that agrees with that list.
Endpoint passwords and query values are shown as *** everywhere (the requests use the real URL).

Options:
  --endpoint URL     a webhook URL to deliver to (repeatable, 1 to 5)
  --secret S         sign every request with this shared secret (or set HOOKGATE_SECRET); unsigned without
  --header 'K: V'    a static header sent to every endpoint (repeatable, up to 5)
  --actions FILE     also (or only) send as Webhooks (Actions): FILE is a JSON list of up to 5
                     subscriptions as Segment exports them ({ subscribe, partnerAction: "send", mapping }),
                     or { subscriptions, sharedSecret?, batchWindowMs? }; --secret signs them unless FILE sets one
  --port N           the intake's port (default ${SERVE_DEFAULTS.port}; 0 picks a free one)
  --host H           the interface to bind (default ${SERVE_DEFAULTS.host}; 0.0.0.0 exposes it to the network)
  --write-key K      the write key clients must send (default ${SERVE_DEFAULTS.writeKey}, as in the client's README)
  --timeout-ms N     how long each endpoint has to answer (default 5000, the sender's budget)
  --drain-ms N       at exit, how long to wait for deliveries in flight (default ${SERVE_DEFAULTS.drainMs})
  --json             one JSON object per line on stdout: listening, attempt (outcome delivered,
                     retry, fail or not-retried with notRetriedBecause: "endpoint 1 accepted"),
                     filtered (a resent messageId has duplicateOf; an Actions event waiting in its
                     batch, batched: true), cancelled (with notRetriedBecause), gave_up (a delivery
                     failed for good),
                     stopping, closed, and a final summary; no banner, no colour
  --ui-token T       the web inspector's token (or set HOOKGATE_UI_TOKEN); required with a non-loopback --host
  --allow-origin O   let web pages from origin O (e.g. https://app.example.com) call the tracking API
                     (repeatable); pages on loopback origins (http://localhost:3000) always may, others get 403
  -h, --help         this help

${SERVE_OPTION_HELP}
${TRACKING_PLAN_HELP}
Security: /_hookgate/* and the inspector answer only to a loopback Host (or --host's name) and, beyond
loopback, only with the --ui-token. The write key is shown once, in the start-up banner; views and
log lines mask it. Web pages may call the tracking API only from loopback origins or --allow-origin.
${SERVER_TIMEOUTS_HELP}

Examples:
  hookgate serve --endpoint http://127.0.0.1:3000/webhooks --secret s3cret
  curl -u hookgate-dev: -H 'content-type: application/json' \\
    -d '{"userId":"u1","event":"Signed Up"}' http://127.0.0.1:8080/v1/track
`;

/**
 * `hookgate serve`: intake + delivery with a live log, until SIGINT/SIGTERM; then the close report
 * and a summary, exit 0.
 *
 * @example
 * process.exitCode = await runServe(['--endpoint', 'http://127.0.0.1:3000/webhooks', '--secret', 's3cret']);
 */
export async function runServe(argv: string[]): Promise<number> {
  const { values } = parseCommandArgs(
    'serve',
    argv,
    {
      endpoint: { type: 'string', multiple: true },
      actions: { type: 'string' },
      secret: { type: 'string' },
      header: { type: 'string', multiple: true },
      port: { type: 'string' },
      host: { type: 'string' },
      'write-key': { type: 'string' },
      'timeout-ms': { type: 'string' },
      'drain-ms': { type: 'string' },
      json: { type: 'boolean' },
      ...SERVE_OPTION_FLAGS,
      ...TRACKING_PLAN_FLAGS,
      'ui-token': { type: 'string' },
      'allow-origin': { type: 'string', multiple: true },
    },
    false,
  );
  if (values.help) {
    process.stdout.write(SERVE_HELP);
    return EXIT.ok;
  }
  // A bad value given is named before a flag left out: the user fixes what they typed first.
  const port = intFlag('serve', '--port', values.port, 0, 65535) ?? SERVE_DEFAULTS.port;
  const endpoints = values.endpoint ?? [];
  if (endpoints.length === 0 && values.actions === undefined)
    throw new UsageError(
      'serve',
      '--endpoint is required: the webhook URL to deliver to (repeat it for up to 5), or --actions FILE.json for Webhooks (Actions) subscriptions.',
    );
  if (endpoints.length > 5)
    throw new UsageError(
      'serve',
      `at most 5 --endpoint (a source's Webhooks destination has up to 5 endpoints); got ${endpoints.length}.`,
    );
  for (const url of endpoints) {
    if (!/^https?:\/\/./i.test(url))
      throw new UsageError('serve', `--endpoint must be a full http(s) URL (got ${JSON.stringify(redactUrl(url))}).`);
  }
  const headers = headerFlags('serve', values.header);
  if (Object.keys(headers).length > 5)
    throw new UsageError(
      'serve',
      `at most 5 --header (an endpoint has up to 5 static headers); got ${Object.keys(headers).length}.`,
    );
  const host = values.host ?? SERVE_DEFAULTS.host;
  const writeKey = values['write-key'] ?? SERVE_DEFAULTS.writeKey;
  if (writeKey.length === 0) throw new UsageError('serve', '--write-key must not be empty.');
  const timeoutMs = intFlag('serve', '--timeout-ms', values['timeout-ms'], 1, 600_000);
  const drainMs = intFlag('serve', '--drain-ms', values['drain-ms'], 0, 600_000) ?? SERVE_DEFAULTS.drainMs;
  const secret = secretFlag(values.secret);
  const options = serveOptionsFromFlags(values);
  const webhooksActions = values.actions === undefined ? undefined : readActionsFile(values.actions, secret);
  const json = values.json === true;
  const { blockedTo, ...protocols } = trackingPlanFromFlags(values);
  const uiToken = values['ui-token'] || process.env.HOOKGATE_UI_TOKEN || undefined;
  try {
    assertInspectorExposure(host, { token: uiToken });
  } catch (error) {
    throw new UsageError('serve', shown((error as Error).message));
  }
  const allowOrigins = (values['allow-origin'] ?? []).map((origin) => {
    try {
      return normalizeOrigin(origin, '--allow-origin');
    } catch (error) {
      throw new UsageError('serve', (error as Error).message);
    }
  });

  let emulator: ReturnType<typeof createEmulator>;
  try {
    emulator = createEmulator({
      sources: [
        {
          writeKey,
          name: 'hookgate serve',
          ...(endpoints.length > 0
            ? {
                webhooks: {
                  enabled: true,
                  endpoints: endpoints.map((url) => (Object.keys(headers).length > 0 ? { url, headers } : { url })),
                  ...(secret !== undefined ? { sharedSecret: secret } : {}),
                },
              }
            : {}),
          ...(webhooksActions !== undefined ? { webhooksActions } : {}),
          ...protocols,
        },
        // Segment's "forward blocked events to a source": a source of its own, delivering to one URL.
        ...(blockedTo !== undefined
          ? [
              {
                writeKey: blockedTo.writeKey,
                name: BLOCKED_SOURCE_NAME,
                webhooks: {
                  enabled: true,
                  endpoints: [
                    Object.keys(headers).length > 0 ? { url: blockedTo.url, headers } : { url: blockedTo.url },
                  ],
                  ...(secret !== undefined ? { sharedSecret: secret } : {}),
                },
              },
            ]
          : []),
      ],
      ...(timeoutMs !== undefined ? { timeoutMs } : {}),
      ...options,
    });
  } catch (error) {
    const message = (error as Error).message
      .replace(/sources\[0\]\.webhooksActions\./g, `--actions ${values.actions ?? 'file'}: `)
      .replace(/sources\[0\]\.trackingPlan\.?/g, `--tracking-plan ${values['tracking-plan'] ?? 'file'} `);
    throw new UsageError('serve', shown(redactText(message, [secret, webhooksActions?.sharedSecret])));
  }
  let intake;
  try {
    intake = await listenIntake(emulator, {
      port,
      host,
      inspector: { token: uiToken, reasonWording: flagHint },
      allowOrigins,
    });
  } catch (error) {
    await emulator.close();
    const e = error as NodeJS.ErrnoException;
    if (e.code === 'EADDRINUSE') throw portInUse('serve', port, host);
    throw error;
  }

  const shownEndpoints = endpoints.map((url) => redactUrl(url));
  const color = !json && wantsColor(process.stdout);
  const paint = painter(color);
  const out = (line: string) => process.stdout.write(`${line}\n`);
  // Lines are written when things happen, with the time they happened: an attempt's line when it ends.
  emulator.on('attempt', (attempt, record) => {
    const now = Date.now();
    if (json) {
      const protocols = deliveredProtocols(record);
      writeJsonLine(process.stdout, {
        ...attemptJson(attempt, record, now),
        ...(protocols !== undefined && { protocols }),
      });
    } else out(formatAttemptLine(attempt, record, color, now));
  });
  // Another endpoint accepted the message: this endpoint's retry (queued, or promised by its "will retry" line) will not start.
  emulator.on('cancelled', (cancelled, record) => {
    const now = Date.now();
    if (json) writeJsonLine(process.stdout, cancelledJson(cancelled, record, now));
    else out(formatCancelledLine(cancelled, record, color, now));
  });
  // A delivery gave up while running (not the records closed at exit: the close report lists those).
  let closing = false;
  emulator.on('failed', (record) => {
    if (closing) return;
    const now = Date.now();
    const reason = shown(record.reason ?? 'no reason recorded');
    if (json)
      writeJsonLine(process.stdout, {
        event: 'gave_up',
        at: new Date(now).toISOString(),
        recordId: record.id,
        type: record.type,
        attempts: record.attempts.length,
        reason,
      });
    else
      out(
        [
          paint('dim', clockTime(now)),
          record.id,
          record.type.padEnd(8),
          paint('red', 'failed'),
          escapeControls(reason),
        ].join('  '),
      );
  });
  emulator.on('filtered', (record) => {
    const now = Date.now();
    if (json) {
      const line: Record<string, unknown> = {
        event: 'filtered',
        at: new Date(now).toISOString(),
        recordId: record.id,
        type: record.type,
        reason: shown(record.reason ?? ''),
      };
      if (record.duplicateOf !== undefined) line.duplicateOf = record.duplicateOf;
      // A Webhooks (Actions) event waiting in an open batch: not dropped, sent with the batch.
      if (isBatchStandIn(record)) line.batched = true;
      writeJsonLine(process.stdout, line);
    } else out(formatFilteredLine(record, color, now));
  });
  if (json) {
    writeJsonLine(process.stdout, {
      event: 'listening',
      url: intake.url,
      writeKey,
      endpoints: shownEndpoints,
      ...(blockedTo !== undefined ? { forwardBlockedTo: redactUrl(blockedTo.url) } : {}),
      ...(webhooksActions ? { actionsSubscriptions: webhooksActions.subscriptions.length } : {}),
      signed: secret !== undefined,
      deliveries: `${intake.url}/_hookgate/deliveries`,
      inspector: `${intake.url}/`,
    });
  } else {
    out(
      [
        `${paint('bold', 'hookgate')} intake listening on ${paint('cyan', intake.url)}`,
        `  write key   ${writeKey}   (Basic auth user name, or "writeKey" in the JSON body; the only key accepted)`,
        `  endpoints   ${escapeControls(shownEndpoints.join(', ')) || 'none (Webhooks (Actions) only)'}`,
        ...(blockedTo !== undefined ? [`  blocked     forwarded to ${escapeControls(redactUrl(blockedTo.url))}`] : []),
        ...(webhooksActions !== undefined
          ? [
              `  actions     ${webhooksActions.subscriptions.length} subscription(s) from ${escapeControls(values.actions ?? '')}: ${escapeControls(webhooksActions.subscriptions.map((s, i) => `${i + 1}. ${s.subscribe}`).join('; '))}`,
            ]
          : []),
        `  signing     ${secret === undefined ? 'off (no --secret): requests carry no X-Signature' : 'on (X-Signature, HMAC-SHA1)'}`,
        `  inspector   ${intake.url}/${uiToken ? '?token=…  (the token you gave)' : ''}`,
        `  inspect     ${intake.url}/_hookgate/deliveries`,
        'Press Ctrl-C to stop.',
        '',
      ].join('\n'),
    );
  }

  const signal = await stopRequested();
  const force = () => {
    process.stderr.write('Second signal: exiting without waiting.\n');
    process.exit(130);
  };
  process.once('SIGINT', force);
  process.once('SIGTERM', force);
  const inFlight = emulator.deliveries.filter((r) => r.state === 'pending').length;
  if (json) writeJsonLine(process.stdout, { event: 'stopping', signal, pending: inFlight, drainMs });
  else
    out(
      `\n${signal}: no more calls taken; ${inFlight > 0 ? `waiting up to ${drainMs} ms for ${inFlight} pending deliver${inFlight === 1 ? 'y' : 'ies'}` : 'nothing pending'}.`,
    );
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, drainMs);
  });
  await Promise.race([intake.close().then(() => emulator.drain()), deadline]);
  clearTimeout(timer);
  // The close report comes first; the summary after it counts those records as what they now are (failed).
  closing = true;
  const { pending: closed } = await emulator.close();
  // Webhooks (Actions) requests go to their mapped URLs: those get a summary row too.
  const summaryEndpoints = [
    ...new Set([
      ...shownEndpoints,
      ...emulator.deliveries.flatMap((r) => (r.actions ? r.attempts.map((a) => a.endpoint) : [])),
    ]),
  ];
  if (json) {
    writeJsonLine(process.stdout, {
      event: 'closed',
      recordedFailed: closed.map((r) => ({ id: r.id, type: r.type, attempts: r.attempts.length, reason: r.reason })),
    });
    writeJsonLine(process.stdout, summaryJson(emulator.deliveries, summaryEndpoints, closed));
  } else {
    out(formatCloseReport(closed, color));
    out('');
    out(formatSummary(emulator.deliveries, summaryEndpoints, closed, color));
  }
  return EXIT.ok;
}
