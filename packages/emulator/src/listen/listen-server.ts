import { urlIssue } from '../sendable-fields.js';
import type http from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Secret } from '@hookgate/core';
import { endUnreadBody } from '@hookgate/core/adapter';
import { redactUrl } from '../debug-log.js';
import { createInspector, INSPECTOR_ROUTES } from '../inspector/inspector-routes.js';
import { JSON_VIEW_HEADERS, LocalServerGuard } from '../inspector/request-guard.js';
import { isLoopbackHost } from '../inspector/inspector-options.js';
import { closeBoundedServer, createBoundedServer, type ServerTimeouts } from '../server-timeouts.js';
import { inboundFeed } from './inbound-feed.js';
import { forwardRequest, hopByHopHeaders } from './forward-request.js';
import { DEFAULT_LISTEN_LOG_BYTES, InboundLog } from './inbound-log.js';
import type { InboundForward, InboundRecord, InboundVerdict } from './inbound-record.js';
import { judgeSignature, maskHeaders, maskPath, MAX_VIEW_BODY_CHARS, summarize } from './inspect-inbound.js';

/**
 * The sender's answer budget: a receiver slower than this would have been retried.
 *
 * @example
 * if (record.forward && record.forward.durationMs > SENDER_BUDGET_MS) console.warn('too slow for the sender');
 */
export const SENDER_BUDGET_MS = 5000;

/**
 * How `listen` runs.
 *
 * @example
 * const options: ListenOptions = { secret: 's3cret', forwardTo: 'http://127.0.0.1:3000/webhooks', port: 9000 };
 */
export interface ListenOptions {
  /**
   * The shared secret, or several during a rotation (the first is current). Omitted (or `[]`):
   * a catch-all that records and forwards every request, each marked not verified, and answers 200
   * when not forwarding.
   */
  secret?: Secret | readonly Secret[];
  /** The user's local receiver: every request is sent there with its exact bytes and headers. */
  forwardTo?: string | URL;
  /** Default 0 (an ephemeral port). */
  port?: number;
  /** Default `127.0.0.1`. Any other host needs `uiToken`. */
  host?: string;
  /**
   * Guards `/_hookgate/*` (the JSON views: `Authorization: Bearer <token>`, `X-Hookgate-Token` or
   * `?token=`) and the web inspector at `/` (open `/?token=…` once: it becomes a cookie).
   */
  uiToken?: string;
  /** Time limits of the server: headers within 10 s, the whole request within 30 s, idle keep-alive 30 s by default. */
  timeouts?: ServerTimeouts;
  /** Bodies over this many bytes get 413 and are recorded as too large. Default 1 MiB. */
  maxBodyBytes?: number;
  /** How long to wait for the local receiver. Default 30 s (answers past 5 s are flagged `slow`). */
  forwardTimeoutMs?: number;
  /** Requests kept in memory for the views; older ones are dropped (and counted). Default 10,000. */
  maxRecords?: number;
  /**
   * Bytes of requests kept in memory for the views (each measured as its JSON view; at most 64 KiB of
   * a body is kept): past it, the oldest are dropped first (and counted); the newest is always kept.
   * Default 100 MiB (`DEFAULT_LISTEN_LOG_BYTES`).
   */
  maxLogBytes?: number;
}

/**
 * A running `listen`: its URL, its log of inbound requests, and `close()`.
 *
 * @example
 * const listener = await startListener({ secret: 's3cret' });
 * listener.log.subscribe((r) => console.log(r.verdict.ok ? 'verified' : r.verdict.message));
 * await listener.close();
 */
export interface Listener {
  /** `http://HOST:PORT` */
  readonly url: string;
  readonly port: number;
  readonly log: InboundLog;
  /** The web inspector's page (`http://HOST:PORT/`): the inbound requests, live. */
  readonly inspectorUrl: string;
  /** The underlying `node:http` server. */
  readonly server: http.Server;
  close(): Promise<void>;
}

