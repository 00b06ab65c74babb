// The Hono middleware: typed context variables, one body read, Web Crypto or node:crypto, the route's answer.
import { afterEach, describe, expect, expectTypeOf, it, vi } from 'vitest';
import { Hono } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { HandlerContext, TrackMessage, WebhookMessage } from '@hookgate/core';
import { hookgate, RouteFailedError, type HonoExtra } from '@hookgate/hono';
import { closeAll, message, post, SECRET, serve } from './helpers.js';

afterEach(async () => {
  vi.restoreAllMocks();
  await closeAll();
});

describe('@hookgate/hono middleware', () => {
  it("stores the typed message in c.get('webhook') and reads the body once, leaving it for c.req.json()/text()", async () => {
    const app = new Hono();
    app.post('/webhooks', hookgate({ secret: SECRET }), async (c) => {
      const msg = c.get('webhook');
      expectTypeOf(msg).toEqualTypeOf<WebhookMessage>();
      expectTypeOf(c.get('webhookContext')).toEqualTypeOf<HandlerContext<HonoExtra>>();
      const event = msg.type === 'track' ? (expectTypeOf(msg).toEqualTypeOf<TrackMessage>(), msg.event) : null;
      return c.json({
        event,
        json: await c.req.json(),
        text: await c.req.text(),
        form: c.get('webhookContext').verification.form,
      });
    });
    const url = await serve(app);
    const msg = message('track');
    const text = JSON.stringify(msg, null, 2);
    const res = await post(`${url}/webhooks`, text);
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body)).toEqual({ event: 'Order Completed', json: msg, text, form: 'raw' });
  });

  it("crypto: 'web' verifies with Web Crypto; the default ('auto') takes the sync node:crypto path on Node", async () => {
    const subtleSign = vi.spyOn(crypto.subtle, 'sign');
    const app = new Hono();
    app.all('/web', hookgate({ secret: SECRET, crypto: 'web', onMessage: () => {} }));
    app.all('/auto', hookgate({ secret: SECRET, onMessage: () => {} }));
    const url = await serve(app);
    expect((await post(`${url}/auto`, JSON.stringify(message()))).status).toBe(200);
    expect(subtleSign).not.toHaveBeenCalled();
    expect((await post(`${url}/web`, JSON.stringify(message()))).status).toBe(200);
    expect(subtleSign).toHaveBeenCalled();
    expect((await post(`${url}/web`, JSON.stringify(message()), { secret: 'whsec_wrong' })).status).toBe(401);
  });

  it("keeps the route's own answers, 4xx included, and frees a message whose route did not answer 2xx", async () => {
    let runs = 0;
    const errors: unknown[] = [];
    const app = new Hono();
    app.post('/webhooks', hookgate({ secret: SECRET, onError: (e) => void errors.push(e) }), (c) => {
      runs++;
      if (runs === 1) throw new HTTPException(422, { message: 'not for us' });
      return c.json({ run: runs });
    });
    const url = await serve(app);
    const text = JSON.stringify(message('group'));
    const first = await post(`${url}/webhooks`, text);
    expect(first.status).toBe(422);
    expect(first.body).toBe('not for us');
    expect((await post(`${url}/webhooks`, text)).status).toBe(200);
    expect(JSON.parse((await post(`${url}/webhooks`, text)).body).code).toBe('duplicate');
    expect(runs).toBe(2);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toBeInstanceOf(HTTPException);
  });

  it("a middleware with no route after it gets Hono's 404, and the message is recorded failed (never lost silently)", async () => {
    const errors: unknown[] = [];
    const app = new Hono();
    app.use('/quiet', hookgate({ secret: SECRET, onError: (e) => void errors.push(e) }));
    app.post('/loud', hookgate({ secret: SECRET, onError: (e) => void errors.push(e) }), (c) => c.text('busy', 502));
    const url = await serve(app);
    expect((await post(`${url}/quiet`, JSON.stringify(message()))).status).toBe(404);
    expect((await post(`${url}/loud`, JSON.stringify(message()))).status).toBe(502);
    expect(errors.map((e) => (e as RouteFailedError).status)).toEqual([404, 502]);
    expect(errors.every((e) => e instanceof RouteFailedError)).toBe(true);
  });

  it('works through app.request() too (in addition to real HTTP), and drains background handlers', async () => {
    let finished = 0;
    const mw = hookgate({
      secret: SECRET,
      mode: 'acknowledge',
      on: {
        delete: async (msg, { c }) => {
          expect(c.req.path).toBe('/webhooks');
          await new Promise((r) => setTimeout(r, 200));
          if (msg.userId) finished++;
        },
      },
    });
    const app = new Hono().all('/webhooks', mw);
    const text = JSON.stringify(message('delete'));
    const { sign } = await import('@hookgate/core');
    const res = await app.request('/webhooks', {
      method: 'POST',
      body: text,
      headers: { 'content-type': 'application/json', 'x-signature': sign(text, SECRET) },
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ ok: true, acknowledged: true });
    expect(finished).toBe(0);
    await mw.receiver.drain();
    expect(finished).toBe(1);
  });

  it("refuses mode: 'acknowledge' without handlers, and a missing secret, naming the option and the fix", () => {
    expect(() => hookgate({ secret: SECRET, mode: 'acknowledge' })).toThrow(
      /mode: 'acknowledge' needs handlers in `on` or `onMessage`/,
    );
    expect(() => hookgate({})).toThrow(/secret is required.*insecureSkipVerification/s);
  });
});
