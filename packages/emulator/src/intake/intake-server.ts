import type http from 'node:http';
import type { AddressInfo } from 'node:net';
import { ValidationError } from '@hookgate/core';
import { endUnreadBody } from '@hookgate/core/adapter';
import { EmulatorClosedError, LogFullError } from '../errors.js';
import { intakeSinkOf, type IntakeSink } from './intake-sink.js';
import { bigNumberNotes } from './big-number-notes.js';
import { rawCallText } from './raw-call-text.js';
import { KeptIntakeBody } from './kept-intake-body.js';
import { deliveriesResponse, healthResponse } from './inspection.js';
import type { IntakeEngine } from './intake-engine.js';
import { intakeError, intakeOk, intakePartial, type IntakeResponse, type RefusedCallView } from './intake-response.js';
import { BATCH_ROUTES, CALL_ROUTES, INSPECTION_ROUTES, MAX_BATCH_BYTES, MAX_CALL_BYTES } from './limits.js';
import { parseIntakePayload, refusedAll, type IntakeRoute, type RefusedCall } from './parse-intake-payload.js';
import { readIntakeBody } from './read-intake-body.js';
import { describeWriteKey, writeKeyFromAuthorization } from './write-key.js';
import { assertInspectorExposure, createInspector, isInspectorEngine, type Inspector } from '../inspector/index.js';
import { JSON_VIEW_HEADERS, LocalServerGuard } from '../inspector/request-guard.js';
import { createBoundedServer } from '../server-timeouts.js';
import { OriginPolicy, corsHeaders, preflightHeaders } from './origin-policy.js';
import type { IntakeListenOptions, IntakeOptions, IntakeServer } from './intake-options.js';

export type { IntakeListenOptions, IntakeOptions, IntakeServer } from './intake-options.js';

/** A `node:http` request listener. @example http.createServer(createIntakeListener(emulator) satisfies IntakeListener); */
export type IntakeListener = (req: http.IncomingMessage, res: http.ServerResponse) => void;

interface Resolved {
  maxCallBytes: number;
  maxBatchBytes: number;
  onError: (error: unknown) => void;
  origins: OriginPolicy;
}

function positiveInteger(options: IntakeOptions, name: 'maxCallBytes' | 'maxBatchBytes', fallback: number): number {
  const value = options[name];
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) {
    throw new RangeError(
      `Intake option ${name} must be a whole number of bytes above 0 (got ${JSON.stringify(value)}); leave it out for the default of ${fallback}.`,
    );
  }
  return value;
}

function resolveOptions(options: IntakeOptions): Resolved {
  if (typeof options !== 'object' || options === null) {
    throw new TypeError('Intake options must be an object, e.g. { port: 8080 }.');
  }
  if (options.onError !== undefined && typeof options.onError !== 'function') {
    throw new TypeError('Intake option onError must be a function (error) => void.');
  }
  if (options.allowOrigins !== undefined && !Array.isArray(options.allowOrigins)) {
    throw new TypeError('Intake option allowOrigins must be a list of origins, e.g. ["https://app.example.com"].');
  }
  return {
    maxCallBytes: positiveInteger(options, 'maxCallBytes', MAX_CALL_BYTES),
    maxBatchBytes: positiveInteger(options, 'maxBatchBytes', MAX_BATCH_BYTES),
    onError:
      options.onError ??
      ((error) =>
        console.error(`[hookgate intake] ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`)),
    origins: new OriginPolicy(options.allowOrigins ?? []),
  };
}

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
  return intakeListener(engine, options, undefined);
}

/** The CORS headers of each answer to a page (set once its origin was judged). */
const CORS = new WeakMap<http.ServerResponse, Record<string, string>>();

/**
 * The intake's listener for a server bound to `boundHost` (`undefined`: someone else's server): its
 * `/_hookgate/*` routes and inspector pass one `LocalServerGuard`, its tracking routes the origin policy.
 */
