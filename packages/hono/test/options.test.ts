// hookgate()'s options are checked at creation: a missing object, unknown names, wrong types, null.
import { afterEach, describe, expect, it } from 'vitest';
import { Hono } from 'hono';
import { UnknownOptionError } from '@hookgate/core';
import { hookgate, type HookgateHonoOptions } from '@hookgate/hono';
import { closeAll, message, post, SECRET, serve } from './helpers.js';

afterEach(closeAll);
const make = (options: unknown) => () => hookgate(options as HookgateHonoOptions);

describe('@hookgate/hono hookgate() options', () => {
  it('no argument: a clear error naming what to pass and the opt-out', () => {
    expect(make(undefined)).toThrow(
      /^hookgate\(\) needs an options object with your shared secret, e\.g\. hookgate\(\{ secret: /,
    );
    expect(make(undefined)).toThrow(/insecureSkipVerification: true.*Got undefined\.$/);
    expect(make('whsec_x')).toThrow(/needs an options object/);
  });

  it.each([
    [{ on: { idenitfy: () => {} } }, 'on.idenitfy', 'on.identify'],
    [{ crypt: 'web' }, 'crypt', 'crypto'],
    [{ dedupe: { stor: {} } }, 'dedupe.stor', 'dedupe.store'],
  ])('%j → throws naming %s, suggesting %s', (extra, option, suggestion) => {
    let error: unknown;
    try {
      hookgate({ secret: SECRET, ...(extra as object) });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(UnknownOptionError);
    expect((error as Error).message).toContain(`hookgate(): unknown`);
    expect((error as UnknownOptionError).option).toBe(option);
    expect((error as UnknownOptionError).suggestion).toBe(suggestion);
  });

  it('wrong types name the field', () => {
    expect(make({ secret: SECRET, onMessage: 'x' })).toThrow(/^hookgate\(\): onMessage must be a function/);
    expect(make({ secret: SECRET, crypto: 'subtle' })).toThrow(/crypto must be 'auto' or 'web'/);
  });

  it('null optional fields are left out, over HTTP (handlers and pass-through)', async () => {
    const seen: string[] = [];
    const app = new Hono();
    app.post(
      '/webhooks',
      hookgate({
        secret: SECRET,
        on: { track: null },
        onMessage: (m: { type: string }) => void seen.push(m.type),
        crypto: null,
        dedupe: null,
      } as unknown as HookgateHonoOptions),
    );
    app.post(
      '/events',
      hookgate({ secret: SECRET, on: null, onMessage: null, mode: null } as unknown as HookgateHonoOptions),
      (c) => c.json({ type: c.get('webhook').type }),
    );
    const url = await serve(app);
    const track = JSON.stringify(message('track'));
    expect((await post(`${url}/webhooks`, track)).status).toBe(200);
    expect(JSON.parse((await post(`${url}/webhooks`, track)).body)).toMatchObject({ duplicate: true });
    expect(seen).toEqual(['track']);
    expect(await post(`${url}/events`, JSON.stringify(message('alias')))).toEqual({
      status: 200,
      body: JSON.stringify({ type: 'alias' }),
    });
  });
});
