// The emulator's one HTTP client (deliveries, `listen`'s forwarding, `conformance`'s probes): node:http.
// Not undici: undici writes `host` and `connection` first and `content-length` last, in lower case,
// whatever the caller gives; node:http writes the names, order and case given, and a sender emulator
// must send the bytes its sender sends.
import http from 'node:http';
import https from 'node:https';
import type net from 'node:net';
import { answerDecoder } from './answer-decoder.js';

/**
 * One request: the header list is written exactly as given (names, order, case), `Host` included,
 * so the caller supplies it; node:http adds only `Connection` (`close`, or `keep-alive` with a
 * keep-alive agent).
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
  /**
   * The agent to send through; none of the emulator's reuses a connection: deliveries go through
   * `EndpointAgents` (`Connection: close`), a conformance probe through a keep-alive agent of its own,
   * destroyed after its answer; `false` is Node's default, a connection closed after the answer.
   */
  agent: http.Agent | false;
  /** The answer's body is read to its end and kept up to this many bytes. */
  maxAnswerBytes: number;
  /** Keep a `gzip` or `deflate` answer body decoded (`maxAnswerBytes` then counts decoded bytes). */
  decodeAnswer?: boolean;
  /**
   * Read at most this many bytes of the answer's body (as they came, before decoding): past it the
   * rest is not read, the connection is closed and the answer reported with `bodyEnded: false`.
   * Default: read to the end.
   */
  maxReadBytes?: number;
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
  /** False when the body was not read to its end (longer than `maxReadBytes`). */
  bodyEnded: boolean;
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
  /** True when node:http refused to write the request (the error says why): no byte was sent. */
  notSent: boolean;
  /** The last interim (1xx) answer's status line, e.g. `102 Processing`, when one came. */
  interim: string | undefined;
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
 * Sends one request (no redirect followed) on a connection of its own and reports its outcome once
 * through `onDone`. Never throws: a request node:http refuses to write (an invalid header character)
 * is reported with `notSent`. A 101 answer (an upgrade nobody asked for) is an error; other 1xx are
 * interim, reported if no final answer follows.
 *
 * @example
 * sendHttpRequest({ url, method: 'POST', headers: ['Host', url.host, 'Content-Length', '2'], body: '{}', agent: false, maxAnswerBytes: 1024 }, (o) => console.log(o.answer?.status));
 */
export function sendHttpRequest(request: HttpRequest, onDone: (outcome: HttpOutcome) => void): HttpInFlight {
  const started = performance.now();
  let done = false;
  let answer: HttpAnswer | undefined;
  let interim: string | undefined;
  const finish = (error: (Error & { code?: string }) | undefined, notSent = false) => {
    if (done) return;
    done = true;
    const durationMs = Math.round((performance.now() - started) * 100) / 100;
    onDone({ answer, error, durationMs, notSent, interim });
  };
  let req: http.ClientRequest;
  try {
    req = openRequest(request);
  } catch (error) {
    finish(error as Error, true);
    return { abort: () => undefined };
  }
  // An answer may still come just after a write error (a receiver that answers, then closes before
  // reading the whole body): an error before any answer is reported one turn later.
  req.on('error', (error) => {
    if (answer) finish(error);
    else setImmediate(() => finish(error));
  });
  req.on('information', (info: { statusCode: number; statusMessage: string }) => {
    interim = `${info.statusCode} ${info.statusMessage}`.trim();
  });
  req.on('upgrade', (res: http.IncomingMessage, socket: net.Socket) => {
    socket.destroy();
    const head = { status: res.statusCode ?? 101, statusText: res.statusMessage ?? '', headers: res.headers };
    answer = { ...head, body: EMPTY, bodyEnded: false };
    finish(upgradeAnswer(answer));
  });
  req.on('response', (res) => {
    readAnswer(
      res,
      request,
      (read) => (answer = read),
      finish,
      () => req.destroy(),
    );
  });
  // Bytes, never a string: node:http writes the head with a string body in that body's encoding
  // (UTF-8), and a header value's Latin-1 characters must go out as single bytes.
  req.end(typeof request.body === 'string' ? Buffer.from(request.body) : request.body);
  return {
    abort(error: Error) {
      if (done) return;
      finish(error);
      req.destroy();
    },
  };
}

