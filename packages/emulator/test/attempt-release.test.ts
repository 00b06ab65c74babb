import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterEach, describe, expect, it } from 'vitest';
import { sendAttempt, type AttemptHandle, type AttemptResult } from '../src/delivery/http-attempt.js';
import { Http1ConnectionPool, type Http1Connection } from '../src/delivery/http1-connection-pool.js';

// A full GC for this test only (the library never calls one): `--expose-gc` set at run time, read from a new context.
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

describe('an attempt lets go of its request when it ends (memory: 100,000 first attempts, bench/README.md)', () => {
  const open: Array<() => void> = [];
  afterEach(() => {
    for (const close of open.splice(0)) close();
  });

  const receiver = async (handler: http.RequestListener): Promise<string> => {
    const server = http.createServer(handler);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    open.push(() => server.close());
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  };

  const target = (url: string, pool: Http1ConnectionPool) => pool.target({ parsed: new URL(url), headers: {} });

  const attempt = (url: string, pool: Http1ConnectionPool) =>
    new Promise<{ handle: AttemptHandle; request: WeakRef<object>; result: AttemptResult }>((resolve) => {
      const body = Buffer.from('{"type":"track"}');
      // eslint-disable-next-line prefer-const -- assigned below, after the callback that reads it is made
      let request: WeakRef<object> | undefined;
      const handle = sendAttempt(target(url, pool), body, undefined, (result) =>
        // After the callback: the handle is still held below, as the engine's entry may hold it.
        setImmediate(() => resolve({ handle, request: request as WeakRef<object>, result })),
      );
      // The request's bytes are what a kept handle could pin (node:http's request object, with its
      // answer, parser state and buffers, before the raw-socket transport).
      request = new WeakRef((handle as unknown as { request: object }).request);
    });

  for (const [name, status] of [
    ['answered 503', 503],
    ['answered 200', 200],
  ] as const) {
    it(`${name}: the ended attempt's handle, still held, no longer keeps the request alive`, async () => {
      const url = await receiver((req, res) => {
        req.resume();
        req.on('end', () => res.writeHead(status, { 'content-type': 'text/plain' }).end('ok'));
      });
      const pool = new Http1ConnectionPool({}, 'test');
      open.push(() => pool.destroy());
      const { handle, request, result } = await attempt(url, pool);
      expect(result.status).toBe(status);
      expect(result.responseBody).toBe('ok');
      pool.destroy(); // the keep-alive socket may point at its last request: close it, as it would be reused
      for (let i = 0; i < 10 && request.deref() !== undefined; i++) {
        await new Promise((r) => setTimeout(r, 20));
        gc();
      }
      expect(handle).toBeDefined();
      expect(request.deref()).toBeUndefined();
    });
  }

  it('abort() after the attempt started still ends the request (the handle drops it only once done)', async () => {
    let arrived!: () => void;
    const seen = new Promise<void>((r) => (arrived = r));
    const url = await receiver((req) => {
      req.resume();
      arrived(); // never answers
    });
    const pool = new Http1ConnectionPool({}, 'test');
    open.push(() => pool.destroy());
    let result: AttemptResult | undefined;
    const handle = sendAttempt(target(url, pool), Buffer.from('{}'), undefined, (r) => (result = r));
    const connection = (handle as unknown as { connection: Http1Connection }).connection;
    await seen;
    handle.abort({ code: 'timeout', message: 'no answer within 10 ms' });
    expect(result?.error?.code).toBe('timeout');
    expect(connection.socket.destroyed).toBe(true);
    expect((handle as unknown as { connection: unknown }).connection).toBeUndefined();
  });
});
