// The Lambda example, fed the event shapes AWS documents (API Gateway REST API proxy events, payload
// v1; HTTP API and function URL events, payload v2; bodies plain and base64), directly and through a
// local HTTP server that turns each real request into such an event, as the services do.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allFixtures, sign } from '@hookgate/core';
import type { ApiGatewayV1Event, ApiGatewayV2Event } from './lambda-request.js';

const SECRET = 'lambda-example-secret';
// The handler reads its secret when loaded; the variable is put back at once, as other test files may share
// this process.
const savedSecret = process.env.WEBHOOK_SECRET;
process.env.WEBHOOK_SECRET = SECRET;
const { handler, seen } = await import('./handler.js');
if (savedSecret === undefined) delete process.env.WEBHOOK_SECRET;
else process.env.WEBHOOK_SECRET = savedSecret;

const track = allFixtures().find((m) => m.type === 'track')!;
const body = JSON.stringify({ ...track, properties: { note: 'café ✓' } });

/** A REST API (v1) proxy event, with the fields AWS's sample event carries. */
function v1Event(headers: Record<string, string>, text: string, base64: boolean): ApiGatewayV1Event {
  return {
    resource: '/webhooks',
    path: '/webhooks',
    httpMethod: 'POST',
    headers,
    multiValueHeaders: Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, [v]])),
    queryStringParameters: null,
    multiValueQueryStringParameters: null,
    pathParameters: null,
    stageVariables: null,
    requestContext: {
      httpMethod: 'POST',
      path: '/prod/webhooks',
      stage: 'prod',
      requestId: 'c6af9ac6-7b61-11e6-9a41-93e8deadbeef',
    },
    body: base64 ? Buffer.from(text).toString('base64') : text,
    isBase64Encoded: base64,
  } as ApiGatewayV1Event;
}

/** A payload v2 event (HTTP API, function URL): lowercase headers, repeated ones joined by commas. */
function v2Event(headers: Record<string, string>, text: string, base64: boolean): ApiGatewayV2Event {
  return {
    version: '2.0',
    routeKey: '$default',
    rawPath: '/webhooks',
    rawQueryString: '',
    headers: Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v])),
    requestContext: {
      accountId: '123456789012',
      apiId: 'abcdefghij',
      domainName: 'abcdefghij.lambda-url.us-east-1.on.aws',
      http: {
        method: 'POST',
        path: '/webhooks',
        protocol: 'HTTP/1.1',
        sourceIp: '203.0.113.7',
        userAgent: 'Segment.io/1.0',
      },
      requestId: 'id',
      stage: '$default',
      time: '25/Nov/2026:21:00:00 +0000',
      timeEpoch: 1795640400000,
    },
    body: base64 ? Buffer.from(text).toString('base64') : text,
    isBase64Encoded: base64,
  } as ApiGatewayV2Event;
}

const signedHeaders = {
  'Content-Type': 'application/json',
  'User-Agent': 'Segment.io/1.0',
  'X-Signature': sign(body, SECRET),
};

describe('examples/lambda-receiver: the documented event shapes', () => {
  for (const [name, make] of [
    ['v1 (REST API)', v1Event],
    ['v2 (HTTP API, function URL)', v2Event],
  ] as const) {
    for (const base64 of [false, true]) {
      it(`${name}, body ${base64 ? 'base64-encoded' : 'as text'}: 200 and the handler ran once`, async () => {
        const before = seen.length;
        const text = body.replace('café', `café ${name} ${base64}`);
        const headers = { ...signedHeaders, 'X-Signature': sign(text, SECRET) };
        const result = await handler(make({ ...headers }, text, base64));
        expect(result.statusCode).toBe(200);
        expect(JSON.parse(result.body)).toMatchObject({ ok: true });
        expect(seen.length).toBe(before + 1);
        expect(seen.at(-1)).toEqual(JSON.parse(text));
        // The same delivery again (a retry): answered 200, not handled twice.
        expect((await handler(make({ ...headers }, text, base64))).statusCode).toBe(200);
        expect(seen.length).toBe(before + 1);
      });
    }
  }

  it('a wrong signature, a re-encoded body and a doubled X-Signature are refused', async () => {
    const forged = v2Event({ ...signedHeaders, 'X-Signature': sign(body, 'not-the-secret') }, body, false);
    expect((await handler(forged)).statusCode).toBe(401);
    const reencoded = body.replace('café', 'caf\\u00e9');
    expect((await handler(v1Event({ ...signedHeaders }, reencoded, true))).statusCode).toBe(401);
    const doubled = v1Event({ ...signedHeaders }, body, false);
    doubled.multiValueHeaders!['X-Signature'] = [signedHeaders['X-Signature'], signedHeaders['X-Signature']];
    expect((await handler(doubled)).statusCode).toBe(401);
    const joined = v2Event(
      { ...signedHeaders, 'X-Signature': `${signedHeaders['X-Signature']},${signedHeaders['X-Signature']}` },
      body,
      false,
    );
    expect((await handler(joined)).statusCode).toBe(401);
  });

  it('a GET is 405 and a missing body 400', async () => {
    const get = v2Event({}, '', false);
    get.requestContext.http.method = 'GET';
    expect((await handler(get)).statusCode).toBe(405);
    expect(
      (await handler(v1Event({ 'Content-Type': 'application/json', 'X-Signature': sign('', SECRET) }, '', false)))
        .statusCode,
    ).toBe(400);
  });
});

describe('examples/lambda-receiver: over real HTTP, through a function-URL-like server', () => {
  let server: http.Server;
  let url: string;
  beforeAll(async () => {
    // What a function URL does with a request: read it whole, base64 the body when it is not text,
    // call the function with a v2 event, and write its result back.
    server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        void (async () => {
          const bytes = Buffer.concat(chunks);
          const isText =
            /^(application\/json|text\/)/.test(req.headers['content-type'] ?? '') && !req.headers['x-test-binary'];
          const headers: Record<string, string> = {};
          for (const [k, v] of Object.entries(req.headers)) headers[k] = Array.isArray(v) ? v.join(',') : String(v);
          const event = v2Event(headers, '', false);
          event.requestContext.http.method = req.method!;
          event.body = isText ? bytes.toString('utf8') : bytes.toString('base64');
          event.isBase64Encoded = !isText;
          const result = await handler(event);
          res.writeHead(result.statusCode, result.headers).end(result.body);
        })().catch((error: unknown) => res.writeHead(500).end(String(error)));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('every message type is handled, plain and base64, and a forgery is 401', async () => {
    for (const [i, fixture] of allFixtures().entries()) {
      const text = JSON.stringify({ ...fixture, timestamp: `2026-11-25T21:00:0${i % 10}.000Z` });
      const binary = i % 2 === 1;
      const res = await fetch(url, {
        method: 'POST',
        body: text,
        headers: {
          'content-type': 'application/json',
          'x-signature': sign(text, SECRET),
          ...(binary ? { 'x-test-binary': '1' } : {}),
        },
      });
      expect(res.status).toBe(200);
      expect(seen.at(-1)).toEqual(JSON.parse(text));
    }
    const res = await fetch(url, {
      method: 'POST',
      body,
      headers: { 'content-type': 'application/json', 'x-signature': '0'.repeat(40) },
    });
    expect(res.status).toBe(401);
  });
});
