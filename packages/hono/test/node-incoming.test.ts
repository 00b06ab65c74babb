// On @hono/node-server the middleware reads headers and body straight off Node's IncomingMessage; it
// must keep the limit, the exact bytes and Hono's body cache, and fall back to c.req when an earlier
// middleware already started reading the stream.
import http from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { Hono } from 'hono';
import { sign } from '@hookgate/core';
import { hookgate, nodeIncomingOf } from '@hookgate/hono';
import { closeAll, message, SECRET, serve } from './helpers.js';

afterEach(closeAll);

/** POSTs `parts` as separate chunked writes (no Content-Length), signed over their concatenation. */
function postChunked(url: string, parts: Buffer[], secret = SECRET): Promise<{ status: number; body: string }> {
  const whole = Buffer.concat(parts);
  return new Promise((resolve, reject) => {
    const req = http.request(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-signature': sign(whole, secret),
        'transfer-encoding': 'chunked',
      },
    });
    req.on('response', (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode!, body }));
    });
    req.on('error', reject);
    let i = 0;
    const next = () => (i < parts.length ? req.write(parts[i++], () => setTimeout(next, 5)) : req.end());
    next();
  });
}

describe('@hookgate/hono on Node: reading the IncomingMessage', () => {
  it('finds the Node request in c.env on @hono/node-server, and nothing in other shapes', async () => {
    expect(nodeIncomingOf(undefined)).toBeUndefined();
    expect(nodeIncomingOf({ incoming: { headers: {} } })).toBeUndefined(); // no rawHeaders / on
    const app = new Hono();
    let found = false;
    app.post('/probe', (c) => {
      found = nodeIncomingOf(c.env) !== undefined;
      return c.text('ok');
    });
    const url = await serve(app);
    await fetch(`${url}/probe`, { method: 'POST', body: '{}' });
    expect(found).toBe(true);
  });

  it('verifies the exact bytes of a body split across chunks (a multibyte character cut in two) and leaves it for c.req.text()', async () => {
    const text = JSON.stringify({ ...message('track'), event: 'Café — ordered' });
    const bytes = Buffer.from(text);
    const cut = bytes.indexOf(Buffer.from('é')) + 1; // inside the two bytes of é
    const app = new Hono();
    app.post('/webhooks', hookgate({ secret: SECRET }), async (c) =>
      c.json({
        text: await c.req.text(),
        form: c.get('webhookContext').verification.form,
        ua: c.get('webhookContext').header('content-type'),
      }),
    );
    const url = await serve(app);
    const res = await postChunked(`${url}/webhooks`, [bytes.subarray(0, cut), bytes.subarray(cut)]);
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body)).toEqual({ text, form: 'raw', ua: 'application/json' });
  });

  it('answers 413 for a chunked body past maxBodyBytes and 401 for a wrong signature, off the IncomingMessage', async () => {
    const app = new Hono();
    app.post('/small', hookgate({ secret: SECRET, maxBodyBytes: 200, onMessage: () => {} }));
    const url = await serve(app);
    const big = Buffer.from(JSON.stringify({ ...message('track'), properties: { pad: 'x'.repeat(400) } }));
    const tooLarge = await postChunked(`${url}/small`, [big.subarray(0, 150), big.subarray(150)]);
    expect(tooLarge.status).toBe(413);
    expect(JSON.parse(tooLarge.body).code).toBe('payload_too_large');
    const small = Buffer.from(JSON.stringify({ type: 'delete', userId: 'u', timestamp: '2026-01-01T00:00:00.000Z' }));
    expect((await postChunked(`${url}/small`, [small], 'whsec_wrong')).status).toBe(401);
    expect((await postChunked(`${url}/small`, [small])).status).toBe(200);
  });

  it('falls back to reading through c.req when an earlier middleware already started reading the stream', async () => {
    const app = new Hono();
    let touched = false;
    app.use('/webhooks', async (c, next) => {
      await c.req.raw.clone().text(); // builds the Fetch Request and reads the IncomingMessage through it
      const incoming = nodeIncomingOf(c.env);
      touched = incoming?.readableDidRead === true || (incoming?.readableFlowing ?? null) !== null;
      await next();
    });
    app.post('/webhooks', hookgate({ secret: SECRET }), async (c) =>
      c.json({ json: await c.req.json(), form: c.get('webhookContext').verification.form }),
    );
    const url = await serve(app);
    const msg = message('identify');
    const res = await postChunked(`${url}/webhooks`, [Buffer.from(JSON.stringify(msg))]);
    expect(touched).toBe(true);
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body)).toEqual({ json: msg, form: 'raw' });
  });
});
