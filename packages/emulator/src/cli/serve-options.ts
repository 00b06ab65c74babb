import { headerValueIssue } from '../sendable-fields.js';
import type { EmulatorOptions, ResponsePolicy, RetryOptions } from '../options.js';
import { DEFAULT_DEDUPE, DEFAULT_MAX_RECORDS, DEFAULT_RETRY } from '../options.js';
import type { FlagSpec } from './parse-command-args.js';
import { intFlag } from './parse-command-args.js';
import { UsageError } from './usage-error.js';

/** The flags of `hookgate serve` that set an emulator option, each named after the option it sets. */
export const SERVE_OPTION_FLAGS = {
  'anonymous-calls': { type: 'string' },
  'include-ids': { type: 'boolean' },
  'retry-window-ms': { type: 'string' },
  'retry-initial-delay-ms': { type: 'string' },
  'retry-factor': { type: 'string' },
  'retry-max-delay-ms': { type: 'string' },
  'retry-jitter': { type: 'string' },
  'retry-statuses': { type: 'string' },
  'on-4xx': { type: 'string' },
  'on-3xx': { type: 'string' },
  'on-tls-error': { type: 'string' },
  'ignore-retry-after': { type: 'boolean' },
  concurrency: { type: 'string' },
  'user-agent': { type: 'string' },
  'max-records': { type: 'string' },
  'dedupe-window-ms': { type: 'string' },
} as const satisfies Record<string, FlagSpec>;

/** Usage lines of those flags, for `hookgate serve --help`. */
export const SERVE_OPTION_HELP = `Delivery options (each sets the emulator option named in brackets):
  --anonymous-calls M       a call with only anonymousId: filter (default) or anonymousId-as-userId [anonymousCalls]
  --include-ids             add messageId and anonymousId to the messages delivered [includeIds]
  --retry-window-ms N       no attempt starts later than this after the first (default ${DEFAULT_RETRY.windowMs}, 4 h) [retry.windowMs]
  --retry-initial-delay-ms N  delay cap of the first retry (default ${DEFAULT_RETRY.initialDelayMs}) [retry.initialDelayMs]
  --retry-factor X          growth of the delay per retry, a number >= 1 (default ${DEFAULT_RETRY.factor}) [retry.factor]
  --retry-max-delay-ms N    largest delay between retries (default ${DEFAULT_RETRY.maxDelayMs}, 1 h) [retry.maxDelayMs]
  --retry-jitter J          full (default), equal or none [retry.jitter]
  --retry-statuses LIST     4xx statuses retried like a 5xx, comma-separated (default 408,429; "none" for none) [responsePolicy.retryStatuses]
  --on-4xx P                other 4xx answers: fail (default) or retry [responsePolicy.clientErrors]
  --on-3xx P                redirects (never followed): fail (default) or retry [responsePolicy.redirects]
  --on-tls-error P          untrusted or self-signed certificates: fail (default) or retry [responsePolicy.tlsErrors]
  --ignore-retry-after      do not wait for the Retry-After of a 429/503 [responsePolicy.honorRetryAfter: false]
  --concurrency N           most requests in flight to one endpoint (default 64) [concurrency]
  --user-agent UA           the User-Agent header (default Segment.io/1.0) [userAgent]
  --max-records N           delivery records kept for the log and /_hookgate/deliveries (default ${DEFAULT_MAX_RECORDS}) [maxRecords]
  --dedupe-window-ms N      a messageId sent again within this time is acknowledged, not delivered again
                            (default ${DEFAULT_DEDUPE.windowMs}, 24 h; 0 delivers every repeat) [dedupe.windowMs]
`;

type Values = {
  [K in keyof typeof SERVE_OPTION_FLAGS]?: (typeof SERVE_OPTION_FLAGS)[K]['type'] extends 'boolean' ? boolean : string;
};

function choice<T extends string>(flag: string, value: string | undefined, allowed: readonly T[]): T | undefined {
  if (value === undefined) return undefined;
  if (!(allowed as readonly string[]).includes(value)) {
    throw new UsageError('serve', `--${flag} must be one of ${allowed.join(', ')} (got ${JSON.stringify(value)}).`);
  }
  return value as T;
}

/**
 * The emulator options that `serve`'s flags set (only those given), each value checked: a bad one is a
 * `UsageError` naming its flag and what it accepts.
 *
 * @example
 * serveOptionsFromFlags({ 'on-4xx': 'retry', 'retry-window-ms': '60000' });
 * // { responsePolicy: { clientErrors: 'retry' }, retry: { windowMs: 60000 } }
 */
export function serveOptionsFromFlags(
  values: Values,
): Pick<
  EmulatorOptions,
  'anonymousCalls' | 'includeIds' | 'retry' | 'responsePolicy' | 'concurrency' | 'maxRecords' | 'userAgent' | 'dedupe'
