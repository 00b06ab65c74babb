// The plugin's and webhookRoute()'s options are checked at creation: unknown names, wrong types, null.
import { afterEach, describe, expect, it } from 'vitest';
import Fastify from 'fastify';
import { UnknownOptionError } from '@hookgate/core';
import { hookgate, webhookRoute, type HookgatePluginOptions, type WebhookRouteOptions } from '@hookgate/fastify';
import { closeAll, listen, message, post, SECRET } from './helpers.js';

afterEach(closeAll);

async function register(options: unknown): Promise<unknown> {
  const app = Fastify();
  try {
    await app.register(hookgate, options as HookgatePluginOptions);
    await app.ready();
    return undefined;
  } catch (error) {
    return error;
  } finally {
    await app.close();
  }
}

describe('@hookgate/fastify plugin options', () => {
  it.each([
    [{ on: { trak: () => {} } }, 'on.trak', 'on.track'],
    [{ onMessage: () => {}, paht: '/hooks' }, 'paht', 'path'],
    [{ onMessage: () => {}, prefx: '/v1' }, 'prefx', 'prefix'],
    [{ onMessage: () => {}, dedupe: { ttlms: 5 } }, 'dedupe.ttlms', 'dedupe.ttlMs'],
  ])('%j → registration fails naming %s, suggesting %s', async (extra, option, suggestion) => {
    const error = await register({ secret: SECRET, ...extra });
    expect(error).toBeInstanceOf(UnknownOptionError);
    expect((error as Error).message).toContain('the hookgate plugin: unknown');
    expect((error as UnknownOptionError).option).toBe(option);
    expect((error as UnknownOptionError).suggestion).toBe(suggestion);
  });

  it('no options: names the handlers to give (Fastify passes {} for a missing options object)', async () => {
    expect(String(await register(undefined))).toMatch(/needs handlers: give `on`.*or `onMessage`/);
  });

  it('wrong types name the field', async () => {
    expect(String(await register({ secret: SECRET, on: { track: 1 } }))).toMatch(
      /the hookgate plugin: on\.track must be a function/,
    );
    expect(String(await register({ secret: SECRET, onMessage: () => {}, path: 'webhooks' }))).toMatch(
      /path must be a route path starting with "\/"/,
    );
  });

  it("Fastify's own register options (prefix, logLevel) pass, and null fields are left out, over HTTP", async () => {
    const seen: string[] = [];
    const app = Fastify();
    await app.register(hookgate, {
      secret: SECRET,
      prefix: '/v1',
      logLevel: 'warn',
      path: null,
      on: { track: null },
      onMessage: (m: { type: string }) => void seen.push(m.type),
      dedupe: null,
      deadlineMs: null,
    } as unknown as HookgatePluginOptions);
    const url = await listen(app);
    const track = JSON.stringify(message('track'));
    expect((await post(`${url}/webhooks`, track)).status).toBe(200);
    expect(JSON.parse((await post(`${url}/webhooks`, track)).body)).toMatchObject({ duplicate: true });
    expect(seen).toEqual(['track']);
  });
});

describe('@hookgate/fastify webhookRoute() options', () => {
  const make = (options: unknown) => () => webhookRoute(options as WebhookRouteOptions);

  it('no argument: a clear error naming what to pass and the opt-out', () => {
    expect(make(undefined)).toThrow(
      /^webhookRoute\(\) needs an options object with your shared secret, e\.g\. webhookRoute\(\{ secret: /,
    );
    expect(make(undefined)).toThrow(/insecureSkipVerification: true/);
  });

  it("unknown names, with the nearest valid one; path is the plugin's, not the route's", () => {
    expect(make({ secret: SECRET, deadlinMs: 3000 })).toThrow(
      /^webhookRoute\(\): unknown option "deadlinMs"; did you mean "deadlineMs"\?/,
    );
    expect(make({ secret: SECRET, path: '/x' })).toThrow(/^webhookRoute\(\): unknown option "path"/);
    expect(make({ secret: SECRET, on: { track: () => {} } })).toThrow(/runs your route handler as the handler/);
  });

  it('null optional fields are left out, over HTTP', async () => {
    const app = Fastify();
    app.all(
      '/mine',
      webhookRoute({
        secret: SECRET,
        on: null,
        onMessage: null,
        mode: null,
        maxBodyBytes: null,
      } as unknown as WebhookRouteOptions),
      async (request) => ({ type: request.webhook!.type }),
    );
    const url = await listen(app);
    expect(await post(`${url}/mine`, JSON.stringify(message('screen')))).toEqual({
      status: 200,
      body: JSON.stringify({ type: 'screen' }),
    });
  });
});
