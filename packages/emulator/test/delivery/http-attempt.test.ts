// The delivery transport (node:http with one keep-alive agent per origin, delivery/http-attempt.ts)
// against real servers on 127.0.0.1: node:http receivers, and raw net servers that write answers in odd pieces.
import { once } from 'node:events';
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { EndpointAgents } from '../../src/delivery/endpoint-agents.js';
import { RESPONSE_BODY_LIMIT, sendAttempt, type AttemptResult } from '../../src/delivery/http-attempt.js';
import { requestHeaders } from '../../src/delivery/request-headers.js';
import { startSelfSignedServer } from '../helpers/self-signed.js';

const UA = 'Segment.io/1.0';
/** node:http's bound on an answer's head. */
const MAX_HEAD_BYTES = http.maxHeaderSize;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const open: Array<() => unknown> = [];
afterEach(async () => {
  for (const close of open.splice(0).reverse()) await close();
});

function pool(ca?: string): EndpointAgents {
  const p = new EndpointAgents(ca ? { ca } : {}, UA);
  open.push(() => p.destroy());
  return p;
}

interface NodeReceiver {
  url: string;
  port: number;
  /** TCP connections the server accepted. */
  connections: net.Socket[];
  /** Sockets the server saw close. */
  closed: number;
  requests: Array<{ method: string; url: string; rawHeaders: string[]; body: string }>;
}

/** A node:http server on 127.0.0.1; `answer` writes the response (default: 200 "ok"). */
async function nodeReceiver(
  answer: (req: http.IncomingMessage, res: http.ServerResponse, body: string) => void = (_q, res) => res.end('ok'),
  host = '127.0.0.1',
): Promise<NodeReceiver> {
  const state: NodeReceiver = { url: '', port: 0, connections: [], closed: 0, requests: [] };
  const server = http.createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (body += c));
    req.on('end', () => {
      state.requests.push({ method: req.method ?? '', url: req.url ?? '', rawHeaders: req.rawHeaders, body });
      answer(req, res, body);
    });
  });
  server.on('connection', (s: net.Socket) => {
    state.connections.push(s);
    s.on('close', () => state.closed++);
  });
  server.listen(0, host);
  await once(server, 'listening');
  state.port = (server.address() as AddressInfo).port;
  state.url = `http://${host.includes(':') ? `[${host}]` : host}:${state.port}`;
  open.push(
    () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  );
  return state;
}

