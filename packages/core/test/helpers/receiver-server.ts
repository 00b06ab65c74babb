// A real node:http server on 127.0.0.1:0 driving a core receiver, and a client that signs like the sender.
import http from 'node:http';
import { createHmac } from 'node:crypto';
import { startHttpServer, type RunningServer } from '../../../../test/helpers/servers.js';
import { createReceiver, toNodeListener, type Receiver, type ReceiverOptions } from '../../src/index.js';

export const SECRET = 'whsec_receiver_test_4b1d';

/** HMAC-SHA1 hex computed here, independently of core's `sign`. */
export const hmac = (body: string | Uint8Array, secret: string = SECRET) =>
  createHmac('sha1', secret).update(body).digest('hex');

export interface ServedReceiver extends RunningServer {
  receiver: Receiver;
}

/** Creates a receiver and serves it with core's `toNodeListener` on an ephemeral port. */
export async function serveReceiver(options: ReceiverOptions): Promise<ServedReceiver> {
  const receiver = createReceiver(options);
  const server = await startHttpServer(toNodeListener(receiver));
  return { ...server, receiver };
}

export interface Answer {
  status: number;
  headers: Headers;
  text: string;
  json: Record<string, unknown>;
  /** Milliseconds from sending to the full answer. */
  ms: number;
}

export interface PostOptions {
  /** Secret to sign with; `null` sends no signature. Default SECRET. */
  secret?: string | null;
  /** A signature to send as is (overrides `secret`). */
  signature?: string;
  method?: string;
  contentType?: string | null;
  headers?: Record<string, string>;
}

/** POSTs a body the way the sender does (User-Agent, JSON content type, X-Signature over the exact bytes). */
export async function send(url: string, body: string | object | undefined, options: PostOptions = {}): Promise<Answer> {
  const text = body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body);
  const headers: Record<string, string> = { 'user-agent': 'Segment.io/1.0', ...options.headers };
  const contentType = options.contentType === undefined ? 'application/json' : options.contentType;
  if (contentType !== null) headers['content-type'] = contentType;
  const secret = options.secret === undefined ? SECRET : options.secret;
  if (options.signature !== undefined) headers['x-signature'] = options.signature;
  else if (secret !== null && text !== undefined) headers['x-signature'] = hmac(text, secret);
  const started = performance.now();
  const res = await fetch(url, { method: options.method ?? 'POST', headers, body: text });
  const answer = await res.text();
  let json: Record<string, unknown> = {};
  try {
    json = JSON.parse(answer) as Record<string, unknown>;
  } catch {
    // left empty: the test asserts on it
  }
  return { status: res.status, headers: res.headers, text: answer, json, ms: performance.now() - started };
}

/**
 * Sends a request with node:http, writing the body in the given chunks with a pause between them
 * (chunked transfer encoding, no Content-Length unless given in headers). A connection of its own
 * (`agent: false`): a pooled keep-alive socket its server reset after answering early (a 413 before
 * the body's end) would meet the next write with no one listening, an uncaught `write ECONNRESET` that
 * fails whichever test file shares the process. Once answered, no more is written and the connection
 * is closed.
 */
export function sendChunks(
  url: string,
  chunks: Array<string | Uint8Array>,
  headers: Record<string, string>,
  pauseMs = 5,
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: 'POST', headers, agent: false }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (c: Buffer) => parts.push(c));
      res.on('error', reject);
      res.on('end', () => {
        resolve({ status: res.statusCode ?? 0, text: Buffer.concat(parts).toString('utf8') });
        req.destroy();
      });
    });
    req.on('error', reject);
    let i = 0;
    const next = () => {
      if (req.destroyed || req.writableEnded) return;
      if (i === chunks.length) return void req.end();
      req.write(chunks[i++]!);
      setTimeout(next, pauseMs);
    };
    next();
  });
}

/** A promise with its resolve and reject outside, to hold a handler open. */
export function gate<T = void>(): { promise: Promise<T>; open(value: T): void; fail(error: unknown): void } {
  let open!: (value: T) => void;
  let fail!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    open = res;
    fail = rej;
  });
  return { promise, open, fail };
}

export const delay = (ms: number) => new Promise((r) => setTimeout(r, ms));
