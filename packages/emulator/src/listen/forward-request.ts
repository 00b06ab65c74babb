import http from 'node:http';
import https from 'node:https';

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
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const maxAnswer = input.maxAnswerBytes ?? 1024 * 1024;
  // Raw header lists are written as given, so Host is ours to add (the target's, not the sender's).
  const headers: Array<[string, string]> = [['Host', input.url.host]];
  const drop = hopByHopHeaders(input.rawHeaders);
  for (let i = 0; i + 1 < input.rawHeaders.length; i += 2) {
    const name = input.rawHeaders[i] as string;
    const lower = name.toLowerCase();
    if (drop.has(lower) || lower === 'content-length') continue;
    headers.push([name, input.rawHeaders[i + 1] as string]);
  }
  headers.push(['Content-Length', String(input.body.length)]);
  const { url } = input;
  const transport = url.protocol === 'https:' ? https : http;
  return new Promise((resolve) => {
    let settled = false;
    const finish = (result: Omit<ForwardResult, 'durationMs'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ ...result, durationMs: elapsed() });
    };
    const request = transport.request({
      protocol: url.protocol,
      hostname: url.hostname.replace(/^\[|\]$/g, ''),
      port: url.port || undefined,
      path: `${url.pathname}${url.search}`,
      method: input.method,
      headers: headers.flat(),
      auth: url.username ? `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}` : undefined,
      agent: false,
    });
    const timer = setTimeout(() => {
      finish({ timedOut: true, error: `no answer within ${input.timeoutMs} ms` });
      request.destroy();
    }, input.timeoutMs);
    request.on('error', (error: NodeJS.ErrnoException) => {
      finish({ timedOut: false, error: error.code ? `${error.code}: ${error.message}` : error.message });
    });
    request.on('response', (response) => {
      const chunks: Buffer[] = [];
      let size = 0;
      response.on('data', (chunk: Buffer) => {
        if (size >= maxAnswer) return;
        chunks.push(chunk);
        size += chunk.length;
      });
      response.on('end', () => {
        finish({
          status: response.statusCode,
          headers: response.headers,
          body: Buffer.concat(chunks).subarray(0, maxAnswer),
          timedOut: false,
        });
      });
      response.on('error', (error) => finish({ status: response.statusCode, timedOut: false, error: error.message }));
    });
    request.end(input.body);
  });
}