/** A raw TCP server: `onRequest` gets each request's head (as received) and the socket to answer on. */
async function rawServer(
  onRequest: (socket: net.Socket, head: string, index: number) => void,
): Promise<{ url: string; connections: number; requests: number }> {
  const state = { url: '', connections: 0, requests: 0 };
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    state.connections++;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    let buffered = '';
    socket.on('data', (chunk) => {
      buffered += chunk.toString('latin1');
      const end = buffered.indexOf('\r\n\r\n');
      if (end < 0) return;
      const head = buffered.slice(0, end);
      const length = Number(/\r\ncontent-length: (\d+)/i.exec(head)?.[1] ?? 0);
      if (buffered.length < end + 4 + length) return;
      buffered = buffered.slice(end + 4 + length);
      onRequest(socket, head, state.requests++);
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  open.push(
    () =>
      new Promise<void>((r) => {
        for (const s of sockets) s.destroy();
        server.close(() => r());
      }),
  );
  return state;
}

/** Writes `pieces` one by one, each in its own TCP segment (a pause between writes). */
async function writeSlowly(socket: net.Socket, pieces: Array<string | Buffer>, pauseMs = 2): Promise<void> {
  socket.setNoDelay(true);
  for (const piece of pieces) {
    if (socket.destroyed) return;
    socket.write(piece);
    await sleep(pauseMs);
  }
}

function attempt(
  p: EndpointAgents,
  url: string,
  options: { body?: string; signature?: string; headers?: Record<string, string> } = {},
): Promise<AttemptResult> {
  return new Promise((resolve) => {
    let calls = 0;
    sendAttempt(
      p.target({ parsed: new URL(url), headers: options.headers ?? {} }),
      Buffer.from(options.body ?? '{"type":"track"}'),
      options.signature,
      (result) => {
        calls++;
        expect(calls).toBe(1);
        resolve(result);
      },
    );
  });
}

const pairs = (raw: string[]) =>
  raw.reduce<Array<[string, string]>>((acc, v, i) => (i % 2 === 0 ? [...acc, [v, raw[i + 1] as string]] : acc), []);

describe('request head: what a node:http receiver sees', () => {
  it('is exactly the header set node:http sent before (same names, order and values), body intact', async () => {
    const r = await nodeReceiver();
    const url = `${r.url.replace('http://', 'http://us%20er:p%C3%A4ss@')}/hook?x=1&y=%20`;
    const body = '{"type":"track","text":"héllo"}';
    const signature = 'a94a8fe5ccb19ba61c4c0873d391e987982fbbd3';
    const staticHeaders = { Authorization2: 'x', 'X-Team': 'blue' };
    const result = await attempt(pool(), url, { body, signature, headers: staticHeaders });
    expect(result.status).toBe(200);
    expect(result.responseBody).toBe('ok');

    // The reference: the same request through node:http, as the emulator sent it before.
    const reference = await new Promise<void>((resolve, reject) => {
      const u = new URL(url);
      const bytes = Buffer.from(body);
      const agent = new http.Agent({ keepAlive: false });
      const req = http.request(
        {
          hostname: u.hostname,
          port: u.port,
          path: `${u.pathname}${u.search}`,
          auth: `${decodeURIComponent(u.username)}:${decodeURIComponent(u.password)}`,
          method: 'POST',
          agent,
          headers: requestHeaders(UA, staticHeaders, bytes.length, signature),
        },
        (res) => {
          res.resume();
          res.on('end', () => {
            agent.destroy();
            resolve();
          });
        },
      );
      req.on('error', reject);
      req.end(bytes);
    });
    void reference;
    const [ours, theirs] = r.requests;
    expect(ours?.method).toBe('POST');
    expect(ours?.url).toBe('/hook?x=1&y=%20');
    expect(ours?.body).toBe(body);
    expect(pairs(ours?.rawHeaders ?? [])).toEqual(pairs(theirs?.rawHeaders ?? []));
    expect(pairs(ours?.rawHeaders ?? [])).toEqual([
      ['User-Agent', UA],
      ['Content-Type', 'application/json'],
      ['Content-Length', String(Buffer.byteLength(body))],
      ['Accept-Encoding', 'identity'],
      ['Authorization2', 'x'],
      ['X-Team', 'blue'],
      ['X-Signature', signature],
      ['Host', `127.0.0.1:${r.port}`],
      ['Authorization', `Basic ${Buffer.from('us er:päss').toString('base64')}`],
      ['Connection', 'close'],
    ]);
  });

  it('no signature, no userinfo: no X-Signature and no Authorization; a static Authorization wins over userinfo', async () => {
    const r = await nodeReceiver();
    const p = pool();
    await attempt(p, `${r.url}/plain`);
    await attempt(p, `${r.url.replace('http://', 'http://u:p@')}/auth`, { headers: { Authorization: 'Bearer t0k3n' } });
    const names = (raw: string[]) => pairs(raw).map(([n]) => n);
    expect(names(r.requests[0]?.rawHeaders ?? [])).toEqual([
      'User-Agent',
      'Content-Type',
      'Content-Length',
      'Accept-Encoding',
      'Host',
      'Connection',
    ]);
    expect(pairs(r.requests[1]?.rawHeaders ?? []).filter(([n]) => n.toLowerCase() === 'authorization')).toEqual([
      ['Authorization', 'Bearer t0k3n'],
    ]);
  });

  it('a header value node:http would refuse (a character above U+00FF) fails the attempt for good, nothing sent', async () => {
    const r = await nodeReceiver();
    const result = await attempt(pool(), `${r.url}/hook`, { headers: { 'X-Euro': '€' } });
    expect(result.error).toMatchObject({ code: 'aborted', cause: 'ERR_INVALID_CHAR' });
    expect(result.error?.message).toMatch(/could not be written, nothing was sent/);
    expect(r.connections).toHaveLength(0);
  });
});

describe('request head: the bytes on the wire (raw TCP server)', () => {
  it('names, order and case exactly as built; Host after them; one Connection: close last; the method of the endpoint', async () => {
    const heads: string[] = [];
    const s = await rawServer((socket, head) => {
      heads.push(head);
      socket.write('HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n');
    });
    const p = pool();
    const body = '{"a":1}';
    await attempt(p, `${s.url}/hook?q=1`, { body, signature: 'abc', headers: { 'x-lower': 'l', 'X-MiXeD': 'm' } });
    const actions = {
      parsed: new URL(`${s.url}/put`),
      headers: { accept: '*/*' },
      method: 'PUT',
      userAgent: 'Segment (Actions)',
    };
    await new Promise((resolve) => sendAttempt(p.target(actions), Buffer.from(body), undefined, resolve));
    const host = new URL(s.url).host;
    expect(heads[0]?.split('\r\n')).toEqual([
      'POST /hook?q=1 HTTP/1.1',
      `User-Agent: ${UA}`,
      'Content-Type: application/json',
      'Content-Length: 7',
      'Accept-Encoding: identity',
      'x-lower: l',
      'X-MiXeD: m',
      'X-Signature: abc',
      `Host: ${host}`,
      'Connection: close',
    ]);
    expect(heads[1]?.split('\r\n')[0]).toBe('PUT /put HTTP/1.1');
    expect(heads[1]?.split('\r\n')).toContain('User-Agent: Segment (Actions)');
  });
});

// A connection per request: an answer can only be the answer to its own request, whatever the endpoint
// writes out of turn (hostile-endpoints-attack.test.ts), and no request goes into a connection being closed.
describe('a connection per request', () => {
  it('sequential attempts each open a connection of their own, announced Connection: close and closed after the answer', async () => {
    const r = await nodeReceiver();
    const p = pool();
    for (let i = 0; i < 5; i++) expect((await attempt(p, `${r.url}/hook`)).status).toBe(200);
    expect(r.requests).toHaveLength(5);
    expect(r.connections).toHaveLength(5);
    for (const q of r.requests)
      expect(pairs(q.rawHeaders).filter(([n]) => n === 'Connection')).toEqual([['Connection', 'close']]);
    // The endpoint holds no idle connection: each one was closed once its answer was read.
    for (const deadline = Date.now() + 5000; r.closed < 5 && Date.now() < deadline;) await sleep(10);
    expect(r.closed).toBe(5);
  });

  it('an endpoint that answers "Connection: keep-alive" and keeps the connection open: the next attempt still opens its own', async () => {
    const s = await rawServer((socket) =>
      socket.write('HTTP/1.1 200 OK\r\nConnection: keep-alive\r\nContent-Length: 2\r\n\r\nok'),
    );
    const p = pool();
    for (let i = 0; i < 3; i++)
      expect(await attempt(p, `${s.url}/hook`)).toMatchObject({ status: 200, responseBody: 'ok' });
    expect(s.connections).toBe(3);
    expect(s.requests).toBe(3);
  });

  it('a body over 1 KB is kept to its first 1 KB and read to its end', async () => {
    const big = 'x'.repeat(RESPONSE_BODY_LIMIT - 4) + 'éééé' + 'y'.repeat(50_000);
    const r = await nodeReceiver((_q, res) => res.end(big));
    const p = pool();
    const first = await attempt(p, `${r.url}/hook`);
    expect(first.status).toBe(200);
    expect(first.error).toBeUndefined();
    expect(Buffer.byteLength(first.responseBody ?? '')).toBeLessThanOrEqual(RESPONSE_BODY_LIMIT + 2);
    expect(first.responseBody?.startsWith('x'.repeat(RESPONSE_BODY_LIMIT - 4) + 'éé')).toBe(true);
  });

  it('50 concurrent attempts to one endpoint: every one answered, each body delivered once', async () => {
    const r = await nodeReceiver((_q, res, body) => setTimeout(() => res.end(body.slice(0, 20)), 5));
    const p = pool();
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        attempt(p, `${r.url}/hook`, { body: `{"i":${i},"pad":"${'p'.repeat(i * 37)}"}`, signature: `sig${i}` }),
      ),
    );
    expect(results.every((x) => x.status === 200)).toBe(true);
    expect(r.requests.map((q) => JSON.parse(q.body).i).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 50 }, (_, i) => i),
    );
    expect(
      r.requests.every((q) =>
        pairs(q.rawHeaders).some(([n, v]) => n === 'X-Signature' && v === `sig${JSON.parse(q.body).i}`),
      ),
    ).toBe(true);
    expect(r.connections).toHaveLength(50);
  });

  it('IPv6 literal hosts ([::1])', async (ctx) => {
    let r: NodeReceiver;
    try {
      r = await nodeReceiver(undefined, '::1');
    } catch {
      ctx.skip();
      return;
    }
    const result = await attempt(pool(), `${r.url}/v6`);
    expect(result.status).toBe(200);
    expect(pairs(r.requests[0]?.rawHeaders ?? []).find(([n]) => n === 'Host')?.[1]).toBe(`[::1]:${r.port}`);
  });
});

