// hookgate() reads the raw body itself, or works with what express.json() / raw() / text() left.
import { afterEach, describe, expect, it } from 'vitest';
import express from 'express';
import type { Verification, WebhookMessage } from '@hookgate/core';
import { hookgate } from '@hookgate/express';
import { closeAll, message, post, SECRET, serve } from './helpers.js';

afterEach(closeAll);

function recording() {
  const seen: Array<{ message: WebhookMessage; verification: Verification }> = [];
  const onMessage = (m: WebhookMessage, ctx: { verification: Verification }) => {
    seen.push({ message: m, verification: ctx.verification });
  };
  return { seen, onMessage };
}

describe('@hookgate/express and body parsers', () => {
  it('with nothing before it, reads the raw bytes and verifies them as received', async () => {
    const { seen, onMessage } = recording();
    const app = express();
    app.all('/webhooks', hookgate({ secret: SECRET, onMessage }));
    const { url } = await serve(app);
    const msg = message('identify');
    // Pretty-printed: only the raw bytes carry this signature; a re-serialization would not match.
    const text = JSON.stringify(msg, null, 2);
    const res = await post(`${url}/webhooks`, text);
    expect(res.status).toBe(200);
    expect(seen).toEqual([{ message: msg, verification: { form: 'raw', secretIndex: 0 } }]);
  });

  it('after a global express.json(), verifies by re-serialization instead of hanging on the spent stream', async () => {
    const { seen, onMessage } = recording();
    const app = express();
    app.use(express.json());
    app.all('/webhooks', hookgate({ secret: SECRET, onMessage }));
    app.post('/other', (req, res) => void res.json({ echoed: req.body }));
    const { url } = await serve(app);
    const msg = message('track');
    const started = Date.now();
    // The real sender signs JSON.stringify output, which the re-serialization reproduces.
    const res = await post(`${url}/webhooks`, JSON.stringify(msg));
    // A hang would last until the 5 s sender timeout; the rest of the bound is margin for a busy machine.
    expect(Date.now() - started).toBeLessThan(4_000);
    expect(res.status).toBe(200);
    expect(seen).toEqual([{ message: msg, verification: { form: 'stringify', secretIndex: 0 } }]);
    // Other routes keep express.json() as usual.
    const other = await fetch(`${url}/other`, {
      method: 'POST',
      body: '{"a":1}',
      headers: { 'content-type': 'application/json' },
    });
    expect(await other.json()).toEqual({ echoed: { a: 1 } });
  });

  it('after express.json(), a body signed over bytes that do not round-trip is refused (401) — unless verify kept the bytes', async () => {
    const text = JSON.stringify(message('track'), null, 2);

    const plain = express();
    plain.use(express.json());
    plain.all('/webhooks', hookgate({ secret: SECRET, onMessage: () => {} }));
    expect((await post(`${(await serve(plain)).url}/webhooks`, text)).status).toBe(401);

    const { seen, onMessage } = recording();
    const keeping = express();
    keeping.use(express.json({ verify: (req, _res, buf) => void ((req as { rawBody?: Buffer }).rawBody = buf) }));
    keeping.all('/webhooks', hookgate({ secret: SECRET, onMessage }));
    expect((await post(`${(await serve(keeping)).url}/webhooks`, text)).status).toBe(200);
    expect(seen[0]?.verification.form).toBe('raw');
  });

  it('after express.raw() or express.text(), verifies those bytes / that text', async () => {
    for (const parser of [express.raw({ type: '*/*' }), express.text({ type: '*/*' })]) {
      const { seen, onMessage } = recording();
      const app = express();
      app.use(parser);
      app.all('/webhooks', hookgate({ secret: SECRET, onMessage }));
      const { url } = await serve(app);
      const text = JSON.stringify(message('page'), null, 1);
      expect((await post(`${url}/webhooks`, text)).status).toBe(200);
      expect(seen[0]?.verification.form).toBe('raw');
    }
  });

  it('over the limit with express.json() skipped (wrong type) still reads under the limit → 413', async () => {
    const app = express();
    app.use(express.json());
    app.all('/webhooks', hookgate({ secret: SECRET, maxBodyBytes: 100, onMessage: () => {} }));
    const { url } = await serve(app);
    const res = await post(`${url}/webhooks`, JSON.stringify(message('track')));
    expect(res.status).toBe(413);
    expect(JSON.parse(res.body).code).toBe('payload_too_large');
  });
});
