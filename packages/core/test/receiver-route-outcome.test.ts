// What the pass-through adapters (Express next(), a Fastify route after webhookRoute(), a Hono route after the
// middleware) build on: isPassThrough decides whether the route answers, and nodeRouteOutcome tells from a real
// node:http response whether the route handled the message (2xx) or not, so a retry runs it again.
import http from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { RouteFailedError } from '../src/index.js';
import { isPassThrough, nodeRouteOutcome } from '../src/adapter.js';
import { startHttpServer, type RunningServer } from '../../../test/helpers/servers.js';

let served: RunningServer | undefined;
afterEach(async () => {
  await served?.close();
  served = undefined;
});

describe('isPassThrough', () => {
  it('is true only without on, onMessage, onPayload and enqueue (null counts as not given)', () => {
    const fn = () => undefined;
    expect(isPassThrough({})).toBe(true);
    expect(isPassThrough({ on: null, onMessage: null, onPayload: null, enqueue: null } as never)).toBe(true);
    expect(isPassThrough({ on: {} })).toBe(false);
    expect(isPassThrough({ onMessage: fn })).toBe(false);
    expect(isPassThrough({ onPayload: fn })).toBe(false);
    expect(isPassThrough({ enqueue: fn })).toBe(false);
    expect(isPassThrough({ mode: 'handle' })).toBe(true);
  });

  it("refuses mode: 'acknowledge' without handlers, ending with the adapter's fix; with handlers it is fine", () => {
    expect(() => isPassThrough({ mode: 'acknowledge' })).toThrow(
      new TypeError(
        "mode: 'acknowledge' needs handlers in `on` or `onMessage`: without them the route after hookgate answers, " +
          'so there is nothing to run in the background. Give handlers, or leave mode at its default.',
      ),
    );
    expect(() => isPassThrough({ mode: 'acknowledge' }, 'Remove mode.')).toThrow(/background\. Remove mode\.$/);
    expect(isPassThrough({ mode: 'acknowledge', onMessage: () => undefined })).toBe(false);
  });
});

interface Observed {
  outcome: Promise<unknown>;
  attached: number;
  detached: number;
  fail?: (error: unknown) => void;
}

/**
 * Serves one request: `route` answers it (or not) while `nodeRouteOutcome` watches the response; resolves with
 * how the outcome settled ('handled' or the error) and how the hooks were called.
 */
async function watch(
  route: (req: http.IncomingMessage, res: http.ServerResponse, o: Observed) => void,
  { abort }: { abort?: unknown } = {},
): Promise<{ settled: unknown; attached: number; detached: number; status: number | 'closed' }> {
  let observed: Observed | undefined;
  served = await startHttpServer((req, res) => {
    const controller = new AbortController();
    if (abort !== undefined) controller.abort(abort);
    const o: Observed = { outcome: Promise.resolve(), attached: 0, detached: 0 };
    o.outcome = nodeRouteOutcome(res, controller.signal, {
      attach: (fail) => {
        o.attached++;
        o.fail = fail;
      },
      detach: () => void o.detached++,
    }).then(
      () => 'handled',
      (error: unknown) => error,
    );
    observed = o;
    req.resume();
    route(req, res, o);
  });
  const status = await new Promise<number | 'closed'>((resolve) => {
    const req = http.request(served!.url, { method: 'POST' }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', () => resolve('closed'));
    req.end('{}');
  });
  const settled = await observed!.outcome;
  return { settled, attached: observed!.attached, detached: observed!.detached, status };
}

describe('nodeRouteOutcome', () => {
  it.each([200, 204, 299])('a route answering %i handled the message', async (code) => {
    const r = await watch((_req, res) => res.writeHead(code).end());
    expect(r).toEqual({ settled: 'handled', attached: 1, detached: 1, status: code });
  });

  it.each([300, 404, 500])('a route answering %i did not: RouteFailedError with the status', async (code) => {
    const r = await watch((_req, res) => res.writeHead(code).end());
    expect(r.settled).toBeInstanceOf(RouteFailedError);
    expect((r.settled as RouteFailedError).status).toBe(code);
    expect((r.settled as Error).message).toBe(
      `The route after hookgate answered ${code}; the message is not marked handled, so a retry runs it again.`,
    );
    expect(r.detached).toBe(1);
  });

  it('a route answering non-2xx after the deadline fails with the abort reason', async () => {
    const reason = new Error('deadline');
    const r = await watch((_req, res) => res.writeHead(503).end(), { abort: reason });
    expect(r.settled).toBe(reason);
  });

  it('a connection closed before the route answered is not handled', async () => {
    const r = await watch((req) => req.socket.destroy());
    expect(r.status).toBe('closed');
    expect(r.settled).toEqual(new Error('The connection closed before the route answered.'));
    expect(r.detached).toBe(1);
  });

  it("the adapter's error path fails it with the route's error (or a stand-in), once; the answer after that changes nothing", async () => {
    const routeError = new Error('route threw');
    const r = await watch((_req, res, o) => {
      o.fail!(routeError);
      o.fail!(new Error('second'));
      res.writeHead(200).end();
    });
    expect(r).toEqual({ settled: routeError, attached: 1, detached: 1, status: 200 });

    const bare = await watch((_req, res, o) => {
      o.fail!(undefined);
      res.writeHead(500).end();
    });
    expect(bare.settled).toEqual(new Error('The route failed without an error value.'));
  });
});
