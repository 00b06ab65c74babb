import http from 'node:http';
import https from 'node:https';
import { sendHttpRequest } from '../delivery/http-client.js';

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
   * Announce `Connection: keep-alive` instead of `close`. It matters for a receiver that answers before
   * reading a large body: on a connection it keeps open it discards the rest of the body, where closing
   * it would reset the connection under the answer. Either way the probe has a connection of its own,
   * closed once its answer is read, so no answer can be another probe's.
   */
  keepAlive?: boolean;
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
  const { url, body } = request;
  const headers = Object.entries(request.headers).flat();
  headers.push('content-length', String(Buffer.byteLength(body)), 'Host', url.host);
  const agent = request.keepAlive ? new (url.protocol === 'https:' ? https : http).Agent({ keepAlive: true }) : false;
  return new Promise((resolve) => {
    let timedOut = false;
    const inFlight = sendHttpRequest(
      {
        url,
        method: request.method ?? 'POST',
        headers,
        body,
        agent,
        maxAnswerBytes: BODY_KEPT,
      },
      ({ answer, error, durationMs }) => {
        clearTimeout(timer);
        if (agent) agent.destroy();
        const elapsed = Math.round(durationMs * 10) / 10;
        if (timedOut) {
          resolve({
            kind: 'failure',
            error: `timed out: no answer within ${request.timeoutMs} ms`,
            timedOut: true,
            durationMs: elapsed,
          });
        } else if (answer) {
          // An answer counts even when the connection broke after its head.
          resolve({
            kind: 'answer',
            status: answer.status,
            body: answer.body.toString('utf8').slice(0, BODY_KEPT),
            durationMs: elapsed,
          });
        } else {
          resolve({
            kind: 'failure',
            error: error?.code ? `${error.code}: ${error.message}` : (error?.message ?? 'no answer'),
            timedOut: false,
            durationMs: elapsed,
            ...(error?.code ? { code: error.code } : {}),
          });
        }
      },
    );
    const timer = setTimeout(() => {
      timedOut = true;
      inFlight.abort(new Error('timeout'));
    }, request.timeoutMs);
  });
}