function checkOptions(options: ListenOptions): {
  forwardTo?: URL;
  host: string;
  maxBodyBytes: number;
  forwardTimeoutMs: number;
  maxRecords: number;
  maxLogBytes: number;
  secrets: readonly Secret[];
} {
  if (typeof options !== 'object' || options === null)
    throw new TypeError('startListener(options): pass { secret, forwardTo?, port?, host? }.');
  const secrets = (
    options.secret === undefined ? [] : Array.isArray(options.secret) ? options.secret : [options.secret]
  ) as readonly Secret[];
  if (secrets.some((s) => !(typeof s === 'string' || s instanceof Uint8Array) || s.length === 0)) {
    throw new TypeError(
      'listen: secret must be a non-empty string (or several, for a rotation; or none, to record without verifying); it is what the sender signs with.',
    );
  }
  const host = options.host ?? '127.0.0.1';
  if (!isLoopbackHost(host) && (options.uiToken === undefined || options.uiToken.length < 16)) {
    throw new Error(
      `listen: host ${JSON.stringify(host)} is reachable from other machines; set a token of at least 16 characters for the views (--ui-token or HOOKGATE_UI_TOKEN), or bind 127.0.0.1.`,
    );
  }
  let forwardTo: URL | undefined;
  if (options.forwardTo !== undefined) {
    const issue = urlIssue(String(options.forwardTo));
    if (issue !== undefined) throw new TypeError(`listen: forwardTo ${issue}.`);
    try {
      forwardTo = new URL(String(options.forwardTo));
    } catch {
      throw new TypeError('listen: forwardTo must be a full http(s) URL, e.g. http://127.0.0.1:3000/webhooks.');
    }
    if (forwardTo.protocol !== 'http:' && forwardTo.protocol !== 'https:') {
      throw new TypeError(`listen: forwardTo must use http or https (got ${JSON.stringify(forwardTo.protocol)}).`);
    }
  }
  const positive = (name: string, value: number | undefined, fallback: number) => {
    const v = value ?? fallback;
    if (!Number.isInteger(v) || v < 1)
      throw new RangeError(`listen: ${name} must be a whole number ≥ 1 (got ${String(value)}).`);
    return v;
  };
  return {
    secrets,
    host,
    forwardTo,
    maxBodyBytes: positive('maxBodyBytes', options.maxBodyBytes, 1024 * 1024),
    forwardTimeoutMs: positive('forwardTimeoutMs', options.forwardTimeoutMs, 30_000),
    maxRecords: positive('maxRecords', options.maxRecords, 10_000),
    maxLogBytes: positive('maxLogBytes', options.maxLogBytes, DEFAULT_LISTEN_LOG_BYTES),
  };
}

function sendJson(res: http.ServerResponse, status: number, value: unknown, extra: Record<string, string> = {}): void {
  const body = JSON.stringify(value);
  res.writeHead(status, {
    ...JSON_VIEW_HEADERS,
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(body),
    ...extra,
  });
  res.end(body);
}

const HOP_SIGNATURE_MESSAGE =
  'X-Signature is named in the Connection header, which makes it a hop-by-hop header (RFC 9110 section 7.6.1): it is not part of the message, so it is not checked and not forwarded. The sender never does this; remove X-Signature from Connection.';

/**
 * Starts `listen`: records every request that reaches it, verifies its signature over the exact bytes,
 * forwards those bytes and headers to `forwardTo` and answers the sender with what that receiver
 * answered (502 when it is unreachable, 504 when it does not answer in `forwardTimeoutMs`). Without
 * `forwardTo` it answers 200 to a verified request and 401 to any other. The views live under
 * `/_hookgate/`: `GET /_hookgate/inbound` (newest first), `GET /_hookgate/inbound/:id` and the live
 * stream `GET /_hookgate/inbound/events` (server-sent events); `GET /` is the web inspector's page
 * (its "Inbound" tab), with the inspector's guard (loopback `Host`, or `uiToken`).
 *
 * @example
 * const listener = await startListener({ secret: 's3cret', forwardTo: 'http://127.0.0.1:3000/webhooks', port: 9000 });
 * // point the sender (or a tunnel) at http://127.0.0.1:9000/
 */
