// A deliberately naive webhook receiver, the kind the conformance suite exists to catch: it reads the
// body as a string, parses it, RE-SERIALIZES it with JSON.stringify and compares the HMAC of that with
// `===`. No raw-body verification, no content-type check, no size limit, no dedupe. Test use only.
import { createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { reportingRejections } from '../helpers/servers.js';

/** Options of the naive receiver. */
export interface NaiveReceiverOptions {
  port?: number;
  host?: string;
  secret?: string;
}

/** A running naive receiver: the same shape as the example receivers' `start()`. */
export interface NaiveReceiver {
  url: string;
  secret: string;
  seen: unknown[];
  close(): Promise<void>;
}

/**
 * Starts the naive receiver on 127.0.0.1 (a free port by default); `url` is its webhook URL.
 *
 * @example
 * const naive = await start({ secret: 's3cret' });
 * await runConformance({ url: naive.url, secret: naive.secret });
 */
export async function start(options: NaiveReceiverOptions = {}): Promise<NaiveReceiver> {
  const secret = options.secret ?? 'naive-secret';
  const seen: unknown[] = [];
  const server = http.createServer(
    reportingRejections(async (req, res) => {
      try {
        let text = '';
        for await (const chunk of req) text += chunk; // no limit at all
        const message = JSON.parse(text); // throws on bad JSON → 500 below
        const expected = createHmac('sha1', secret).update(JSON.stringify(message)).digest('hex');
        if (req.headers['x-signature'] !== expected) {
          res.writeHead(401).end('bad signature');
          return;
        }
        seen.push(message);
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
      } catch {
        res.writeHead(500).end('error');
      }
    }),
  );
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, options.host ?? '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/webhooks`,
    secret,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
