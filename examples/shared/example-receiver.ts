// What the three example receivers share: their options and handle, the log line per message,
// the secret they start with, and the banner printed when one is run from the command line.
import { randomBytes } from 'node:crypto';
import type http from 'node:http';
import { pathToFileURL } from 'node:url';
import type { WebhookMessage } from '@hookgate/core';

/**
 * The time limits core's README tells receivers to set on their server (Node's defaults wait 60 s for
 * headers and check only every 30 s): headers and the whole request within 10 s, checked every second.
 */
export const SERVER_LIMITS: http.ServerOptions = {
  headersTimeout: 10_000,
  requestTimeout: 10_000,
  connectionsCheckingInterval: 1_000,
  keepAliveTimeout: 5_000,
};

/** Options of each example's `start`. */
export interface StartOptions {
  /** Port to listen on; 0 picks a free one. Default: the example's own (3000, 3001, 3002). */
  port?: number;
  /** Interface to listen on. Default 127.0.0.1. */
  host?: string;
  /** The shared secret, or several during a rotation (the first is current). Default: a fresh random one. */
  secret?: string | string[];
  /** Log one line per message. Default false. */
  log?: boolean;
}

/** A running example receiver. */
export interface RunningReceiver {
  /** The full webhook URL, e.g. http://127.0.0.1:3000/webhooks. */
  url: string;
  /** The current secret (to configure the sender with). */
  secret: string;
  /** The messages the handlers ran for, in order. */
  seen: WebhookMessage[];
  /** Stops listening after the handlers still running have finished. */
  close(): Promise<void>;
}

/** One log line for a message; narrowing on `type` gives each branch its own fields. */
export function describeMessage(msg: WebhookMessage): string {
  switch (msg.type) {
    case 'track':
      return `track    ${msg.userId} "${msg.event}"`;
    case 'alias':
      return `alias    ${msg['Previous ID']} → ${msg['User ID']}`;
    case 'group':
      return `group    ${msg.userId} joined ${msg.groupId}`;
    case 'screen':
      return `screen   ${msg.userId} ${msg.name}`;
    case 'page':
      return `page     ${msg.userId} ${msg.properties?.path ?? ''}`;
    default:
      return `${msg.type.padEnd(8)} ${msg.userId}`;
  }
}

/**
 * The secrets an example starts with, the list of messages it saw, and the function that records
 * (and, with `log`, prints) each one.
 */
export function exampleState(options: StartOptions): {
  secrets: string[];
  seen: WebhookMessage[];
  record(msg: WebhookMessage): void;
} {
  const secrets = options.secret === undefined ? [randomBytes(24).toString('hex')] : [options.secret].flat();
  const seen: WebhookMessage[] = [];
  const record = (msg: WebhookMessage) => {
    seen.push(msg);
    if (options.log) console.log(`${new Date().toISOString()}  ${describeMessage(msg)}`);
  };
  return { secrets, seen, record };
}

/**
 * When `moduleUrl` is the script node was started with: starts the example from PORT, HOST and
 * WEBHOOK_SECRET, prints its URL, its secret and a curl command that sends a signed message, and
 * closes it on Ctrl-C.
 */
export async function runIfMain(
  moduleUrl: string,
  name: string,
  defaultPort: number,
  start: (options: StartOptions) => Promise<RunningReceiver>,
): Promise<void> {
  if (!process.argv[1] || moduleUrl !== pathToFileURL(process.argv[1]).href) return;
  const rx = await start({
    port: Number(process.env.PORT ?? defaultPort),
    host: process.env.HOST ?? '127.0.0.1',
    secret: process.env.WEBHOOK_SECRET || undefined,
    log: true,
  });
  console.log(`hookgate ${name} receiver`);
  console.log(`  URL:    ${rx.url}`);
  console.log(
    `  Secret: ${rx.secret}${process.env.WEBHOOK_SECRET ? ' (from WEBHOOK_SECRET)' : ' (generated; set WEBHOOK_SECRET to choose one)'}`,
  );
  console.log('  Send a signed message:');
  console.log(
    `    BODY='{"version":1,"type":"track","userId":"u1","event":"Signed Up","timestamp":"2026-01-01T00:00:00.000Z"}'`,
  );
  console.log(`    curl -i ${rx.url} -H 'content-type: application/json' \\`);
  console.log(
    `      -H "x-signature: $(printf %s "$BODY" | openssl dgst -sha1 -hmac '${rx.secret}' | sed 's/^.* //')" -d "$BODY"`,
  );
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => void rx.close().then(() => process.exit(0)));
  }
}