function intakeListener(engine: IntakeEngine, options: IntakeOptions, boundHost: string | undefined): IntakeListener {
  const opts = resolveOptions(options);
  const guard = new LocalServerGuard({
    token: options.inspector === false ? undefined : options.inspector?.token,
    host: boundHost,
  });
  const startedAt = Date.now();
  const limits = { maxCallBytes: opts.maxCallBytes };
  const inspector =
    options.inspector === false || !isInspectorEngine(engine)
      ? undefined
      : createInspector(engine, options.inspector, guard);

  async function handleTracking(
    req: http.IncomingMessage,
    res: http.ServerResponse,
    route: IntakeRoute,
  ): Promise<void> {
    const auth = writeKeyFromAuthorization(req.headers.authorization);
    if (auth.kind === 'invalid') return send(res, intakeError('invalid_authorization', auth.message), true);
    if (auth.kind === 'key' && !engine.hasSource(auth.writeKey)) {
      return send(res, unknownKey(auth.writeKey), true);
    }
    const body = await readIntakeBody(req, opts.maxBatchBytes);
    if (!body.ok) {
      // Refused before its end (too large, an unknown encoding): the rest is read and dropped (core's
      // endUnreadBody), so a client still writing reads the answer instead of a reset.
      if (!body.consumed) endUnreadBody(req, res);
      return send(res, body.response);
    }
    let value: unknown;
    const text = body.bytes.toString('utf8');
    try {
      value = JSON.parse(text);
    } catch (error) {
      return send(res, intakeError('invalid_json', `The body is not valid JSON: ${(error as Error).message}.`));
    }
    const parsed = parseIntakePayload(value, route, limits);
    if (!parsed.ok) return send(res, parsed.response);
    const writeKey = auth.kind === 'key' ? auth.writeKey : parsed.bodyWriteKey;
    if (writeKey === undefined) {
      return send(
        res,
        intakeError(
          'missing_write_key',
          'No write key: send "Authorization: Basic " + base64(writeKey + ":"), or a "writeKey" field in the JSON body.',
        ),
      );
    }
    if (auth.kind !== 'key' && !engine.hasSource(writeKey)) return send(res, unknownKey(writeKey));
    const receivedAt = engine.clock.now();
    const { calls, indexes, refused } = parsed;
    // Every accepted call was validated above: the emulator's internal path does not check them again.
    const trusted = intakeSinkOf(engine);
    // Filtered calls are kept as this body's bytes (copied only if one is filtered), not as objects.
    const kept = trusted && calls.length > 0 ? new KeptIntakeBody(body.bytes, route, limits) : undefined;
    const recorder = refused.length > 0 ? trusted : undefined;
    // Integers beyond 2^53 that parsing changed: said on their records, with the call's text as sent.
    const notes = trusted ? bigNumberNotes(text, route, calls, indexes) : undefined;
    const views: RefusedCallView[] = [];
    // A refused call's text is kept only up to the size of a call (one refused for its depth can be a whole 500 KB body).
    const refuse = (call: RefusedCall) =>
      recordRefused(recorder, call, writeKey, receivedAt, () =>
        boundedText(rawCallText(text, route, call.index), opts.maxCallBytes),
      );
    // In body order, so the log lists the request's calls as they came, refused ones in their place.
    let r = 0;
    for (let i = 0; i < calls.length; i++) {
      const at = indexes[i] as number;
      while (r < refused.length && (refused[r] as RefusedCall).index < at)
        views.push(refuse(refused[r++] as RefusedCall));
      try {
        const call = calls[i] as (typeof calls)[number];
        if (trusted) trusted.acceptValidated(call, writeKey, receivedAt, kept, i, notes?.[i]);
        else engine.ingest(call, { writeKey, receivedAt });
      } catch (error) {
        const where = route.kind === 'batch' ? `$.batch[${at}]` : '$';
        if (i === 0 && error instanceof ValidationError) {
          return send(
            res,
            intakeError('invalid_call', `The delivery engine refused ${where}: ${error.message}`, error.issues),
          );
        }
        if (i === 0 && error instanceof EmulatorClosedError) {
          return send(
            res,
            intakeError(
              'emulator_closed',
              'The emulator is shutting down and takes no more calls; nothing of this request was accepted. Retry later.',
            ),
          );
        }
        if (error instanceof LogFullError) {
          // Nothing accepted is dropped: the calls before this one are recorded (a resend is deduped by messageId).
          const taken =
            i === 0
              ? 'nothing of this request was accepted'
              : `the first ${i} call${i === 1 ? ' was' : 's were'} accepted`;
          return send(res, intakeError('log_full', `${error.message} (${where}: ${taken}; retry later.)`));
        }
        opts.onError(error);
        return send(
          res,
          intakeError(
            'internal_error',
            `The delivery engine failed on ${where} after accepting ${i} call${i === 1 ? '' : 's'} of this request (those are delivered): ${(error as Error).message}`,
          ),
        );
      }
    }
    while (r < refused.length) views.push(refuse(refused[r++] as RefusedCall));
    if (refused.length === 0) return send(res, intakeOk());
    send(res, calls.length === 0 ? refusedAll(refused, route, views) : intakePartial(calls.length, views));
  }

  /**
   * Records a refused call in the delivery log (`filtered`, with the intake's reason), when the
   * engine can and the call names a known type; returns what the answer lists of it.
   */
  function recordRefused(
    recorder: IntakeSink | undefined,
    refused: RefusedCall,
    writeKey: string,
    receivedAt: number,
    rawCall: () => string | undefined,
  ): RefusedCallView {
    const view: RefusedCallView = { index: refused.index, issues: refused.issues };
    if (recorder === undefined || refused.type === undefined) return view;
    const reason = `refused by the intake: ${refused.issues.map((i) => `${i.path} ${i.message}`).join('; ')}`;
    try {
      // The call as sent (a refused call is rare, and its text is what explains it); not one over the size limit.
      view.recordId = recorder.recordRefused(
        refused.type,
        writeKey,
        receivedAt,
        reason,
        refused.tooLarge ? undefined : rawCall(),
      ).id;
    } catch (error) {
      // Closed meanwhile: the answer still names the call; anything else is unexpected.
      if (!(error instanceof EmulatorClosedError)) opts.onError(error);
    }
    return view;
  }

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
      handleTracking(req, res, route).catch((error: unknown) => {
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
  if (inspector) INSPECTORS.set(listener, inspector);
  return listener;
}

/** `text` when it is at most `maxBytes` of UTF-8 (a string takes at least one byte per code unit, at most three). */
function boundedText(text: string | undefined, maxBytes: number): string | undefined {
  if (text === undefined || text.length > maxBytes) return undefined;
  return text.length * 3 <= maxBytes || Buffer.byteLength(text, 'utf8') <= maxBytes ? text : undefined;
}

/** The inspector of each listener, so that `close()` can end its live streams. */
const INSPECTORS = new WeakMap<IntakeListener, Inspector>();

function unknownKey(writeKey: string) {
  return intakeError(
    'unknown_write_key',
    `Unknown write key ${describeWriteKey(writeKey)}: no source of this emulator has it. Use the write key of a configured source (createEmulator({ sources: [{ writeKey }] }), or the one \`hookgate serve\` prints).`,
  );
}

/**
 * Starts the intake on `node:http` (127.0.0.1 and a free port by default) and resolves once it listens.
 *
 * @example
 * const intake = await listenIntake(emulator, { port: 8080 });
 * const analytics = new Analytics({ writeKey: 'wk_1', host: intake.url });
 * // ...
 * await intake.close();
 */
export async function listenIntake(engine: IntakeEngine, options: IntakeListenOptions = {}): Promise<IntakeServer> {
  const { port = 0, host = '127.0.0.1', ...intakeOptions } = options;
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new RangeError(
      `listen option port must be a whole number from 0 to 65535 (got ${JSON.stringify(port)}); 0 picks a free port.`,
    );
  }
  if (typeof host !== 'string' || host.length === 0) {
    throw new TypeError(
      `listen option host must be a hostname or IP address such as "127.0.0.1" (got ${JSON.stringify(host)}).`,
    );
  }
  assertInspectorExposure(host, intakeOptions.inspector);
  const { timeouts, ...rest } = intakeOptions;
  const listener = intakeListener(engine, rest, host);
  const server = createBoundedServer(listener, timeouts);
  await new Promise<void>((resolve, reject) => {
    const onError = (error: Error) => reject(error);
    server.once('error', onError);
    server.listen(port, host, () => {
      server.off('error', onError);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  let closing: Promise<void> | undefined;
  return {
    url: `http://${shownHost}:${address.port}`,
    port: address.port,
    host: address.address,
    server,
    close() {
      closing ??= new Promise<void>((resolve, reject) => {
        INSPECTORS.get(listener)?.close();
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeIdleConnections();
      });
      return closing;
    },
  };
}
