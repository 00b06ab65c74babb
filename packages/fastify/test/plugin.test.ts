// The hookgate plugin: its own route with a scoped raw-body parser; the rest of the app untouched.
import { afterEach, describe, expect, expectTypeOf, it } from 'vitest';
import Fastify from 'fastify';
import type { Verification, WebhookMessage } from '@hookgate/core';
import { hookgate } from '@hookgate/fastify';
import { closeAll, listen, message, post, SECRET } from './helpers.js';

afterEach(closeAll);

describe('@hookgate/fastify plugin', () => {
  it('verifies the raw bytes on its route while other routes keep the default JSON parser and 415', async () => {
    const seen: Array<{ message: WebhookMessage; verification: Verification }> = [];
    const app = Fastify();
    await app.register(hookgate, {
      secret: SECRET,
      onMessage: (m, { verification }) => void seen.push({ message: m, verification }),
    });
    app.post('/other', async (request) => ({ body: request.body, type: typeof request.body }));
    const url = await listen(app);

    const msg = message('identify');
    const text = JSON.stringify(msg, null, 2); // only the raw bytes carry this signature
    expect((await post(`${url}/webhooks`, text)).status).toBe(200);
    expect(seen).toEqual([{ message: msg, verification: { form: 'raw', secretIndex: 0 } }]);

    const other = await fetch(`${url}/other`, {
      method: 'POST',
      body: '{"a":[1,2]}',
      headers: { 'content-type': 'application/json' },
    });
    expect(await other.json()).toEqual({ body: { a: [1, 2] }, type: 'object' });
    // The plugin's catch-all parser stays in its scope: elsewhere an unknown type is still Fastify's 415.
    const xml = await fetch(`${url}/other`, {
      method: 'POST',
      body: '<a/>',
      headers: { 'content-type': 'application/xml' },
    });
    expect(xml.status).toBe(415);
    expect(((await xml.json()) as { code: string }).code).toBe('FST_ERR_CTP_INVALID_MEDIA_TYPE');
  });

  it('answers signed JSON with a __proto__ or constructor.prototype key 200 as the other adapters do: kept as data, no prototype polluted', async () => {
    const seen: WebhookMessage[] = [];
    const app = Fastify();
    await app.register(hookgate, { secret: SECRET, onMessage: (m) => void seen.push(m) });
    const url = await listen(app);
    const base = JSON.stringify(message('track')).slice(0, -1);
    for (const poison of [
      `${base},"__proto__":{"isAdmin":true}}`,
      `${base},"constructor":{"prototype":{"isAdmin":true}}}`,
    ]) {
      const res = await post(`${url}/webhooks`, poison);
      expect(res.status).toBe(200);
    }
    expect(seen).toHaveLength(2);
    expect(Object.prototype.hasOwnProperty.call(seen[0], '__proto__')).toBe(true);
    expect(({} as { isAdmin?: boolean }).isAdmin).toBeUndefined();
  });

  it('checks the signature before the body is parsed: unsigned bad or poisoned JSON is 401, as on the other adapters', async () => {
    const app = Fastify();
    await app.register(hookgate, { secret: SECRET, onMessage: () => {} });
    const url = await listen(app);
    const base = JSON.stringify(message('track')).slice(0, -1);
    for (const body of ['{"type":', '', `${base},"__proto__":{"isAdmin":true}}`]) {
      const res = await fetch(`${url}/webhooks`, {
        method: 'POST',
        body,
        headers: { 'content-type': 'application/json' },
      });
      expect(res.status).toBe(401);
      expect(((await res.json()) as { code: string }).code).toBe('missing_signature');
    }
    const signedEmpty = await post(`${url}/webhooks`, '');
    expect(signedEmpty.status).toBe(400);
    expect(JSON.parse(signedEmpty.body).code).toBe('invalid_json');
  });

  it("maps Fastify's body limit (the receiver's maxBodyBytes) to the table's 413 JSON answer", async () => {
    const app = Fastify();
    await app.register(hookgate, { secret: SECRET, maxBodyBytes: 300, onMessage: () => {} });
    const url = await listen(app);
    const res = await post(`${url}/webhooks`, JSON.stringify({ ...message('track'), padding: 'x'.repeat(400) }));
    expect(res.status).toBe(413);
    expect(JSON.parse(res.body)).toMatchObject({ ok: false, code: 'payload_too_large' });
  });

  it('declares request.webhook app-wide (fastify-plugin), typed by declaration merging', async () => {
    const app = Fastify();
    await app.register(hookgate, { secret: SECRET, onMessage: () => {} });
    expect(app.hasRequestDecorator('webhook')).toBe(true);
    expect(app.hasRequestDecorator('webhookContext')).toBe(true);
    app.get('/typed', async (request) => {
      expectTypeOf(request.webhook).toEqualTypeOf<WebhookMessage | undefined>();
      return { webhook: request.webhook ?? null };
    });
    const res = await app.inject({ method: 'GET', url: '/typed' });
    expect(res.json()).toEqual({ webhook: null });
  });

  it('registers several paths and several instances (two secrets) side by side', async () => {
    const seen: string[] = [];
    const app = Fastify();
    await app.register(hookgate, { secret: SECRET, path: ['/a', '/b'], onMessage: () => void seen.push('first') });
    await app.register(hookgate, { secret: 'whsec_second', path: '/c', onMessage: () => void seen.push('second') });
    const url = await listen(app);
    expect((await post(`${url}/a`, JSON.stringify(message()))).status).toBe(200);
    expect((await post(`${url}/b`, JSON.stringify(message()))).status).toBe(200);
    expect((await post(`${url}/c`, JSON.stringify(message()))).status).toBe(401);
    expect((await post(`${url}/c`, JSON.stringify(message()), { secret: 'whsec_second' })).status).toBe(200);
    expect(seen).toEqual(['first', 'first', 'second']);
  });

  it('app.close() waits for handlers still running in the background (acknowledge mode)', async () => {
    let finished = 0;
    const app = Fastify();
    await app.register(hookgate, {
      secret: SECRET,
      mode: 'acknowledge',
      onMessage: async () => {
        await new Promise((r) => setTimeout(r, 300));
        finished++;
      },
    });
    const url = await listen(app);
    expect((await post(`${url}/webhooks`, JSON.stringify(message('group')))).status).toBe(200);
    expect(finished).toBe(0);
    await closeAll();
    expect(finished).toBe(1);
  });

  it('answers through inject too (in addition to real HTTP)', async () => {
    const app = Fastify();
    await app.register(hookgate, { secret: SECRET, onMessage: () => {} });
    const text = JSON.stringify(message('delete'));
    const res = await app.inject({
      method: 'POST',
      url: '/webhooks',
      payload: text,
      headers: { 'content-type': 'application/json' },
    });
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe('missing_signature');
  });

  it('refuses a registration without handlers or with a bad path, naming the option and the fix', async () => {
    await expect(Fastify().register(hookgate, { secret: SECRET }).ready()).rejects.toThrow(
      /needs handlers.*webhookRoute\(\)/s,
    );
    await expect(
      Fastify()
        .register(hookgate, { secret: SECRET, path: 'webhooks', onMessage: () => {} })
        .ready(),
    ).rejects.toThrow(/path must be a route path starting with "\/"/);
    await expect(
      Fastify()
        .register(hookgate, { onMessage: () => {} })
        .ready(),
    ).rejects.toThrow(/secret is required/);
  });
});
