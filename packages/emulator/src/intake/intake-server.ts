import type http from 'node:http';
import { endUnreadBody } from '@hookgate/core/adapter';
import { deliveriesResponse, healthResponse } from './inspection.js';
import type { IntakeEngine } from './intake-engine.js';
import { intakeError, type IntakeResponse } from './intake-response.js';
import { BATCH_ROUTES, CALL_ROUTES, INSPECTION_ROUTES } from './limits.js';
import type { IntakeRoute } from './parse-intake-payload.js';
import { resolveIntakeOptions } from './resolve-intake-options.js';
import { answerTrackingRequest } from './tracking-request.js';
import { createInspector, isInspectorEngine, type Inspector } from '../inspector/index.js';
import { JSON_VIEW_HEADERS, LocalServerGuard } from '../inspector/request-guard.js';
import { corsHeaders, preflightHeaders } from './origin-policy.js';
import type { IntakeOptions } from './intake-options.js';

export type { IntakeListenOptions, IntakeOptions, IntakeServer } from './intake-options.js';

/** A `node:http` request listener. @example http.createServer(createIntakeListener(emulator) satisfies IntakeListener); */
export type IntakeListener = (req: http.IncomingMessage, res: http.ServerResponse) => void;

const CALL_ROUTE_MAP: ReadonlyMap<string, IntakeRoute> = new Map(
  Object.entries(CALL_ROUTES).map(([path, type]) => [path, { kind: 'call', type }] as const),
);
const BATCH_ROUTE: IntakeRoute = { kind: 'batch' };
const ROUTE_LIST = [...Object.keys(CALL_ROUTES), ...BATCH_ROUTES]
  .map((p) => `POST ${p}`)
  .concat(Object.values(INSPECTION_ROUTES).map((p) => `GET ${p}`));

function routeOf(path: string): IntakeRoute | undefined {
  return CALL_ROUTE_MAP.get(path) ?? ((BATCH_ROUTES as readonly string[]).includes(path) ? BATCH_ROUTE : undefined);
}

function send(res: http.ServerResponse, response: IntakeResponse, closeConnection = false, view = false): void {
  if (res.headersSent) return;
  const headers: Record<string, string> = {
    ...(view ? JSON_VIEW_HEADERS : undefined),
    ...response.headers,
    ...CORS.get(res),
    'content-length': String(Buffer.byteLength(response.body)),
  };
  if (closeConnection) headers.connection = 'close';
  res.writeHead(response.status, headers);
  res.end(response.body);
}

/**
 * Builds the intake's `node:http` listener over a delivery engine: `POST /v1/identify|track|page|
 * screen|group|alias|batch|import` (write key by Basic auth or a `writeKey` body field; 32 KB per
 * call, 500 KB per batch; read as leniently as the tracking API, a bad call refused alone: 200 with
 * the refused calls listed, or 400 when every call was refused), `GET /_hookgate/deliveries` and `GET /_hookgate/health`.
 *
 * @example
 * import http from 'node:http';
 * http.createServer(createIntakeListener(emulator)).listen(8080, '127.0.0.1');
 */
export function createIntakeListener(engine: IntakeEngine, options: IntakeOptions = {}): IntakeListener {
  return intakeListenerFor(engine, options, undefined).listener;
}

/** The CORS headers of each answer to a page (set once its origin was judged). */
const CORS = new WeakMap<http.ServerResponse, Record<string, string>>();

/**
 * The intake's listener for a server bound to `boundHost` (`undefined`: someone else's server): its
 * `/_hookgate/*` routes and inspector pass one `LocalServerGuard`, its tracking routes the origin
 * policy. Also returns its inspector (if on), whose live streams the server's `close()` ends.
 */
export function intakeListenerFor(
  engine: IntakeEngine,
  options: IntakeOptions,
  boundHost: string | undefined,
): { listener: IntakeListener; inspector: Inspector | undefined } {
  const opts = resolveIntakeOptions(options);
  const guard = new LocalServerGuard({
    token: options.inspector === false ? undefined : options.inspector?.token,
    host: boundHost,
  });
  const startedAt = Date.now();
  const inspector =
    options.inspector === false || !isInspectorEngine(engine)
      ? undefined
      : createInspector(engine, options.inspector, guard);

  const listener: IntakeListener = (req, res) => {
    const url = new URL(req.url ?? '/', 'http://intake.invalid');
    const path = url.pathname.length > 1 ? url.pathname.replace(/\/+$/, '') : url.pathname;
    const method = (req.method ?? 'GET').toUpperCase();
    const route = routeOf(path);
    if (route) {
      // Web pages: only loopback origins and those allowed by name; refused before anything is read or recorded.
      const verdict = opts.origins.judge(req);
      if (!verdict.ok) {
        endUnreadBody(req, res);
        return send(res, intakeError('forbidden_origin', verdict.message));
      }
      if (verdict.origin !== undefined) CORS.set(res, corsHeaders(verdict.origin));
      if (
        method === 'OPTIONS' &&
        verdict.origin !== undefined &&
        req.headers['access-control-request-method'] !== undefined
      ) {
        res.writeHead(204, {
          ...preflightHeaders(verdict.origin, req.headers['access-control-request-headers']),
          'content-length': '0',
        });
        res.end();
        return;
      }
      if (method !== 'POST') {
        const r = intakeError('method_not_allowed', `${path} takes POST, not ${method}.`);
        r.headers.allow = 'POST';
        return send(res, r);
      }
      answerTrackingRequest(engine, opts, req, res, route)
        .then((answer) => send(res, answer.response, answer.close === true))
        .catch((error: unknown) => {
          opts.onError(error);
          send(
            res,
            intakeError('internal_error', `The intake failed: ${(error as Error)?.message ?? String(error)}`),
            true,
          );
        });
      return;
    }
    if (path.startsWith('/_hookgate/')) {
      const refusal = guard.check(req, url);
      if (refusal) {
        endUnreadBody(req, res);
        return send(
          res,
          intakeError(refusal.status === 401 ? 'token_required' : 'forbidden_host', refusal.message),
          false,
          true,
        );
      }
    }
    if (path === INSPECTION_ROUTES.deliveries || path === INSPECTION_ROUTES.health) {
      if (method !== 'GET' && method !== 'HEAD') {
        const r = intakeError('method_not_allowed', `${path} takes GET, not ${method}.`);
        r.headers.allow = 'GET';
        return send(res, r, false, true);
      }
      try {
        return send(
          res,
          path === INSPECTION_ROUTES.health
            ? healthResponse(engine, startedAt)
            : deliveriesResponse(engine, url.searchParams),
          false,
          true,
        );
      } catch (error) {
        opts.onError(error);
        return send(
          res,
          intakeError('internal_error', `The inspection failed: ${(error as Error).message}`),
          false,
          true,
        );
      }
    }
    if (inspector?.handle(req, res, path, method, url)) return;
    send(res, intakeError('not_found', `No route ${method} ${path}. Routes: ${ROUTE_LIST.join(', ')}.`));
  };
  return { listener, inspector };
}
