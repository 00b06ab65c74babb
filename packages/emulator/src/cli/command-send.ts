import { escapeControls } from './escape-controls.js';
import { urlIssue } from '../sendable-fields.js';
import { fixture, MESSAGE_TYPES, messageIssues, sign, type MessageType } from '@hookgate/core';
import { probe } from '../conformance/http-probe.js';
import { CONFORMANCE_USER_AGENT } from '../conformance/run-conformance.js';
import { redactText, redactUrl } from '../redact.js';
import { didYouMean } from './did-you-mean.js';
import { writeJsonLine } from './json-line.js';
import { headerFlags, intFlag, parseCommandArgs, secretFlag } from './parse-command-args.js';
import { readDataArg } from './read-input.js';
import { painter, statusStyle, wantsColor } from './terminal-style.js';
import { EXIT, UsageError } from './usage-error.js';

/** Usage of `hookgate send`. */
export const SEND_HELP = `Usage: hookgate send <type> --to URL [--secret S] [--data file.json|-] [options]

Delivers one message to a receiver as the sender does (POST, User-Agent ${CONFORMANCE_USER_AGENT},
Content-Type application/json, X-Signature over the exact bytes sent, one attempt, no redirects) and
prints the receiver's answer. Exit code 0 on a 2xx answer; 1 on any other answer or no answer in
time; 2 on a usage error or when nothing can be reached at --to.

The message is the fixture of <type> with the current time as its timestamp, or the JSON given by
--data (checked against the message shapes; its type must be <type>). The body sent is
JSON.stringify of the message, as the sender serializes it.

Types: ${MESSAGE_TYPES.join(', ')}

Options:
  --to URL           the receiver's webhook URL (required)
  --secret S         sign with this shared secret (or set HOOKGATE_SECRET); unsigned without one
  --data PATH        the message as JSON: a file, or - for stdin
  --header 'K: V'    a static header (repeatable)
  --timeout-ms N     wait this long for the answer (default 5000, the sender's budget)
  --json             print one JSON object (one line): url, type, bytes, signed, ok, status or error,
                     durationMs, body (the answer's first 4 KB: nested as JSON when it is JSON)
  -h, --help         this help

Examples:
  hookgate send track --to http://127.0.0.1:3000/webhooks --secret s3cret
  echo '{"type":"identify","version":1,"userId":"u1","timestamp":"2026-01-01T00:00:00.000Z"}' | hookgate send identify --to http://127.0.0.1:3000/webhooks --data -
`;

/**
 * `hookgate send <type> --to URL`: delivers one signed message and prints the answer.
 *
 * @example
 * process.exitCode = await runSend(['track', '--to', 'http://127.0.0.1:3000/webhooks', '--secret', 's3cret']);
 */
