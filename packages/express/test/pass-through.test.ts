// Pass-through use: hookgate() sets req.webhook and the route answers, under the deadline and dedupe.
import { afterEach, describe, expect, expectTypeOf, it } from 'vitest';
import express from 'express';
import type { HandlerContext, TrackMessage, WebhookMessage } from '@hookgate/core';
import { hookgate, hookgateErrorHandler, RouteFailedError, type ExpressExtra } from '@hookgate/express';
import { closeAll, message, post, SECRET, serve } from './helpers.js';

afterEach(closeAll);

describe('@hookgate/express pass-through (req.webhook)', () => {
  it('gives the next handler the typed message on req.webhook, narrowed on type', async () => {
    const events: string[] = [];
    const app = express();
    app.all('/webhooks', hookgate({ secret: SECRET }), (req, res) => {
      expectTypeOf(req.webhook).toEqualTypeOf<WebhookMessage | undefined>();
      expectTypeOf(req.webhookContext).toEqualTypeOf<HandlerContext<ExpressExtra> | undefined>();
      const msg = req.webhook;
      if (msg?.type === 'track') {
        expectTypeOf(msg).toEqualTypeOf<TrackMessage>();
        events.push(msg.event);
      }
      res.json({ ok: true, signalAborted: req.webhookContext?.signal.aborted });
    });
    const { url } = await serve(app);
    const res = await post(`${url}/webhooks`, JSON.stringify(message('track')));
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body)).toEqual({ ok: true, signalAborted: false });
    expect(events).toEqual(['Order Completed']);
  });

  it('a route that answered 5xx frees the message for the retry; a 2xx answer makes the retry a duplicate', async () => {
    let runs = 0;
    const errors: unknown[] = [];
    const app = express();
    app.all('/webhooks', hookgate({ secret: SECRET, onError: (e) => void errors.push(e) }), (_req, res) => {
      runs++;
      res.status(runs === 1 ? 502 : 200).json({ run: runs });
    });
    const { url } = await serve(app);
    const text = JSON.stringify(message('group'));
    expect((await post(`${url}/webhooks`, text)).status).toBe(502);
    expect((await post(`${url}/webhooks`, text)).status).toBe(200);
    const third = await post(`${url}/webhooks`, text);
    expect(third.status).toBe(200);
    expect(JSON.parse(third.body).code).toBe('duplicate');
    expect(runs).toBe(2);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toBeInstanceOf(RouteFailedError);
    expect((errors[0] as RouteFailedError).status).toBe(502);
  });

  it('hookgateErrorHandler turns a webhook route error into the receiver 500 and passes other errors on', async () => {
    const errors: unknown[] = [];
    const app = express();
    app.all('/webhooks', hookgate({ secret: SECRET, onError: (e) => void errors.push(e) }), () => {
      throw new Error('database down');
    });
    app.get('/boom', () => {
      throw new Error('not a webhook');
    });
    app.use(hookgateErrorHandler());
    app.use((error: Error, _req: express.Request, res: express.Response, _next: express.NextFunction) => {
      res.status(418).json({ fallback: error.message });
    });
    const { url } = await serve(app);
    const res = await post(`${url}/webhooks`, JSON.stringify(message('track')));
    expect(res.status).toBe(500);
    expect(JSON.parse(res.body)).toMatchObject({ ok: false, code: 'handler_error' });
    expect(res.body).not.toContain('database down');
    expect(errors).toHaveLength(1);
    expect((errors[0] as Error).message).toBe('database down');
    const other = await fetch(`${url}/boom`);
    expect(other.status).toBe(418);
    expect(await other.json()).toEqual({ fallback: 'not a webhook' });
  });

  it('a route still running at the deadline gets 503 and finds its signal aborted (read before or after)', async () => {
    const seen: Array<{ early: boolean; late: boolean; reason: string }> = [];
    // The routes hold until both answers are in, so a 503 cannot have waited for its route to end.
    let releaseRoutes!: () => void;
    const routesHeld = new Promise<void>((resolve) => (releaseRoutes = resolve));
    let bothSeen!: () => void;
    const seenBoth = new Promise<void>((resolve) => (bothSeen = resolve));
    const record = (entry: (typeof seen)[number]) => {
      seen.push(entry);
      if (seen.length === 2) bothSeen();
    };
    const app = express();
    const quiet = { onError: () => {} };
    app.all('/early', hookgate({ secret: SECRET, deadlineMs: 100, ...quiet }), async (req, res) => {
      const signal = req.webhookContext!.signal; // read before the deadline
      await routesHeld;
      record({
        early: signal.aborted,
        late: req.webhookContext!.signal.aborted,
        reason: (signal.reason as Error).name,
      });
      if (!res.headersSent) res.json({ late: true });
    });
    app.all('/late', hookgate({ secret: SECRET, deadlineMs: 100, ...quiet }), async (req, res) => {
      await routesHeld;
      const signal = req.webhookContext!.signal; // first read after the deadline
      record({ early: false, late: signal.aborted, reason: (signal.reason as Error).name });
      if (!res.headersSent) res.json({ late: true });
    });
    const { url } = await serve(app);
    for (const path of ['/early', '/late']) {
      const res = await post(`${url}${path}`, JSON.stringify(message('track')));
      expect(res.status).toBe(503);
      expect(JSON.parse(res.body).code).toBe('deadline_exceeded');
    }
    releaseRoutes();
    await seenBoth;
    expect(seen).toEqual([
      { early: true, late: true, reason: 'DeadlineExceededError' },
      { early: false, late: true, reason: 'DeadlineExceededError' },
    ]);
  });

  it("refuses mode: 'acknowledge' without handlers, naming the option and the fix", () => {
    expect(() => hookgate({ secret: SECRET, mode: 'acknowledge' })).toThrow(
      /mode: 'acknowledge' needs handlers in `on` or `onMessage`/,
    );
  });

  it('refuses to start without a secret unless insecureSkipVerification is set by name', () => {
    expect(() => hookgate({ onMessage: () => {} })).toThrow(/secret is required.*insecureSkipVerification/s);
    expect(() => hookgate({ secret: '', onMessage: () => {} })).toThrow(/secret must be a non-empty string/);
  });
});

describe('@hookgate/express with handlers in `on`', () => {
  it('gives each typed handler { req, res } beside the message', async () => {
    const seen: string[] = [];
    const app = express();
    app.all(
      '/webhooks',
      hookgate({
        secret: SECRET,
        on: {
          alias: (msg, { req }) => {
            expectTypeOf(msg['Previous ID']).toEqualTypeOf<string>();
            seen.push(`${req.path} ${msg['Previous ID']} → ${msg['User ID']}`);
          },
        },
      }),
    );
    const { url } = await serve(app);
    const msg = message('alias', 'user_42');
    expect((await post(`${url}/webhooks`, JSON.stringify(msg))).status).toBe(200);
    expect(seen).toEqual(['/webhooks anon_5e1f → user_42']);
  });

  it('acknowledge-first: receiver.drain() waits for the background handler (nothing lost on shutdown)', async () => {
    let finished = 0;
    const app = express();
    const mw = hookgate({
      secret: SECRET,
      mode: 'acknowledge',
      onMessage: async () => {
        await new Promise((r) => setTimeout(r, 300));
        finished++;
      },
    });
    app.all('/webhooks', mw);
    const server = await serve(app);
    expect((await post(`${server.url}/webhooks`, JSON.stringify(message('screen')))).status).toBe(200);
    expect(finished).toBe(0);
    await mw.receiver.drain();
    expect(finished).toBe(1);
  });
});
