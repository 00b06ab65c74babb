import http from 'node:http';
import https from 'node:https';
import type { AttemptError } from '../log/delivery-record.js';
import type { TlsOptions } from '../options.js';

/** What came back from one request: an answer (status, headers of interest, body start) or an error. */
export interface AttemptResult {
  status: number | undefined;
  statusText: string | undefined;
  responseHeaders: Record<string, string> | undefined;
  responseBody: string | undefined;
  error: AttemptError | undefined;
  /** Real milliseconds from start to end. */
  durationMs: number;
}

/** A request in flight; `abort` ends it with the given error (reported once, synchronously). */
export interface AttemptHandle {
  abort(error: AttemptError): void;
}

const RESPONSE_BODY_LIMIT = 1024;

const TLS_CODES = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'CERT_UNTRUSTED',
  'CERT_REVOKED',
  'CERT_SIGNATURE_FAILURE',
  'CERT_REJECTED',
  'HOSTNAME_MISMATCH',
  'EPROTO',
]);

/**
 * Names a Node request error: `tls` for certificate and handshake failures, `protocol` for a
 * malformed answer, `connection` for the rest (refused, reset, unreachable, DNS).
 *
 * @example
 * classifyNodeError(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' })).code; // 'connection'
 */
export function classifyNodeError(e: Error & { code?: string }): AttemptError {
  const cause = typeof e.code === 'string' ? e.code : undefined;
  const text = cause && !e.message.includes(cause) ? `${cause}: ${e.message}` : e.message;
  if (cause && (TLS_CODES.has(cause) || cause.startsWith('ERR_TLS') || cause.startsWith('ERR_SSL') || cause.startsWith('CERT_'))) {
    return { code: 'tls', message: `TLS handshake failed, no request sent: ${text}`, cause };
  }
  if (cause?.startsWith('HPE_')) return { code: 'protocol', message: `malformed answer: ${text}`, cause };
  return { code: 'connection', message: text, ...(cause ? { cause } : {}) };
}

/**
 * Keep-alive agents, one per endpoint origin (DESIGN measured node:http keep-alive at ~7× fetch).
 *
 * @example
 * const pool = new AgentPool({ ca: pem });
 * const agent = pool.get(new URL('https://127.0.0.1:8443/hook'));
 */
export class AgentPool {
  readonly #agents = new Map<string, http.Agent>();
  /** Endpoint URL objects already looked up (reading `url.origin` builds a string each time). */
  readonly #byUrl = new WeakMap<URL, http.Agent>();
  constructor(private readonly tls: TlsOptions) {}

  /** The agent for a URL's origin, created on first use. */
  get(url: URL): http.Agent {
    const known = this.#byUrl.get(url);
    if (known) return known;
    const key = url.origin;
    let agent = this.#agents.get(key);
    if (!agent) {
      agent =
        url.protocol === 'https:'
          ? new https.Agent({ keepAlive: true, scheduling: 'lifo', ...(this.tls.ca ? { ca: this.tls.ca } : {}) })
          : new http.Agent({ keepAlive: true, scheduling: 'lifo' });
      this.#agents.set(key, agent);
    }
    this.#byUrl.set(url, agent);
    return agent;
  }

  /** Closes every socket. */
  destroy(): void {
    for (const agent of this.#agents.values()) agent.destroy();
    this.#agents.clear();
  }
}

/** Short answers ("ok", "{}") repeat across thousands of attempts: keep one copy of each. */
const shortAnswers = new Map<string, string>();

function responseText(bytes: Buffer): string {
  const text = bytes.subarray(0, RESPONSE_BODY_LIMIT).toString('utf8');
  if (text.length > 64) return text;
  const known = shortAnswers.get(text);
  if (known !== undefined) return known;
  if (shortAnswers.size < 1000) shortAnswers.set(text, text);
  return text;
}

interface RequestTarget {
  protocol: string;
  hostname: string;
  port: string;
  path: string;
  auth: string | undefined;
}

const targets = new WeakMap<URL, RequestTarget>();

/** The request options of a URL, computed once per endpoint. */
function targetOf(url: URL): RequestTarget {
  let t = targets.get(url);
  if (!t) {
    t = {
      protocol: url.protocol,
      hostname: url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname,
      port: url.port,
      path: `${url.pathname}${url.search}`,
      auth: url.username ? `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}` : undefined,
    };
    targets.set(url, t);
  }
  return t;
}

/** The state of one request in flight, kept on the request object so that no listener is a closure. */
class InFlightRequest implements AttemptHandle {
  readonly started = performance.now();
  done = false;
  status: number | undefined = undefined;
  statusText: string | undefined = undefined;
  responseHeaders: Record<string, string> | undefined = undefined;
  first: Buffer | undefined = undefined;
  more: Buffer[] | undefined = undefined;
  size = 0;
  request: http.ClientRequest | undefined = undefined;

