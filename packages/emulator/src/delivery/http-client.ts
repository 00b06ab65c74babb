// The emulator's one HTTP client (deliveries, `listen`'s forwarding, `conformance`'s probes): node:http.
// Not undici: undici writes `host` and `connection` first and `content-length` last, in lower case,
// whatever the caller gives; node:http with a raw header list writes the names, order and case given,
// and a sender emulator must send the bytes its sender sends.
import http from 'node:http';
import https from 'node:https';
import { answerDecoder } from './answer-decoder.js';

/**
 * One request: the header list is written exactly as given (names, order, case), `Host` included,
 * so the caller supplies it; node:http adds only `Connection` (keep-alive with a keep-alive agent).
 *
 * @example
 * const request: HttpRequest = { url, method: 'POST', headers: ['Host', url.host, 'Content-Length', '2'], body: '{}', agent: false, maxAnswerBytes: 1024 };
 */
export interface HttpRequest {
  url: URL;
  method: string;
  /** Names and values alternating, as `IncomingMessage.rawHeaders`. */
  headers: readonly string[];
  body: Uint8Array | string;
  /** A keep-alive agent for the URL's protocol, or `false` for a fresh connection closed after the answer. */
  agent: http.Agent | false;
  /** The answer's body is read to its end and kept up to this many bytes. */
  maxAnswerBytes: number;
  /** Keep a `gzip` or `deflate` answer body decoded (`maxAnswerBytes` then counts decoded bytes). */
  decodeAnswer?: boolean;
}

/**
 * The answer, as far as it came: its head, and its body up to `maxAnswerBytes`.
 *
 * @example
 * if (outcome.answer) console.log(outcome.answer.status, outcome.answer.body.toString());
 */
export interface HttpAnswer {
  status: number;
  statusText: string;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/**
 * How a request ended: an answer read to its end; or an error, with the answer's head when it came
 * before the error (an answer cut off).
 *
 * @example
 * sendHttpRequest(request, ({ answer, error }) => console.log(answer?.status ?? error?.code));
 */
export interface HttpOutcome {
  answer: HttpAnswer | undefined;
  error: (Error & { code?: string }) | undefined;
  /** Real milliseconds from the call to the end. */
  durationMs: number;
}

/**
 * A request in flight: `abort(error)` ends it now with that error (reported once, synchronously).
 *
 * @example
 * const inFlight = sendHttpRequest(request, console.log);
 * inFlight.abort(new Error('no answer within 5000 ms'));
 */
export interface HttpInFlight {
  abort(error: Error): void;
}

/**
 * Sends one request (no redirect followed) and reports its outcome once through `onDone`. Never
 * throws: a header node:http refuses (an invalid character) is reported as the error, nothing sent.
 *
 * @example
 * sendHttpRequest({ url, method: 'POST', headers: ['Host', url.host, 'Content-Length', '2'], body: '{}', agent: false, maxAnswerBytes: 1024 }, (o) => console.log(o.answer?.status));
 */
export function sendHttpRequest(request: HttpRequest, onDone: (outcome: HttpOutcome) => void): HttpInFlight {
  const started = performance.now();
  let done = false;
  let answer: HttpAnswer | undefined;
  let req: http.ClientRequest | undefined;
  const finish = (error: (Error & { code?: string }) | undefined) => {
    if (done) return;
    done = true;
    onDone({ answer, error, durationMs: Math.round((performance.now() - started) * 100) / 100 });
  };
  const { url } = request;
  try {
    req = (url.protocol === 'https:' ? https : http).request({
      protocol: url.protocol,
      hostname: url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname,
      port: url.port || undefined,
      path: `${url.pathname}${url.search}`,
      method: request.method,
      headers: request.headers as string[],
      agent: request.agent,
    });
  } catch (error) {
    finish(error as Error);
    return { abort: () => {} };
  }
  // An answer may still come just after a write error (a receiver that answers, then closes before
  // reading the whole body): an error before any answer is reported one turn later.
  req.on('error', (error) => (answer ? finish(error) : setImmediate(() => finish(error))));
  req.on('response', (res) => {
    const chunks: Buffer[] = [];
    let kept = 0;
    answer = { status: res.statusCode ?? 0, statusText: res.statusMessage ?? '', headers: res.headers, body: EMPTY };
    const take = (chunk: Buffer) => {
      if (kept < request.maxAnswerBytes) {
        chunks.push(chunk);
        kept += chunk.length;
      }
      return kept >= request.maxAnswerBytes;
    };
    const decoder = request.decodeAnswer ? answerDecoder(res.headers['content-encoding'], take) : undefined;
    res.on('data', (chunk: Buffer) => (decoder ? decoder.write(chunk) : take(chunk)));
    const keep = () => {
      if (answer) answer.body = Buffer.concat(chunks).subarray(0, request.maxAnswerBytes);
    };
    res.on('end', () => {
      // Reported on the next tick, once node:http has put the socket back in its agent's free list:
      // a request sent from `onDone` then reuses it instead of opening a new connection.
      const end = () => {
        keep();
        process.nextTick(finish, undefined);
      };
      if (decoder) decoder.end(end);
      else end();
    });
    res.on('error', (error) => {
      keep();
      finish(error);
    });
    res.on('close', () => {
      if (decoder && res.complete) return; // reported once decoded, from 'end'
      keep();
      finish(res.complete ? undefined : cutOff());
    });
  });
  // Bytes, never a string: node:http writes the head with a string body in that body's encoding
  // (UTF-8), and a header value's Latin-1 characters must go out as single bytes.
  req.end(typeof request.body === 'string' ? Buffer.from(request.body) : request.body);
  return {
    abort(error: Error) {
      if (done) return; // ended already: its socket may be serving another request now
      finish(error);
      req?.destroy();
    },
  };
}

const EMPTY = Buffer.alloc(0);

function cutOff(): Error & { code: string } {
  return Object.assign(new Error('the answer was cut off before its end'), { code: 'ECONNRESET' });
}