> {
  const out: ReturnType<typeof serveOptionsFromFlags> = {};
  const anonymousCalls = choice('anonymous-calls', values['anonymous-calls'], [
    'filter',
    'anonymousId-as-userId',
  ] as const);
  if (anonymousCalls) out.anonymousCalls = anonymousCalls;
  if (values['include-ids']) out.includeIds = true;

  const retry: RetryOptions = {};
  const ms = (flag: keyof Values, min: number) =>
    intFlag('serve', `--${flag}`, values[flag] as string | undefined, min, 365 * 24 * 3600 * 1000);
  const windowMs = ms('retry-window-ms', 0);
  if (windowMs !== undefined) retry.windowMs = windowMs;
  const initialDelayMs = ms('retry-initial-delay-ms', 0);
  if (initialDelayMs !== undefined) retry.initialDelayMs = initialDelayMs;
  const maxDelayMs = ms('retry-max-delay-ms', 0);
  if (maxDelayMs !== undefined) retry.maxDelayMs = maxDelayMs;
  const factor = values['retry-factor'];
  if (factor !== undefined) {
    if (!/^\d+(\.\d+)?$/.test(factor) || Number(factor) < 1 || Number(factor) > 100) {
      throw new UsageError(
        'serve',
        `--retry-factor must be a number from 1 to 100, e.g. 2 or 1.5 (got ${JSON.stringify(factor)}).`,
      );
    }
    retry.factor = Number(factor);
  }
  const jitter = choice('retry-jitter', values['retry-jitter'], ['full', 'equal', 'none'] as const);
  if (jitter) retry.jitter = jitter;
  if (Object.keys(retry).length > 0) out.retry = retry;

  const policy: ResponsePolicy = {};
  const statuses = values['retry-statuses'];
  if (statuses !== undefined) {
    const list = statuses === 'none' ? [] : statuses.split(',').map((s) => s.trim());
    if (list.some((s) => !/^\d{3}$/.test(s) || Number(s) < 400 || Number(s) > 499)) {
      throw new UsageError(
        'serve',
        `--retry-statuses must be 4xx statuses separated by commas, e.g. 408,429, or none (got ${JSON.stringify(statuses)}).`,
      );
    }
    policy.retryStatuses = list.map(Number);
  }
  const clientErrors = choice('on-4xx', values['on-4xx'], ['fail', 'retry'] as const);
  if (clientErrors) policy.clientErrors = clientErrors;
  const redirects = choice('on-3xx', values['on-3xx'], ['fail', 'retry'] as const);
  if (redirects) policy.redirects = redirects;
  const tlsErrors = choice('on-tls-error', values['on-tls-error'], ['fail', 'retry'] as const);
  if (tlsErrors) policy.tlsErrors = tlsErrors;
  if (values['ignore-retry-after']) policy.honorRetryAfter = false;
  if (Object.keys(policy).length > 0) out.responsePolicy = policy;

  const concurrency = intFlag('serve', '--concurrency', values.concurrency, 1, 10_000);
  if (concurrency !== undefined) out.concurrency = concurrency;
  const userAgent = values['user-agent'];
  if (userAgent !== undefined) {
    if (userAgent.length === 0)
      throw new UsageError('serve', '--user-agent must be a non-empty one-line value, e.g. Segment.io/1.0.');
    const issue = headerValueIssue(userAgent);
    if (issue !== undefined) throw new UsageError('serve', `--user-agent cannot be sent as a header: it ${issue}.`);
    out.userAgent = userAgent;
  }
  const maxRecords = intFlag('serve', '--max-records', values['max-records'], 1, 100_000_000);
  if (maxRecords !== undefined) out.maxRecords = maxRecords;
  const dedupeWindowMs = ms('dedupe-window-ms', 0);
  if (dedupeWindowMs !== undefined) out.dedupe = dedupeWindowMs === 0 ? false : { windowMs: dedupeWindowMs };
  return out;
}

/** Option names in the emulator's hints, and the `serve` flag that sets each (exported for the test that runs every one). */
export const HINTS: ReadonlyArray<[RegExp, string | ((match: string, ...groups: string[]) => string)]> = [
  [/sources\[0\]\.webhooks\.endpoints\[(\d+)\]\.url/g, (_m, i) => `--endpoint #${Number(i) + 1}`],
  [/sources\[0\]\.webhooks\.endpoints\[(\d+)\]\.headers/g, '--header'],
  [/sources\[0\]\.webhooks\.sharedSecret/g, '--secret'],
  [/sources\[0\]\.writeKey/g, '--write-key'],
  [
    / \(inspector: \{ token \}, or hookgate serve --ui-token \/ HOOKGATE_UI_TOKEN\)/g,
    ' (--ui-token or HOOKGATE_UI_TOKEN)',
  ],
  [/, turn it off \(inspector: false\), or bind 127\.0\.0\.1\./g, ', or bind 127.0.0.1 (--host 127.0.0.1).'],
  [/set anonymousCalls: 'anonymousId-as-userId'/g, 'pass --anonymous-calls anonymousId-as-userId'],
  [/schemaControls\.forwardBlockedTo/g, '--forward-blocked-to'],
  [/responsePolicy\.clientErrors/g, '--on-4xx'],
  [/responsePolicy\.redirects/g, '--on-3xx'],
  [/responsePolicy\.tlsErrors/g, '--on-tls-error'],
  [/responsePolicy\.retryStatuses/g, '--retry-statuses'],
  [/responsePolicy\.honorRetryAfter/g, '--ignore-retry-after'],
  [/retry\.windowMs/g, '--retry-window-ms'],
  [/retry\.initialDelayMs/g, '--retry-initial-delay-ms'],
  [/retry\.maxDelayMs/g, '--retry-max-delay-ms'],
  [/\bincludeIds\b/g, '--include-ids'],
  [/\bmaxRecords\b/g, '--max-records'],
  [/\(timeoutMs\)/g, '(--timeout-ms)'],
  [/set the emulator option userAgent instead/g, 'set it with --user-agent instead'],
];

/**
 * An emulator message (a reason, an error) as `serve` shows it: every option it tells you to set is
 * named by the `serve` flag that sets it.
 *
 * @example
 * flagHint('see responsePolicy.clientErrors'); // 'see --on-4xx'
 */
export function flagHint(text: string): string {
  let out = text;
  for (const [pattern, flag] of HINTS)
    out = typeof flag === 'string' ? out.replace(pattern, flag) : out.replace(pattern, flag);
  return out;
}
