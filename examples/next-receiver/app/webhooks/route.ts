// A webhook receiver as a Next.js App Router route handler: POST /webhooks.
// Core's runtime-neutral receiver takes the Request as it arrived (its bytes untouched, read once)
// and gives back the Response: signature, status table, 4 s deadline and dedupe included.
import { createReceiver, type Receiver, type WebhookMessage } from '@hookgate/core';

// Node.js runtime (the default), never cached: every delivery runs this handler.
export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

let receiver: Receiver | undefined;

// Made on the first request, not at import: `next build` loads this module without the secret, and
// a receiver without a secret refuses to be created.
function webhooks(): Receiver {
  receiver ??= createReceiver({
    secret: process.env.WEBHOOK_SECRET!,
    on: {
      track: (msg) => log(msg, `"${msg.event}"`),
      identify: (msg) => log(msg, JSON.stringify(msg.traits ?? {})),
    },
    onMessage: (msg) => log(msg, ''),
  });
  return receiver;
}

function log(msg: WebhookMessage, detail: string): void {
  console.log(`webhook ${msg.type} ${msg.type === 'alias' ? msg['User ID'] : msg.userId} ${detail}`.trimEnd());
}

/** Every delivery: the receiver answers a method it does not take (405) itself, with its JSON body. */
function handler(request: Request): Promise<Response> {
  return webhooks().fetch(request);
}

export { handler as POST, handler as PUT, handler as PATCH };
