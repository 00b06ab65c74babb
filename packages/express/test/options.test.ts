// hookgate()'s options are checked at creation: a missing object, unknown names, wrong types, null.
import { afterEach, describe, expect, it } from 'vitest';
import express from 'express';
import { UnknownOptionError } from '@hookgate/core';
import { hookgate, type HookgateExpressOptions } from '@hookgate/express';
import { closeAll, message, post, SECRET, serve } from './helpers.js';

afterEach(closeAll);
const make = (options: unknown) => () => hookgate(options as HookgateExpressOptions);

describe('@hookgate/express hookgate() options', () => {
  it('no argument: a clear error naming what to pass and the opt-out, not "Cannot read properties of undefined"', () => {
    expect(make(undefined)).toThrow(TypeError);
    expect(make(undefined)).toThrow(
      /^hookgate\(\) needs an options object with your shared secret, e\.g\. hookgate\(\{ secret: process\.env\.WEBHOOK_SECRET/,
    );
    expect(make(undefined)).toThrow(/insecureSkipVerification: true/);
    expect(make(undefined)).not.toThrow(/Cannot read/);
    expect(make(null)).toThrow(/needs an options object.*Got null\.$/);
  });

  it.each([
    [{ on: { trak: () => {} } }, 'on.trak', 'on.track'],
    [{ onMesage: () => {} }, 'onMesage', 'onMessage'],
    [{ dedupe: { inFlightTTLms: 5 } }, 'dedupe.inFlightTTLms', 'dedupe.inFlightTtlMs'],
    [{ path: '/webhooks' }, 'path', undefined], // the plugin option of Fastify is not one of Express's
  ])('%j → throws naming %s, suggesting %s', (extra, option, suggestion) => {
    let error: unknown;
    try {
      hookgate({ secret: SECRET, ...(extra as object) });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(UnknownOptionError);
    expect((error as UnknownOptionError).message).toMatch(
      new RegExp(`^hookgate\\(\\): unknown (option|message type) "${option}"`),
    );
    expect((error as UnknownOptionError).suggestion).toBe(suggestion);
  });

  it('wrong types name the field', () => {
    expect(make({ secret: SECRET, on: { track: 'x' } })).toThrow(/^hookgate\(\): on\.track must be a function/);
    expect(make({ secret: SECRET, deadlineMs: 9000 })).toThrow(
      /deadlineMs must be a whole number of milliseconds from 1 to 4999/,
    );
    expect(make({ secret: 42 })).toThrow(/secret must be a non-empty string/);
  });

  it('null optional fields are left out: the middleware runs with the defaults over HTTP', async () => {
    const seen: string[] = [];
    const app = express();
    app.all(
      '/webhooks',
      hookgate({
        secret: SECRET,
        on: { track: null, page: () => void seen.push('page') },
        onMessage: (m: { type: string }) => void seen.push(`any:${m.type}`),
        mode: null,
        deadlineMs: null,
        dedupe: null,
      } as unknown as HookgateExpressOptions),
    );
    // Behind express.json() too: the same checks, the same answers.
    app.all(
      '/parsed',
      express.json(),
      hookgate({ secret: SECRET, on: null, onMessage: null } as unknown as HookgateExpressOptions),
      (req, res) => {
        res.json({ type: req.webhook?.type });
      },
    );
    const { url } = await serve(app);
    const track = JSON.stringify(message('track'));
    expect((await post(`${url}/webhooks`, track)).status).toBe(200);
    expect(JSON.parse((await post(`${url}/webhooks`, track)).body)).toMatchObject({ duplicate: true });
    expect((await post(`${url}/webhooks`, JSON.stringify(message('page')))).status).toBe(200);
    expect(seen).toEqual(['any:track', 'page']);
    const passed = await post(`${url}/parsed`, JSON.stringify(message('group')));
    expect(passed).toEqual({ status: 200, body: JSON.stringify({ type: 'group' }) });
  });
});
