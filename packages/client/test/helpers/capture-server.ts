import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request as the server received it. */
export interface Received {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  raw: Buffer;
  /** The parsed JSON body (undefined if it was not JSON). */
  body: any;
  /** When it arrived (ms since epoch). */
  at: number;
  /** The status answered, 'hang' if it was never answered, 'reset' if the connection was dropped. */
  answered: number | 'hang' | 'reset';
}

/** What the server answers: a status (with optional headers and body), `'hang'` to never answer, `'reset'` to drop the connection. */
export type Answer = { status: number; headers?: Record<string, string>; body?: string } | 'hang' | 'reset';

/** Decides the answer to the n-th request (0-based). Default: 200 `{"success":true}`. */
export type Responder = (n: number, req: Received) => Answer;

export interface CaptureServer {
  /** Base URL, e.g. `http://127.0.0.1:54321`. */
  url: string;
  /** Every request received, in order of arrival. */
  requests: Received[];
  /** The requests that were answered 2xx. */
  accepted(): Received[];
  /** Every message of the batches answered 2xx. */
  delivered(): any[];
  /** Resolves once `n` requests have arrived. */
  waitForRequests(n: number, timeoutMs?: number): Promise<void>;
  /** Replaces the responder. */
  respond(responder: Responder): void;
  close(): Promise<void>;
}

const ok: Responder = () => ({ status: 200, body: '{"success":true}' });

/** Starts a real node:http server on 127.0.0.1 with an ephemeral port that records every request. */
export async function startCaptureServer(responder: Responder = ok): Promise<CaptureServer> {
  const requests: Received[] = [];
  let respond = responder;
  let listeners: Array<() => void> = [];
  const hanging = new Set<http.ServerResponse>();

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      let body: unknown;
      try {
        body = JSON.parse(raw.toString('utf8'));
      } catch {
        body = undefined;
      }
      const received: Received = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        raw,
        body,
        at: Date.now(),
        answered: 'hang',
      };
      const answer = respond(requests.length, received);
      requests.push(received);
      if (answer === 'reset') {
        received.answered = 'reset';
        req.socket.destroy();
      } else if (answer === 'hang') {
        hanging.add(res);
        res.on('close', () => hanging.delete(res));
      } else {
        received.answered = answer.status;
        res.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
        res.end(answer.body ?? '{}');
      }
      for (const l of listeners) l();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  const accepted = () =>
    requests.filter((r) => typeof r.answered === 'number' && r.answered >= 200 && r.answered < 300);
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    accepted,
    delivered: () => accepted().flatMap((r) => r.body.batch as any[]),
    respond(r) {
      respond = r;
    },
    waitForRequests(n, timeoutMs = 5000) {
      if (requests.length >= n) return Promise.resolve();
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          listeners = listeners.filter((l) => l !== check);
          reject(new Error(`expected ${n} requests within ${timeoutMs} ms, got ${requests.length}`));
        }, timeoutMs);
        const check = () => {
          if (requests.length < n) return;
          clearTimeout(timer);
          listeners = listeners.filter((l) => l !== check);
          resolve();
        };
        listeners.push(check);
      });
    },
    async close() {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Resolves after `ms` milliseconds. */
export const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