  constructor(readonly onDone: (result: AttemptResult) => void) {}

  finish(error: AttemptError | undefined, responseBody: string | undefined): void {
    if (this.done) return;
    this.done = true;
    // Let go of the request and the answer's chunks at once: whoever still holds this handle (the
    // engine's entry, a V8 remembered-set slot of an object promoted while the request was in flight)
    // must not keep the request's object graph alive. Holding it made each request's garbage survive
    // young-generation GCs: ≈ 2.5 KB promoted to old space per attempt, ≈ 200 MB of the peak RSS
    // with 100,000 first attempts (bench/README.md, emulator section).
    this.request = undefined;
    this.first = undefined;
    this.more = undefined;
    this.onDone({
      status: this.status,
      statusText: this.statusText,
      responseHeaders: this.responseHeaders,
      responseBody,
      error,
      durationMs: Math.round((performance.now() - this.started) * 100) / 100,
    });
  }

  abort(error: AttemptError): void {
    const request = this.request;
    this.finish(error, undefined);
    request?.destroy();
  }
}

const STATE = Symbol('hookgate.attempt');
type Tagged = { [STATE]?: InFlightRequest };

function onResponse(this: http.ClientRequest, res: http.IncomingMessage): void {
  const state = (this as Tagged)[STATE] as InFlightRequest;
  state.status = res.statusCode ?? 0;
  state.statusText = res.statusMessage;
  const retryAfter = res.headers['retry-after'];
  const location = res.headers.location;
  if (retryAfter !== undefined || location !== undefined) {
    const picked: Record<string, string> = {};
    if (retryAfter !== undefined) picked['retry-after'] = String(retryAfter);
    if (location !== undefined) picked.location = location;
    state.responseHeaders = picked;
  }
  res.on('data', onData);
  res.on('end', onEnd);
  res.on('close', onClose);
  res.on('error', onClose); // an aborted answer (timeout, close()): `close` reports it
}

function stateOf(res: http.IncomingMessage): InFlightRequest {
  return ((res as unknown as { req: Tagged }).req[STATE]) as InFlightRequest;
}

function onData(this: http.IncomingMessage, chunk: Buffer): void {
  const state = stateOf(this);
  if (state.done || state.size >= RESPONSE_BODY_LIMIT) return;
  state.size += chunk.length;
  if (!state.first) state.first = chunk;
  else (state.more ??= [state.first]).push(chunk);
}

function onEnd(this: http.IncomingMessage): void {
  const state = stateOf(this);
  const bytes = state.more ? Buffer.concat(state.more) : state.first;
  state.finish(undefined, bytes && bytes.length > 0 ? responseText(bytes) : undefined);
}

function onClose(this: http.IncomingMessage): void {
  if (this.complete) return;
  const state = stateOf(this);
  state.finish({ code: 'connection', message: `the answer (${state.status}) was cut off before its end` }, undefined);
}

function onRequestError(this: http.ClientRequest, e: Error & { code?: string }): void {
  ((this as Tagged)[STATE] as InFlightRequest).finish(classifyNodeError(e), undefined);
}

/**
 * Sends one POST (no redirect followed, `Content-Length` set, keep-alive) and reports its result
 * once through `onDone`: the status when the whole answer has been read, or the error.
 *
 * @example
 * const handle = sendAttempt(url, agent, headers, body, (result) => console.log(result.status ?? result.error));
 * handle.abort({ code: 'timeout', message: 'no answer within 5000 ms' });
 */
export function sendAttempt(
  url: URL,
  agent: http.Agent,
  headers: Readonly<Record<string, string>>,
  body: Uint8Array,
  onDone: (result: AttemptResult) => void,
): AttemptHandle {
  const state = new InFlightRequest(onDone);
  const t = targetOf(url);
  let request: http.ClientRequest;
  try {
    request = (t.protocol === 'https:' ? https : http).request({
      protocol: t.protocol,
      hostname: t.hostname,
      port: t.port,
      path: t.path,
      auth: t.auth,
      method: 'POST',
      agent,
      headers: headers as http.OutgoingHttpHeaders,
    });
  } catch (e) {
    state.finish(classifyNodeError(e as Error), undefined);
    return state;
  }
  state.request = request;
  (request as Tagged)[STATE] = state;
  request.on('response', onResponse);
  request.on('error', onRequestError);
  request.end(body);
  return state;
}
