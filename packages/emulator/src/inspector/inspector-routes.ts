import type http from 'node:http';
import { MESSAGE_TYPES } from '@hookgate/core';
import { EmulatorClosedError, ReplayError } from '../errors.js';
import { redactWriteKey } from '../redact.js';
import { deliveriesFeed } from './deliveries-feed.js';
import { summarizeDelivery, ViewMasks } from './delivery-view.js';
import { EventStream } from './event-stream.js';
import type { FeedAnswer, InspectorFeed } from './inspector-feed.js';
import type { InspectorEngine } from './inspector-engine.js';
import type { InspectorOptions } from './inspector-options.js';
import { checkCsrf, LocalServerGuard, tokenInQuery, TOKEN_COOKIE, type Refusal } from './request-guard.js';
import { sendTestEvent, testEventTemplates } from './send-test-event.js';
import { loadUiAssets } from './ui-assets.js';
import type { InspectorMeta } from './wire-types.js';

/** The inspector's paths. */
export const INSPECTOR_ROUTES = Object.freeze({
  page: '/',
  assets: '/_hookgate/ui/',
  api: '/_hookgate/ui/api/',
  events: '/_hookgate/events',
  sendTest: '/_hookgate/send-test',
});

/**
 * The headers of every inspector answer: a strict Content-Security-Policy (only this origin's files; no
 * inline script or style, no frames, no plugins), no sniffing, same-origin readers only, no referrer, no caching.
 */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'content-security-policy':
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'none'",
  'x-content-type-options': 'nosniff',
  'cross-origin-resource-policy': 'same-origin',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'cache-control': 'no-store',
});

const CONTENT_TYPES = {
  'index.html': 'text/html; charset=utf-8',
  'app.js': 'text/javascript; charset=utf-8',
  'app.css': 'text/css; charset=utf-8',
} as const;
/** The page's icon (a hook on a dark square), served so a browser's icon request is not a 404. */
const FAVICON = Buffer.from(
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><rect width="16" height="16" rx="3" fill="#1d1d1b"/><path d="M9 3v6.5a2.5 2.5 0 0 1-5 0V8" fill="none" stroke="#4cc46a" stroke-width="2" stroke-linecap="round"/></svg>',
);
const ACTION = /^\/_hookgate\/deliveries\/(dlv_\d+)\/(replay|retry)$/;
const MAX_ACTION_BODY = 64 * 1024;

/**
 * The inspector mounted on the intake: `handle` answers the inspector's routes and returns false for
 * any other path; `close` ends the live streams.
 *
 * @example
 * const inspector = createInspector(emulator, {});
 * http.createServer((req, res) => inspector.handle(req, res) || notFound(res));
 */
export interface Inspector {
  handle(req: http.IncomingMessage, res: http.ServerResponse, path: string, method: string, url: URL): boolean;
  /** Other feeds (e.g. inbound requests) to serve beside the deliveries. */
  addFeed(feed: InspectorFeed): void;
  close(): void;
}

function sendJson(res: http.ServerResponse, status: number, body: unknown, extra: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    ...SECURITY_HEADERS,
    ...extra,
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(Buffer.byteLength(text)),
  });
  res.end(text);
}

function refuse(res: http.ServerResponse, refusal: Refusal): void {
  sendJson(res, refusal.status, { error: refusal.message });
}

function readJson(
  req: http.IncomingMessage,
): Promise<{ ok: true; value: unknown } | { ok: false; status: number; message: string }> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let over = false;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_ACTION_BODY) over = true;
      else chunks.push(c);
    });
    req.on('error', () => resolve({ ok: false, status: 400, message: 'The request body could not be read.' }));
    req.on('end', () => {
      if (over)
        return resolve({ ok: false, status: 413, message: `The request body is over ${MAX_ACTION_BODY} bytes.` });
      const text = Buffer.concat(chunks).toString('utf8');
      if (text.length === 0) return resolve({ ok: true, value: undefined });
      try {
        resolve({ ok: true, value: JSON.parse(text) });
      } catch (error) {
        resolve({ ok: false, status: 400, message: `The request body is not JSON: ${(error as Error).message}` });
      }
    });
  });
}

