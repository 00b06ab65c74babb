// webhookRoute(): verification as route options (preHandler, errorHandler, bodyLimit) on a route of your own.
import { afterEach, describe, expect, expectTypeOf, it } from 'vitest';
import Fastify from 'fastify';
import type { IdentifyMessage, Verification } from '@hookgate/core';
import { hookgateRawBody, RouteFailedError, webhookRoute } from '@hookgate/fastify';
import { closeAll, listen, message, post, SECRET } from './helpers.js';

afterEach(closeAll);

describe('@hookgate/fastify webhookRoute()', () => {
  it("under Fastify's default parser, verifies the parsed body by re-serialization (the seed's method)", async () => {
    const seen: Verification[] = [];
    const app = Fastify();
    app.post('/mine', webhookRoute({ secret: SECRET }), async (request) => {
      seen.push(request.webhookContext!.verification);
      const msg = request.webhook!;
      if (msg.type === 'identify') {
        expectTypeOf(msg).toEqualTypeOf<IdentifyMessage>();
        return { traits: msg.traits };
      }
      return { type: msg.type };
    });
    const url = await listen(app);
    const msg = message('identify');
    const res = await post(`${url}/mine`, JSON.stringify(msg));
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body)).toEqual({ traits: (msg as IdentifyMessage).traits });
    expect(seen).toEqual([{ form: 'stringify', secretIndex: 0 }]);
  });

  it('with hookgateRawBody in the scope, verifies the exact bytes; outside it the default parser is untouched', async () => {
    const seen: Verification[] = [];
    const app = Fastify();
    await app.register(async (scope) => {
      await scope.register(hookgateRawBody);
      scope.post('/mine', webhookRoute({ secret: SECRET }), async (request) => {
        seen.push(request.webhookContext!.verification);
        return { ok: true };
      });
    });
    app.post('/other', webhookRoute({ secret: SECRET }), async (request) => ({
      form: request.webhookContext!.verification.form,
    }));
    const url = await listen(app);
    const pretty = JSON.stringify(message('page'), null, 2);
    expect((await post(`${url}/mine`, pretty)).status).toBe(200);
    expect(seen).toEqual([{ form: 'raw', secretIndex: 0 }]);
    // Without the raw bytes a pretty-printed body cannot be verified: 401, as documented.
    expect((await post(`${url}/other`, pretty)).status).toBe(401);
    expect(JSON.parse((await post(`${url}/other`, JSON.stringify(message('page')))).body)).toEqual({
      form: 'stringify',
    });
  });

  it('in a hookgateRawBody scope, checks the signature before parsing: unsigned bad JSON is 401; the handler still gets request.body', async () => {
    const bodies: unknown[] = [];
    const app = Fastify();
    await app.register(async (scope) => {
      await scope.register(hookgateRawBody);
      scope.post('/mine', webhookRoute({ secret: SECRET }), async (request) => {
        bodies.push(request.body);
        return { ok: true };
      });
      // A route of the same scope without webhookRoute(): parsed up front, Fastify's 400s as usual.
      scope.post('/plain', async (request) => ({ body: request.body }));
    });
    const url = await listen(app);
    const unsigned = (path: string, body: string) =>
      fetch(`${url}${path}`, { method: 'POST', body, headers: { 'content-type': 'application/json' } });

    const bad = await unsigned('/mine', '{"type":');
    expect(bad.status).toBe(401);
    expect(((await bad.json()) as { code: string }).code).toBe('missing_signature');
    const signedBad = await post(`${url}/mine`, '{"type":');
    expect(signedBad.status).toBe(400);
    expect(JSON.parse(signedBad.body).code).toBe('invalid_json');
    const base = JSON.stringify(message('track')).slice(0, -1);
    const withProtoKey = await post(`${url}/mine`, `${base},"__proto__":{"isAdmin":true}}`);
    expect(withProtoKey.status).toBe(200); // parsed by core after verification, as on every adapter

    const msg = message('group');
    expect((await post(`${url}/mine`, JSON.stringify(msg))).status).toBe(200);
    expect(bodies).toHaveLength(2);
    expect(bodies[1]).toEqual(msg);

    expect(await (await unsigned('/plain', '{"a":1}')).json()).toEqual({ body: { a: 1 } });
    expect((await unsigned('/plain', '{"a":')).status).toBe(400);
  });

  it('a route error becomes the receiver 500 (no stack) and reaches onError; the retry runs again', async () => {
    let runs = 0;
    const errors: unknown[] = [];
    const app = Fastify();
    app.post('/mine', webhookRoute({ secret: SECRET, onError: (e) => void errors.push(e) }), async () => {
      runs++;
      if (runs === 1) throw new Error('queue unavailable');
      return { ok: true };
    });
    const url = await listen(app);
    const text = JSON.stringify(message('track'));
    const first = await post(`${url}/mine`, text);
    expect(first.status).toBe(500);
    expect(JSON.parse(first.body)).toMatchObject({ ok: false, code: 'handler_error' });
    expect(first.body).not.toContain('queue unavailable');
    expect((await post(`${url}/mine`, text)).status).toBe(200);
    expect(JSON.parse((await post(`${url}/mine`, text)).body).code).toBe('duplicate');
    expect(runs).toBe(2);
    expect((errors[0] as Error).message).toBe('queue unavailable');
  });

  it('a route that answers 5xx itself keeps its answer and frees the message for the retry', async () => {
    const errors: unknown[] = [];
    let runs = 0;
    const app = Fastify();
    app.post(
      '/mine',
      webhookRoute({ secret: SECRET, onError: (e) => void errors.push(e) }),
      async (_request, reply) => {
        runs++;
        return reply.code(runs === 1 ? 503 : 200).send({ run: runs });
      },
    );
    const url = await listen(app);
    const text = JSON.stringify(message('screen'));
    const first = await post(`${url}/mine`, text);
    expect(first.status).toBe(503);
    expect(JSON.parse(first.body)).toEqual({ run: 1 });
    expect((await post(`${url}/mine`, text)).status).toBe(200);
    expect(runs).toBe(2);
    expect(errors[0]).toBeInstanceOf(RouteFailedError);
  });

  it('refuses on/onMessage and acknowledge mode, naming the option and the fix', () => {
    expect(() => webhookRoute({ secret: SECRET, onMessage: () => {} } as never)).toThrow(
      /`on` \/ `onMessage` would never run/,
    );
    expect(() => webhookRoute({ secret: SECRET, mode: 'acknowledge' })).toThrow(
      /mode: 'acknowledge'.*hookgate plugin/s,
    );
  });
});