export async function runSend(argv: string[]): Promise<number> {
  const { values, positionals } = parseCommandArgs(
    'send',
    argv,
    {
      to: { type: 'string' },
      secret: { type: 'string' },
      data: { type: 'string' },
      header: { type: 'string', multiple: true },
      'timeout-ms': { type: 'string' },
      json: { type: 'boolean' },
    },
    true,
  );
  if (values.help) {
    process.stdout.write(SEND_HELP);
    return EXIT.ok;
  }
  if (positionals.length !== 1) {
    throw new UsageError(
      'send',
      positionals.length === 0
        ? `give the message type: one of ${MESSAGE_TYPES.join(', ')}.`
        : `takes one type (got ${positionals.join(' ')}).`,
    );
  }
  const type = positionals[0] as string;
  if (!(MESSAGE_TYPES as readonly string[]).includes(type)) {
    throw new UsageError(
      'send',
      `unknown type ${JSON.stringify(type)}${didYouMean(type, MESSAGE_TYPES) || '.'} Types: ${MESSAGE_TYPES.join(', ')}.`,
    );
  }
  if (values.to === undefined) throw new UsageError('send', '--to is required: the receiver URL to deliver to.');
  const toIssue = urlIssue(values.to);
  if (toIssue !== undefined) throw new UsageError('send', `--to ${toIssue}.`);
  let url: URL;
  try {
    url = new URL(values.to);
  } catch {
    throw new UsageError('send', `--to must be a full http(s) URL (got ${JSON.stringify(redactUrl(values.to))}).`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new UsageError('send', `--to must use http or https (got ${JSON.stringify(url.protocol)}).`);
  const shownUrl = redactUrl(url);
  const headers = headerFlags('send', values.header);
  const timeoutMs = intFlag('send', '--timeout-ms', values['timeout-ms'], 1, 600_000) ?? 5000;
  if (values.secret === '')
    throw new UsageError(
      'send',
      '--secret is empty: give the shared secret to sign with (or leave --secret out to send unsigned).',
    );
  const secret = secretFlag(values.secret);

  let message: unknown;
  if (values.data !== undefined) {
    let text: string;
    try {
      text = (await readDataArg(values.data)).toString('utf8');
    } catch (error) {
      throw new UsageError('send', `--data ${values.data}: ${(error as Error).message}`);
    }
    try {
      message = JSON.parse(text);
    } catch (error) {
      throw new UsageError('send', `--data ${values.data} is not valid JSON: ${(error as Error).message}`);
    }
    if (typeof message === 'object' && message !== null && !Array.isArray(message) && !('type' in message)) {
      message = { ...message, type };
    }
    const issues = messageIssues(message);
    const given = (message as { type?: unknown } | null)?.type;
    if (given !== undefined && given !== type) {
      throw new UsageError('send', `--data holds a ${JSON.stringify(given)} message, not ${type}; make them agree.`);
    }
    if (issues.length > 0) {
      throw new UsageError(
        'send',
        `--data is not a valid ${type} message:\n${issues.map((i) => `  ${i.path} ${i.message}`).join('\n')}`,
      );
    }
  } else {
    message = fixture(type as MessageType, { timestamp: new Date().toISOString() });
  }

  const body = JSON.stringify(message);
  const requestHeaders: Record<string, string> = {
    ...headers,
    'user-agent': CONFORMANCE_USER_AGENT,
    'content-type': 'application/json',
  };
  if (secret !== undefined) requestHeaders['x-signature'] = sign(body, secret);
  const bytes = Buffer.byteLength(body);
  const signed = secret !== undefined;
  if (values.json) {
    const result = await probe({ url, headers: requestHeaders, body, timeoutMs });
    const ok = result.kind === 'answer' && result.status >= 200 && result.status < 300;
    const common = { url: shownUrl, type, bytes, signed, ok, durationMs: result.durationMs };
    writeJsonLine(
      process.stdout,
      result.kind === 'answer'
        ? { ...common, status: result.status, body: jsonOrText(result.body) }
        : { ...common, status: null, error: redactText(result.error, [secret]), timedOut: result.timedOut },
    );
    if (result.kind === 'failure') return result.timedOut ? EXIT.failure : EXIT.unreachable;
    return ok ? EXIT.ok : EXIT.failure;
  }
  const paint = painter(wantsColor(process.stdout));
  process.stdout.write(
    `→ POST ${escapeControls(shownUrl)}  ${type}, ${bytes} bytes, ${signed ? 'signed' : 'unsigned (no --secret)'}\n`,
  );
  const result = await probe({ url, headers: requestHeaders, body, timeoutMs });
  if (result.kind === 'failure') {
    process.stdout.write(
      `${paint('red', result.timedOut ? '← timed out' : '← no answer')} after ${result.durationMs} ms: ${escapeControls(redactText(result.error, [secret]))}\n`,
    );
    return result.timedOut ? EXIT.failure : EXIT.unreachable;
  }
  process.stdout.write(`${paint(statusStyle(result.status), `← ${result.status}`)} in ${result.durationMs} ms\n`);
  if (result.body.length > 0) process.stdout.write(`${escapeControls(answerExcerpt(result.body.trimEnd()))}\n`);
  return result.status >= 200 && result.status < 300 ? EXIT.ok : EXIT.failure;
}

/** The answer body as a JSON value when it parses as JSON (so `--json` nests it), else the text. */
function jsonOrText(body: string): unknown {
  if (!/^\s*[[{"]/.test(body)) return body;
  try {
    return JSON.parse(body) as unknown;
  } catch {
    return body;
  }
}

/** Longest answer body printed as it came (a JSON error, a short text); longer ones are cut. */
const EXCERPT_CHARS = 300;

/**
 * The answer body as the terminal shows it: short bodies as they came; an HTML page (a proxy's or a
 * framework's error page) as its text without tags, cut to a line or two; any other long body cut.
 * `--json` prints the whole body.
 *
 * @example
 * answerExcerpt('<html><head><title>502 Bad Gateway</title></head><body>…</body></html>'); // '502 Bad Gateway … (an HTML page; --json prints the body)'
 */
export function answerExcerpt(body: string): string {
  const html = /^\s*<(!doctype\s+html|html|head|body|title|h1|div|p|pre|center)\b/i.test(body);
  if (!html && body.length <= EXCERPT_CHARS) return body;
  const text = html
    ? body
        .replace(/<(script|style)\b[\s\S]*?<\/\1\s*>/gi, ' ')
        .replace(/<[^>]*(>|$)/g, ' ')
        .replace(/&nbsp;/g, ' ')
        .replace(/\s+/g, ' ')
        .trim()
    : body;
  const cut = text.length > EXCERPT_CHARS ? `${text.slice(0, EXCERPT_CHARS)}…` : text;
  return `${cut} (${html ? 'an HTML page' : 'cut'}; --json prints the body)`;
}