/** The node:http request, not yet sent (its socket comes on a later tick). */
function openRequest(request: HttpRequest): http.ClientRequest {
  const { url } = request;
  return (url.protocol === 'https:' ? https : http).request({
    protocol: url.protocol,
    hostname: url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname,
    port: url.port || undefined,
    path: `${url.pathname}${url.search}`,
    method: request.method,
    headers: headerObject(request.headers),
    agent: request.agent,
  });
}

/**
 * The header list as an object node:http writes in insertion order with each name's case. Not the flat
 * list itself: OpenTelemetry's HTTP instrumentation copies `headers` into an object to add `traceparent`,
 * and a list copied so becomes names "0", "1", …. A name given twice (in any case) keeps its first
 * spelling and its values in order, as one array node:http writes as repeated lines. (An integer-like
 * name, such as `1`, would go first: objects order such keys so; no sender sends one.)
 */
function headerObject(list: readonly string[]): Record<string, string | string[]> {
  // No prototype: a header named `__proto__` stays a header.
  const headers = Object.create(null) as Record<string, string | string[]>;
  const spelled = new Map<string, string>();
  for (let i = 0; i + 1 < list.length; i += 2) {
    const name = list[i] as string;
    const value = list[i + 1] as string;
    const lower = name.toLowerCase();
    const first = spelled.get(lower);
    if (first === undefined) {
      spelled.set(lower, name);
      headers[name] = value;
      continue;
    }
    const kept = headers[first] as string | string[];
    headers[first] = typeof kept === 'string' ? [kept, value] : [...kept, value];
  }
  return headers;
}

/**
 * Reads an answer's body: kept up to `maxAnswerBytes` (decoded when asked), read up to `maxReadBytes`
 * (then the connection is closed by `close` and the answer reported with `bodyEnded: false`).
 */
function readAnswer(
  res: http.IncomingMessage,
  request: HttpRequest,
  start: (answer: HttpAnswer) => void,
  finish: (error: (Error & { code?: string }) | undefined) => void,
  close: () => void,
): void {
  const chunks: Buffer[] = [];
  let kept = 0;
  let read = 0;
  const answer: HttpAnswer = {
    status: res.statusCode ?? 0,
    statusText: res.statusMessage ?? '',
    headers: res.headers,
    body: EMPTY,
    bodyEnded: true,
  };
  start(answer);
  const take = (chunk: Buffer) => {
    if (kept < request.maxAnswerBytes) {
      chunks.push(chunk);
      kept += chunk.length;
    }
    return kept >= request.maxAnswerBytes;
  };
  const keep = () => {
    answer.body = Buffer.concat(chunks).subarray(0, request.maxAnswerBytes);
  };
  const decoder = request.decodeAnswer ? answerDecoder(res.headers['content-encoding'], take) : undefined;
  const limit = request.maxReadBytes ?? Infinity;
  const onClose = () => {
    if (decoder && res.complete) return; // reported once decoded, from 'end'
    keep();
    finish(res.complete ? undefined : cutOff());
  };
  const onData = (chunk: Buffer) => {
    read += chunk.length;
    if (decoder) decoder.write(chunk);
    else take(chunk);
    if (read <= limit) return;
    // Over the budget: the rest is not read; the connection, with its unread bytes, is closed.
    res.removeListener('data', onData);
    res.removeListener('close', onClose);
    answer.bodyEnded = false;
    const report = () => {
      keep();
      finish(undefined);
      close();
    };
    if (decoder) decoder.end(report);
    else report();
  };
  res.on('data', onData);
  res.on('close', onClose);
  res.on('end', () => {
    const end = () => {
      keep();
      finish(undefined);
    };
    if (decoder) decoder.end(end);
    else end();
  });
  res.on('error', (error) => {
    keep();
    finish(error);
  });
}

const EMPTY = Buffer.alloc(0);

/**
 * The code of the error for a 101 answer: the endpoint switched protocols, which no delivery asks
 * for (a request without `Upgrade` must not get a 101), so there is no answer to it.
 *
 * @example
 * if (outcome.error?.code === UPGRADE_ANSWER) console.log('switched protocols');
 */
export const UPGRADE_ANSWER = 'ERR_UPGRADE_ANSWER';

function upgradeAnswer(answer: HttpAnswer): Error & { code: string } {
  const line = `${answer.status} ${answer.statusText}`.trim();
  return Object.assign(
    new Error(`${line}: the endpoint switched protocols instead of answering (no upgrade was asked for)`),
    {
      code: UPGRADE_ANSWER,
    },
  );
}

function cutOff(): Error & { code: string } {
  return Object.assign(new Error('the answer was cut off before its end'), { code: 'ECONNRESET' });
}