describe('answers in odd shapes (raw TCP server)', () => {
  it('chunked over many TCP writes: size line split between writes, extensions, trailers; a 503 not kept', async () => {
    const s = await rawServer((socket) => {
      void writeSlowly(socket, [
        'HTTP/1.1 503 Service Unavailable\r\nRetry-After: 7\r\nTransfer-Encoding: chunked\r\n\r\n',
        '1',
        '0;name="va',
        'lue"\r\n0123456789abcdef\r',
        '\n',
        '3\r\nxyz',
        '\r\n0;last\r\nX-Trailer: t\r\n',
        '\r\n',
      ]);
    });
    const p = pool();
    const result = await attempt(p, `${s.url}/hook`);
    expect(result).toMatchObject({
      status: 503,
      statusText: 'Service Unavailable',
      responseBody: '0123456789abcdefxyz',
      responseHeaders: { 'retry-after': '7' },
    });
    expect(result.error).toBeUndefined();
    expect((await attempt(p, `${s.url}/hook`)).status).toBe(503);
    // Read to its end, and not kept: an answer other than a success closes its connection.
    expect(s.connections).toBe(2);
  });

  it('an answer written one byte at a time (Content-Length, then chunked on a new socket)', async () => {
    const answers = [
      'HTTP/1.1 301 Moved Permanently\r\nLocation: https://example.com/new\r\nContent-Length: 5\r\n\r\nmoved',
      'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nok\r\n0\r\n\r\n',
    ];
    const s = await rawServer((socket, _head, i) => void writeSlowly(socket, [...(answers[i] as string)], 1));
    const p = pool();
    expect(await attempt(p, `${s.url}/hook`)).toMatchObject({
      status: 301,
      responseBody: 'moved',
      responseHeaders: { location: 'https://example.com/new' },
    });
    expect(await attempt(p, `${s.url}/hook`)).toMatchObject({ status: 200, responseBody: 'ok', error: undefined });
    // The 301 was read to its end, and its connection not kept (an answer other than a success closes it).
    expect(s.connections).toBe(2);
  });

  it('a close-delimited HTTP/1.0 answer (no length): read until the close', async () => {
    const s = await rawServer((socket) => {
      void writeSlowly(socket, ['HTTP/1.0 200 OK\r\nContent-Type: text/plain\r\n\r\n', 'hel', 'lo']).then(() =>
        socket.end(),
      );
    });
    const p = pool();
    expect(await attempt(p, `${s.url}/hook`)).toMatchObject({ status: 200, responseBody: 'hello', error: undefined });
    expect(await attempt(p, `${s.url}/hook`)).toMatchObject({ status: 200, responseBody: 'hello' });
    expect(s.connections).toBe(2);
  });

  it('HTTP/1.0 with Connection: keep-alive and a length: complete at its length, not at a close', async () => {
    const s = await rawServer((socket) =>
      socket.write('HTTP/1.0 202 Accepted\r\nConnection: keep-alive\r\nContent-Length: 0\r\n\r\n'),
    );
    const result = await attempt(pool(), `${s.url}/hook`);
    expect(result).toMatchObject({ status: 202, error: undefined });
    expect(result.durationMs).toBeLessThan(4000); // the endpoint never closes: only the length ends it
  });

  it('100 Continue and 103 Early Hints before the answer are skipped', async () => {
    const s = await rawServer((socket) => {
      void writeSlowly(socket, [
        'HTTP/1.1 100 Continue\r\n\r\n',
        'HTTP/1.1 103 Early Hints\r\nLink: </style.css>; rel=preload\r\n\r\n',
        'HTTP/1.1 201 Created\r\nContent-Length: 2\r\n\r\nok',
      ]);
    });
    expect(await attempt(pool(), `${s.url}/hook`)).toMatchObject({
      status: 201,
      statusText: 'Created',
      responseBody: 'ok',
      error: undefined,
    });
  });

  it('204 with no body, and a status line without a reason phrase', async () => {
    const s = await rawServer((socket, _h, i) =>
      socket.write(i === 0 ? 'HTTP/1.1 204 No Content\r\n\r\n' : 'HTTP/1.1 200\r\nContent-Length: 0\r\n\r\n'),
    );
    const p = pool();
    expect(await attempt(p, `${s.url}/hook`)).toMatchObject({ status: 204, responseBody: undefined });
    expect(await attempt(p, `${s.url}/hook`)).toMatchObject({ status: 200, statusText: '' });
    expect(s.connections).toBe(2);
  });

  const malformed: Array<[string, string | Buffer]> = [
    ['a malformed status line', 'HTTP/1.1 2OO OK\r\nContent-Length: 0\r\n\r\n'],
    ['not HTTP at all', 'SSH-2.0-OpenSSH_9.6\r\n\r\n'],
    ['HTTP/2 in a status line', 'HTTP/2 200 OK\r\n\r\n'],
    ['a header line without a colon', 'HTTP/1.1 200 OK\r\nContent-Length 2\r\n\r\nok'],
    ['a bare LF inside the head', 'HTTP/1.1 200 OK\nContent-Length: 2\r\n\r\nok'],
    ['an invalid Content-Length', 'HTTP/1.1 200 OK\r\nContent-Length: 2x\r\n\r\nok'],
    ['two different Content-Lengths', 'HTTP/1.1 200 OK\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\nok'],
    [
      'Content-Length with Transfer-Encoding',
      'HTTP/1.1 200 OK\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nok\r\n0\r\n\r\n',
    ],
    [
      'a chunk size that is not hexadecimal',
      'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nok\r\n0\r\n\r\n',
    ],
    ['a chunk not followed by CRLF', 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nokX\r\n0\r\n\r\n'],
    ['headers over 16 KB', `HTTP/1.1 200 OK\r\nX-Big: ${'b'.repeat(MAX_HEAD_BYTES)}\r\nContent-Length: 0\r\n\r\n`],
    ['an unending head over 16 KB', `HTTP/1.1 200 OK\r\nX-Big: ${'b'.repeat(MAX_HEAD_BYTES + 10)}`],
    // No CRLFCRLF ever comes: refused as the bytes arrive, not at the deadline (node:http did the same).
    ['every line ended by a bare LF, the connection kept open', 'HTTP/1.1 200 OK\nContent-Length: 2\n\nok'],
    ["another protocol's greeting, the connection kept open", 'SSH-2.0-OpenSSH_9.6\r\n'],
    ['a first byte that cannot start an answer', 'h'],
  ];
  for (const [name, answer] of malformed) {
    it(`${name} → protocol error, socket destroyed`, async () => {
      let clientClosed!: () => void;
      const closed = new Promise<void>((r) => (clientClosed = r));
      const s = await rawServer((socket) => {
        socket.on('close', clientClosed);
        socket.write(answer);
      });
      const result = await attempt(pool(), `${s.url}/hook`);
      expect(result.error?.code).toBe('protocol');
      expect(result.error?.message).toMatch(/^malformed answer: /);
      await closed; // the client destroyed its socket (the server never closes it)
    });
  }

  it('a head over 16 KB written in small pieces → protocol', async () => {
    const s = await rawServer((socket) => {
      const pieces = [
        'HTTP/1.1 200 OK\r\n',
        ...Array.from({ length: 40 }, (_, i) => `X-H${i}: ${'v'.repeat(500)}\r\n`),
        'Content-Length: 0\r\n\r\n',
      ];
      void writeSlowly(socket, pieces, 1);
    });
    expect((await attempt(pool(), `${s.url}/hook`)).error?.code).toBe('protocol');
  });

  it('the server closing mid-answer → connection error (cut off), status kept', async () => {
    const s = await rawServer((socket) => {
      void writeSlowly(socket, ['HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n', 'partial']).then(() =>
        socket.destroy(),
      );
    });
    const result = await attempt(pool(), `${s.url}/hook`);
    expect(result.status).toBe(200);
    expect(result.error).toMatchObject({ code: 'connection', message: 'the answer (200) was cut off before its end' });
  });

  it('the server closing mid-chunked-answer, and before any answer → connection errors', async () => {
    const s = await rawServer((socket, _h, i) => {
      if (i === 0)
        void writeSlowly(socket, ['HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nab']).then(() =>
          socket.end(),
        );
      else socket.end();
    });
    const p = pool();
    expect((await attempt(p, `${s.url}/a`)).error).toMatchObject({
      code: 'connection',
      message: 'the answer (200) was cut off before its end',
    });
    expect((await attempt(p, `${s.url}/b`)).error).toMatchObject({
      code: 'connection',
      message: 'ECONNRESET: socket hang up',
      cause: 'ECONNRESET',
    });
  });

  it('a refused connection → connection error ECONNREFUSED', async () => {
    const s = await rawServer(() => {});
    const port = new URL(s.url).port;
    await open.pop()?.(); // close the server: the port refuses
    expect((await attempt(pool(), `http://127.0.0.1:${port}/hook`)).error).toMatchObject({
      code: 'connection',
      cause: 'ECONNREFUSED',
    });
  });
});

describe('abort', () => {
  it('abort mid-request reports once, synchronously, and destroys the socket', async () => {
    let arrived!: () => void;
    const seen = new Promise<void>((r) => (arrived = r));
    let serverSawClose!: () => void;
    const closed = new Promise<void>((r) => (serverSawClose = r));
    const s = await rawServer((socket) => {
      socket.on('close', serverSawClose);
      socket.write('HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nhal');
      arrived();
    });
    const p = pool();
    const results: AttemptResult[] = [];
    const handle = sendAttempt(
      p.target({ parsed: new URL(`${s.url}/hook`), headers: {} }),
      Buffer.from('{}'),
      undefined,
      (r) => results.push(r),
    );
    await seen;
    await sleep(20);
    handle.abort({ code: 'timeout', limitMs: 10 });
    expect(results).toHaveLength(1);
    // Worded from the reason's fields (kind and limit), never read back from another message.
    expect(results[0]).toMatchObject({
      status: 200,
      error: {
        code: 'timeout',
        limitMs: 10,
        message: 'the answer (200) came, but its body did not end within 10 ms (timeoutMs)',
      },
    });
    handle.abort({ code: 'aborted' });
    await closed;
    await sleep(20);
    expect(results).toHaveLength(1);
  });

  it('abort before the socket connected: nothing is sent; destroy() closes every socket', async () => {
    const r = await nodeReceiver((_q, _res) => {
      /* never answers */
    });
    const p = pool();
    const results: AttemptResult[] = [];
    const handle = sendAttempt(
      p.target({ parsed: new URL(`${r.url}/hook`), headers: {} }),
      Buffer.from('{}'),
      undefined,
      (x) => results.push(x),
    );
    handle.abort({ code: 'aborted' });
    expect(results).toEqual([
      expect.objectContaining({ error: { code: 'aborted', message: 'close() ended the request' } }),
    ]);
    const pending = attempt(p, `${r.url}/hook`);
    while (r.requests.length === 0) await sleep(5);
    p.destroy();
    expect((await pending).error).toMatchObject({ code: 'connection' });
    expect(r.requests).toHaveLength(1);
    while (r.closed < r.connections.length) await sleep(5);
  });
});

describe('HTTPS', () => {
  it("tls.ca is trusted on top of Node's root certificates, not instead of them", async () => {
    const { trustedCertificates } = await import('../../src/delivery/endpoint-agents.js');
    const tls = await import('node:tls');
    const list = trustedCertificates('-----BEGIN CERTIFICATE-----\nTEST\n-----END CERTIFICATE-----\n');
    expect(list).toHaveLength(tls.rootCertificates.length + 1);
    expect(list.slice(0, -1)).toEqual([...tls.rootCertificates]);
    expect(trustedCertificates(['a', 'b']).slice(-2)).toEqual(['a', 'b']);
    expect(trustedCertificates(undefined)).toEqual([...tls.rootCertificates]);
  });

  it('a self-signed certificate is refused as tls with no request sent; trusting its CA (tls.ca) delivers', async () => {
    const server = await startSelfSignedServer();
    open.push(() => server.close());
    const refused = await attempt(pool(), `${server.url}/hook`);
    expect(refused.error?.code).toBe('tls');
    expect(refused.error?.message).toMatch(/^TLS handshake failed, no request sent: /);
    expect(server.requests).toBe(0);
    const p = pool(server.cert);
    expect(await attempt(p, `${server.url}/hook`)).toMatchObject({ status: 200, responseBody: 'ok' });
    expect(await attempt(p, `${server.url}/hook`)).toMatchObject({ status: 200, responseBody: 'ok' });
    expect(server.requests).toBe(2);
  });
});

describe('process lifetime', () => {
  it('no connection outlives its answer: a script that drains and never calls close() exits at once', async () => {
    const { spawn } = await import('node:child_process');
    const { fileURLToPath } = await import('node:url');
    const root = fileURLToPath(new URL('../../../../', import.meta.url));
    // A node:http receiver that keeps idle connections open for a minute, in this process.
    const server = http.createServer((req, res) => {
      req.resume();
      req.on('end', () => res.end('ok'));
    });
    server.keepAliveTimeout = 60_000;
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
    try {
      const script = `
        import { createEmulator } from '@hookgate/emulator';
        const e = createEmulator({ sources: [{ writeKey: 'wk', webhooks: { enabled: true, endpoints: [{ url: ${JSON.stringify(url)} }] } }] });
        for (let i = 0; i < 20; i++) e.track({ userId: 'u' + i, event: 'E' });
        await e.drain();
        if (e.deliveries.some((r) => r.state !== 'delivered')) process.exit(3);
        process.stdout.write('drained ' + Date.now() + '\\n');
      `;
      const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
        cwd: root,
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      let out = '';
      child.stdout.on('data', (c: Buffer) => (out += c.toString()));
      const [code] = (await once(child, 'exit')) as [number];
      const exitedAt = Date.now();
      expect(code).toBe(0);
      const drainedAt = Number(/drained (\d+)/.exec(out)?.[1]);
      // A connection kept open after its answer would hold the process for the server's minute.
      expect(exitedAt - drainedAt).toBeLessThan(1500);
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });
});