export async function startListener(options: ListenOptions): Promise<Listener> {
  const o = checkOptions(options);
  const log = new InboundLog(o.maxRecords, o.maxLogBytes);
  const streams = new Set<http.ServerResponse>();
  let sequence = 0;
  // The web inspector, with one feed: these requests (already masked). No emulator: no deliveries tab.
  // One guard for the page and every view: loopback (or the bound host) in Host, and the token when set.
  const guard = new LocalServerGuard({ token: options.uiToken, host: o.host });
  const inspector = createInspector(undefined, { token: options.uiToken }, guard);
  inspector.addFeed(inboundFeed(log));
  const isInspectorPath = (path: string, method: string) =>
    path.startsWith(INSPECTOR_ROUTES.assets) ||
    path === INSPECTOR_ROUTES.events ||
    ((path === INSPECTOR_ROUTES.page || path === '/index.html') && (method === 'GET' || method === 'HEAD'));

  const views = (req: http.IncomingMessage, res: http.ServerResponse, url: URL) => {
    const denied = guard.check(req, url);
    if (denied) {
      endUnreadBody(req, res);
      sendJson(res, denied.status, { error: denied.message });
      return;
    }
    if (req.method !== 'GET') {
      sendJson(res, 405, { error: 'the views answer GET only' }, { allow: 'GET' });
      return;
    }
    const path = url.pathname;
    if (path === '/_hookgate/health')
      return sendJson(res, 200, { ok: true, mode: 'listen', requests: log.records.length });
    if (path === '/_hookgate/inbound') {
      const requests = [...log.records].reverse();
      return sendJson(res, 200, { total: requests.length, dropped: log.dropped, order: 'newest first', requests });
    }
    if (path === '/_hookgate/inbound/events') {
      res.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-store',
        connection: 'keep-alive',
      });
      res.write(': hookgate listen\n\n');
      streams.add(res);
      const stop = log.subscribe((record) => res.write(`event: request\ndata: ${JSON.stringify(record)}\n\n`));
      res.on('close', () => {
        stop();
        streams.delete(res);
      });
      return;
    }
    const one = /^\/_hookgate\/inbound\/([^/]+)$/.exec(path);
    if (one) {
      const record = log.get(decodeURIComponent(one[1] as string));
      return record ? sendJson(res, 200, record) : sendJson(res, 404, { error: `no request ${one[1]} in the log` });
    }
    sendJson(res, 404, { error: `no view at ${path}; see /_hookgate/inbound` });
  };

  const record = async (req: http.IncomingMessage, res: http.ServerResponse) => {
    const started = performance.now();
    const receivedAt = new Date().toISOString();
    const id = `in_${++sequence}`;
    const base = {
      id,
      receivedAt,
      method: req.method ?? 'GET',
      path: maskPath(req.url ?? '/'),
      headers: maskHeaders(req.rawHeaders),
    };
    const declared = Number(req.headers['content-length']);
    const tooLarge = (size: number) => {
      const verdict: InboundVerdict = {
        ok: false,
        reason: 'too_large',
        message: `The body is over ${o.maxBodyBytes} bytes (--max-body-bytes); answered 413 and not forwarded.`,
        findings: [],
      };
      log.add({
        ...base,
        bodyBytes: size,
        body: '',
        bodyTruncated: true,
        verdict,
        answeredStatus: 413,
        durationMs: Math.round(performance.now() - started),
      });
      // The rest of the upload is read and dropped (core's drain), so a client still writing reads the 413, not a reset.
      endUnreadBody(req, res);
      sendJson(res, 413, { error: 'payload_too_large', limit: o.maxBodyBytes });
    };
    if (Number.isFinite(declared) && declared > o.maxBodyBytes) return tooLarge(declared);
    const chunks: Buffer[] = [];
    let size = 0;
    let over = false;
    try {
      await new Promise<void>((resolve, reject) => {
        req.on('data', (chunk: Buffer) => {
          if (over) return;
          size += chunk.length;
          if (size > o.maxBodyBytes) {
            over = true;
            resolve();
            return;
          }
          chunks.push(chunk);
        });
        req.on('end', resolve);
        req.on('error', reject);
        req.on('close', () =>
          req.complete ? resolve() : reject(new Error('the request closed before its body ended')),
        );
      });
    } catch {
      return; // the sender went away mid-body: nothing to answer
    }
    if (over) return tooLarge(size);
    const body = Buffer.concat(chunks);
    const text = body.toString('utf8');
    const verdict: InboundVerdict =
      o.secrets.length === 0
        ? {
            ok: false,
            reason: 'not_verified',
            message: 'not verified: listen runs without a secret (give --secret to check signatures)',
            findings: [],
          }
        : hopByHopHeaders(req.rawHeaders).has('x-signature')
          ? // Named in Connection, the signature belongs to this hop, not to the message: it is neither checked
            // nor forwarded, so the verdict is what the receiver behind listen will see (no signature).
            { ok: false, reason: 'missing', message: HOP_SIGNATURE_MESSAGE, findings: [] }
          : judgeSignature(req.headers['x-signature'], o.secrets, body);
    let forward: InboundForward | undefined;
    let status: number;
    if (o.forwardTo) {
      const answer = await forwardRequest({
        url: o.forwardTo,
        method: req.method ?? 'POST',
        rawHeaders: req.rawHeaders,
        body,
        timeoutMs: o.forwardTimeoutMs,
      });
      forward = {
        url: redactUrl(o.forwardTo),
        status: answer.status,
        error: answer.error,
        timedOut: answer.timedOut,
        durationMs: answer.durationMs,
        slow: answer.timedOut || answer.durationMs > SENDER_BUDGET_MS,
        bodyStart: answer.body ? answer.body.toString('utf8').slice(0, 512) : undefined,
      };
      if (answer.status !== undefined) {
        status = answer.status;
        const headers: Record<string, string> = { 'content-length': String(answer.body?.length ?? 0) };
        const type = answer.headers?.['content-type'];
        if (type) headers['content-type'] = type;
        res.writeHead(status, headers);
        res.end(answer.body);
      } else {
        status = answer.timedOut ? 504 : 502;
        sendJson(res, status, {
          error: answer.timedOut ? 'the local receiver did not answer in time' : 'the local receiver is unreachable',
        });
      }
    } else {
      // Without a secret, listen is a catch-all: every request is accepted, none is verified.
      status = verdict.ok || verdict.reason === 'not_verified' ? 200 : 401;
      sendJson(
        res,
        status,
        verdict.ok ? { verified: true } : { verified: false, reason: verdict.reason, message: verdict.message },
      );
    }
    log.add({
      ...base,
      bodyBytes: body.length,
      body: text.length > MAX_VIEW_BODY_CHARS ? text.slice(0, MAX_VIEW_BODY_CHARS) : text,
      bodyTruncated: text.length > MAX_VIEW_BODY_CHARS,
      ...summarize(text, {
        method: req.method,
        userAgent: req.headers['user-agent'],
        signed: req.headers['x-signature'] !== undefined,
      }),
      verdict,
      forward,
      answeredStatus: status,
      durationMs: Math.round(performance.now() - started),
    } satisfies InboundRecord);
  };

  const server = createBoundedServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://listen.invalid');
    const method = req.method ?? 'GET';
    // GET / is the page; a webhook POSTed to / (or anywhere else) is recorded.
    if (isInspectorPath(url.pathname, method) && inspector.handle(req, res, url.pathname, method, url)) return;
    // The browser showing the page asks for an icon; no sender does: not a webhook, not recorded.
    if (url.pathname === '/favicon.ico' && (method === 'GET' || method === 'HEAD'))
      return sendJson(res, 404, { error: 'no icon' });
    if (url.pathname.startsWith('/_hookgate/')) return views(req, res, url);
    record(req, res).catch((error: unknown) => {
      if (!res.headersSent) sendJson(res, 500, { error: `listen failed: ${(error as Error).message}` });
    });
  }, options.timeouts);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, o.host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const shownHost = o.host.includes(':') ? `[${o.host}]` : o.host;
  return {
    url: `http://${shownHost}:${port}`,
    inspectorUrl: `http://${shownHost}:${port}/`,
    port,
    server,
    log,
    close: () =>
      new Promise<void>((resolve) => {
        inspector.close();
        for (const s of streams) s.end();
        closeBoundedServer(server, () => resolve());
      }),
  };
}
