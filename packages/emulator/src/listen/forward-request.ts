import type http from 'node:http';
import { sendHttpRequest } from '../delivery/http-client.js';

/** Headers that describe one hop, not the message: never passed on (RFC 9110 section 7.6.1), nor `Host` (the target's is sent). */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'host',
]);

/** What the local receiver answered, or why it did not. */
export interface ForwardResult {
  status?: number;
  headers?: http.IncomingHttpHeaders;
  /** The whole answer body (bounded by `maxAnswerBytes`). */
  body?: Buffer;
  error?: string;
  timedOut: boolean;
  durationMs: number;
}

/** One forward: where, what, and how long to wait. */
export interface ForwardInput {
  url: URL;
  method: string;
  /** The request's raw header list (`IncomingMessage.rawHeaders`): names and values alternate, case kept. */
  rawHeaders: readonly string[];
  body: Buffer;
  timeoutMs: number;
  /** Stop reading the answer past this many bytes (the rest is dropped). Default 1 MiB. */
  maxAnswerBytes?: number;
}

/**
 * The headers a proxy must not pass on for this request: the standard hop-by-hop set plus every
 * header its `Connection` header names (`Connection: close, X-Hop` makes `X-Hop` hop-by-hop), lower case.
 *
 * @example
 * hopByHopHeaders(['Connection', 'keep-alive, X-Trace-Hop']).has('x-trace-hop'); // true
 */
export function hopByHopHeaders(rawHeaders: readonly string[]): Set<string> {
  const out = new Set(HOP_BY_HOP);
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    if ((rawHeaders[i] as string).toLowerCase() !== 'connection') continue;
    for (const token of (rawHeaders[i + 1] as string).split(',')) {
      const name = token.trim().toLowerCase();
      if (name !== '') out.add(name);
    }
  }
  return out;
}

/**
 * Sends the exact bytes and headers of an inbound request to the user's receiver (hop-by-hop headers,
 * those its `Connection` header names, and `Host` excepted; `Content-Length` is the body's own),
 * follows no redirect, and resolves with its answer; never rejects.
 *
 * @example
 * const answer = await forwardRequest({ url: new URL('http://127.0.0.1:3000/webhooks'), method: 'POST', rawHeaders: req.rawHeaders, body, timeoutMs: 30_000 });
 */
export function forwardRequest(input: ForwardInput): Promise<ForwardResult> {
  // Raw header lists are written as given, so Host is ours to add (the target's, not the sender's).
  const headers: string[] = ['Host', input.url.host];
  const drop = hopByHopHeaders(input.rawHeaders);
  for (let i = 0; i + 1 < input.rawHeaders.length; i += 2) {
    const name = input.rawHeaders[i] as string;
    const lower = name.toLowerCase();
    if (drop.has(lower) || lower === 'content-length') continue;
    headers.push(name, input.rawHeaders[i + 1] as string);
  }
  headers.push('Content-Length', String(input.body.length));
  const { url } = input;
  return new Promise((resolve) => {
    let timedOut = false;
    const inFlight = sendHttpRequest(
      {
        url,
        method: input.method,
        headers,
        body: input.body,
        agent: false,
        maxAnswerBytes: input.maxAnswerBytes ?? 1024 * 1024,
      },
      ({ answer, error, durationMs }) => {
        clearTimeout(timer);
        const base = { timedOut, durationMs: Math.round(durationMs) };
        if (timedOut) resolve({ ...base, error: `no answer within ${input.timeoutMs} ms` });
        else if (answer && !error)
          resolve({ ...base, status: answer.status, headers: answer.headers, body: answer.body });
        else if (answer) resolve({ ...base, status: answer.status, error: error?.message });
        else resolve({ ...base, error: error?.code ? `${error.code}: ${error.message}` : error?.message });
      },
    );
    const timer = setTimeout(() => {
      timedOut = true;
      inFlight.abort(new Error('timeout'));
    }, input.timeoutMs);
  });
}
