import http from 'node:http';
import https from 'node:https';

/** One request the conformance suite sends. */
export interface ProbeRequest {
  url: URL;
  headers: Record<string, string>;
  body: string | Buffer;
  /** The request method: POST (default); Webhooks (Actions) also sends PUT and PATCH. */
  method?: 'POST' | 'PUT' | 'PATCH';
  /** Give up waiting for the answer after this many ms. */
  timeoutMs: number;
  /**
   * A keep-alive agent for the URL's protocol. Default: a fresh connection (`Connection: close`). Keep-alive
   * matters for a receiver that answers before reading a large body: on a connection it keeps open it
   * discards the rest of the body, where closing it would reset the connection under the answer.
   */
  agent?: http.Agent;
}

/** What came back: the status and the start of the answer's body, or why nothing did. */
export type ProbeResult =
  | { kind: 'answer'; status: number; body: string; durationMs: number }
  | { kind: 'failure'; error: string; timedOut: boolean; durationMs: number; code?: string };

const BODY_KEPT = 4096;

/**
 * Sends one POST (no redirects followed, as the sender) and reports the answer
 * with its time. An answer that arrives before the server drops the connection still counts (a
 * receiver refusing an oversize body may close the socket while the body is still being written).
 *
 * @example
 * const r = await probe({ url: new URL(url), headers: { 'content-type': 'application/json' }, body: '{}', timeoutMs: 5000 });
 */
export function probe(request: ProbeRequest): Promise<ProbeResult> {
  const started = performance.now();
  const elapsed = () => Math.round((performance.now() - started) * 10) / 10;
  const send = request.url.protocol === 'https:' ? https.request : http.request;
  return new Promise((resolve) => {
    let settled = false;
    const finish = (result: ProbeResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(result);
    };
    const req = send(request.url, {
      method: request.method ?? 'POST',
      headers: { ...request.headers, 'content-length': String(Buffer.byteLength(request.body)) },
      agent: request.agent ?? false,
    });
    const timer = setTimeout(() => {
      finish({
        kind: 'failure',
        error: `timed out: no answer within ${request.timeoutMs} ms`,
        timedOut: true,
        durationMs: elapsed(),
      });
      req.destroy();
    }, request.timeoutMs);
    let responded = false;
    req.on('response', (res) => {
      responded = true;
      const status = res.statusCode ?? 0;
      const chunks: Buffer[] = [];
      let kept = 0;
      res.on('data', (chunk: Buffer) => {
        if (kept < BODY_KEPT) {
          chunks.push(chunk);
          kept += chunk.length;
        }
      });
      const done = () =>
        finish({
          kind: 'answer',
          status,
          body: Buffer.concat(chunks).toString('utf8').slice(0, BODY_KEPT),
          durationMs: elapsed(),
        });
      res.on('end', done);
      res.on('error', done);
      res.on('close', done);
    });
    req.on('error', (error: NodeJS.ErrnoException) => {
      // The answer may already be in: the 'response' handler settles it then. Otherwise this is the outcome.
      if (responded) return;
      setImmediate(() =>
        finish({
          kind: 'failure',
          error: error.code ? `${error.code}: ${error.message}` : error.message,
          timedOut: false,
          durationMs: elapsed(),
          ...(error.code ? { code: error.code } : {}),
        }),
      );
    });
    req.end(request.body);
  });
}