/**
 * Creates the web inspector of an emulator (or, with `engine` undefined, of other feeds only, as
 * `hookgate listen` mounts it: no deliveries, no actions): the page (`GET /`), its files (`/_hookgate/ui/*`), its
 * JSON API (`/_hookgate/ui/api/*`), the live stream (`/_hookgate/events`) and the actions (`POST
 * /_hookgate/deliveries/:id/replay`, `POST /_hookgate/deliveries/:id/retry`, `POST /_hookgate/send-test`).
 *
 * @example
 * const inspector = createInspector(emulator, { token: process.env.HOOKGATE_UI_TOKEN });
 *
 * Every request passes `guard` first (the server's one `LocalServerGuard`; by default one for loopback
 * with `options.token`).
 */
export function createInspector(
  engine: InspectorEngine | undefined,
  options: InspectorOptions = {},
  guard = new LocalServerGuard({ token: options.token }),
): Inspector {
  const token = guard.token;
  const windowMs = options.retryWindowMs ?? 4 * 3_600_000;
  const masks = engine ? new ViewMasks(engine, options.reasonWording) : undefined;
  const feeds = new Map<string, InspectorFeed>();
  if (engine && masks) {
    const deliveries = deliveriesFeed(engine, masks, windowMs);
    feeds.set(deliveries.name, deliveries);
  }
  let stream = new EventStream([...feeds.values()]);

  function answer(res: http.ServerResponse, a: FeedAnswer): void {
    sendJson(res, a.status, a.body);
  }

  async function page(res: http.ServerResponse, file: keyof typeof CONTENT_TYPES): Promise<void> {
    try {
      const assets = await loadUiAssets();
      const body = assets.files[file];
      res.writeHead(200, {
        ...SECURITY_HEADERS,
        'content-type': CONTENT_TYPES[file],
        'content-length': String(body.length),
      });
      res.end(body);
    } catch (error) {
      sendJson(res, 500, { error: (error as Error).message });
    }
  }

  async function act(
    engine: InspectorEngine,
    masks: ViewMasks,
    req: http.IncomingMessage,
    res: http.ServerResponse,
    path: string,
  ): Promise<void> {
    const body = await readJson(req);
    if (!body.ok) return sendJson(res, body.status, { error: body.message });
    try {
      if (path === INSPECTOR_ROUTES.sendTest) {
        const result = sendTestEvent(engine, body.value);
        if (!result.ok)
          return sendJson(res, 400, {
            error: `The message is not valid: ${result.issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`,
            issues: result.issues,
          });
        return sendJson(res, 202, { records: result.records.map((r) => summarizeDelivery(r, masks)) });
      }
      const [, id, action] = ACTION.exec(path) as RegExpExecArray;
      if (action === 'replay') {
        const record = engine.replay(id as string);
        return sendJson(res, 202, { record: summarizeDelivery(record, masks) });
      }
      const record = engine.get(id as string);
      if (!record) return sendJson(res, 404, { error: `No delivery ${id} in the log.` });
      if (!engine.retryNow(id as string)) {
        return sendJson(res, 409, {
          error:
            record.state === 'pending'
              ? `${id} has no retry waiting (its attempts are in flight); try again when they end.`
              : `${id} is ${record.state}: only a pending delivery waiting for a retry can be retried now; use Replay to send it again.`,
        });
      }
      return sendJson(res, 202, { record: summarizeDelivery(record, masks) });
    } catch (error) {
      if (error instanceof ReplayError) return sendJson(res, 404, { error: error.message });
      if (error instanceof EmulatorClosedError) return sendJson(res, 503, { error: 'The emulator is shutting down.' });
      return sendJson(res, 500, { error: `The action failed: ${(error as Error).message}` });
    }
  }

  function handle(
    req: http.IncomingMessage,
    res: http.ServerResponse,
    path: string,
    method: string,
    url: URL,
  ): boolean {
    const isPage = path === INSPECTOR_ROUTES.page || path === '/index.html';
    // Without an emulator (`hookgate listen`) there is nothing to replay or send: those paths are not ours.
    const isAction = engine !== undefined && (path === INSPECTOR_ROUTES.sendTest || ACTION.test(path));
    const isRead = isPage || path.startsWith(INSPECTOR_ROUTES.assets) || path === INSPECTOR_ROUTES.events;
    if (!isAction && !isRead) return false;
    const denied = guard.check(req, url);
    if (denied) {
      refuse(res, denied);
      return true;
    }
    if (isPage && method === 'GET' && tokenInQuery(url, token)) {
      // The token moves from the URL (history, screenshots) into an HttpOnly cookie.
      res.writeHead(303, {
        ...SECURITY_HEADERS,
        location: '/',
        'set-cookie': `${TOKEN_COOKIE}=${encodeURIComponent(token as string)}; HttpOnly; SameSite=Strict; Path=/`,
      });
      res.end();
      return true;
    }
    if (isAction) {
      if (method !== 'POST') {
        sendJson(res, 405, { error: `${path} takes POST, not ${method}.` }, { allow: 'POST' });
        return true;
      }
      const csrf = checkCsrf(req);
      if (csrf) {
        refuse(res, csrf);
        return true;
      }
      act(engine, masks as ViewMasks, req, res, path).catch((error: unknown) =>
        sendJson(res, 500, { error: String((error as Error)?.message ?? error) }),
      );
      return true;
    }
    if (method !== 'GET' && method !== 'HEAD') {
      sendJson(res, 405, { error: `${path} takes GET, not ${method}.` }, { allow: 'GET' });
      return true;
    }
    if (isPage) void page(res, 'index.html');
    else if (path === '/_hookgate/ui/app.js') void page(res, 'app.js');
    else if (path === '/_hookgate/ui/app.css') void page(res, 'app.css');
    else if (path === '/_hookgate/ui/favicon.svg') {
      res.writeHead(200, {
        ...SECURITY_HEADERS,
        'content-type': 'image/svg+xml',
        'content-length': String(FAVICON.length),
      });
      res.end(FAVICON);
    } else if (path === INSPECTOR_ROUTES.events) stream.attach(req, res, SECURITY_HEADERS);
    else if (path === `${INSPECTOR_ROUTES.api}meta`) {
      const now = engine ? engine.clock.now() : Date.now();
      const meta: InspectorMeta = {
        feeds: [...feeds.keys()],
        mode: engine ? 'serve' : 'listen',
        states: engine ? ['pending', 'delivered', 'failed', 'filtered'] : [],
        types: MESSAGE_TYPES,
        endpoints: masks ? masks.allEndpoints() : [],
        // For the empty list's "send a first call" help: each source's name and write key, masked.
        sources: engine
          ? engine.sources.map((s) => ({
              name: s.name ?? null,
              writeKey: redactWriteKey(s.writeKey),
              webhooks: s.webhooks?.enabled ?? false,
            }))
          : [],
        templates: engine ? testEventTemplates(now) : {},
        now: new Date(now).toISOString(),
      };
      sendJson(res, 200, meta);
    } else if (path.startsWith(INSPECTOR_ROUTES.api)) {
      const [name, id, ...more] = path.slice(INSPECTOR_ROUTES.api.length).split('/');
      const feed = feeds.get(name ?? '');
      if (!feed || more.length > 0)
        sendJson(res, 404, { error: `No inspector API ${path}; feeds: ${[...feeds.keys()].join(', ')}.` });
      else if (id === undefined || id === '') answer(res, feed.list(url.searchParams));
      else {
        let decoded: string;
        try {
          decoded = decodeURIComponent(id);
        } catch {
          sendJson(res, 400, { error: `The id in ${path} is not valid percent-encoding.` });
          return true;
        }
        answer(res, feed.detail(decoded));
      }
    } else sendJson(res, 404, { error: `No inspector file ${path}.` });
    return true;
  }

  return {
    handle,
    addFeed(feed) {
      if (!/^[a-z]+$/.test(feed.name) || feeds.has(feed.name))
        throw new TypeError(`Inspector feed name ${JSON.stringify(feed.name)} must be [a-z]+ and unique.`);
      feeds.set(feed.name, feed);
      stream.close();
      stream = new EventStream([...feeds.values()]);
    },
    close() {
      stream.close();
    },
  };
}
