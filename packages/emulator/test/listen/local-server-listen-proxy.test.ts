// `listen` as a proxy, over real sockets: hop-by-hop headers (the standard set and every header the
// request's Connection header names) are not forwarded, and after its 413 the rest of an upload is
// read and dropped, so a client that writes its whole body before reading (in another process: its
// own event loop) reads the 413 instead of a reset.
import { spawn } from 'node:child_process';
import net from 'node:net';
import { sign } from '@hookgate/core';
import { afterEach, describe, expect, it } from 'vitest';
import { readAll, startHttpServer } from '../../../../test/helpers/servers.js';
import { startListener } from '../../src/index.js';

const SECRET = 'proxy-s3cret';
const open: Array<{ close(): Promise<unknown> }> = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()));
});

/** Sends raw bytes on a new connection and reads until the server closes or `idleMs` passes without data. */
function rawExchange(port: number, bytes: string, idleMs = 1500): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    let out = '';
    let timer: NodeJS.Timeout | undefined;
    const finish = () => {
      socket.destroy();
      resolve(out);
    };
    socket.on('data', (c) => {
      out += c.toString('latin1');
      clearTimeout(timer);
      timer = setTimeout(finish, idleMs);
    });
    socket.on('end', finish);
    socket.on('error', reject);
    socket.write(bytes);
  });
}

describe('listen forwards without hop-by-hop headers', () => {
  it('drops the standard set and every header Connection names; keeps the rest, the exact body and its signature', async () => {
    const seen: Array<{ rawHeaders: string[]; body: string }> = [];
    const rx = await startHttpServer(async (req, res) => {
      seen.push({ rawHeaders: req.rawHeaders, body: (await readAll(req)).toString('utf8') });
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
    open.push(rx);
    const listener = await startListener({ secret: SECRET, forwardTo: `${rx.url}/hook` });
    open.push(listener);
    const body = '{"type":"track","userId":"u1","event":"Hop","timestamp":"2026-01-01T00:00:00.000Z","version":1}';
    // Chunked, so Transfer-Encoding is on the wire too; the body is sent in two chunks.
    const half = Math.floor(body.length / 2);
    const chunk = (s: string) => `${Buffer.byteLength(s).toString(16)}\r\n${s}\r\n`;
    const request =
      'POST /hook HTTP/1.1\r\n' +
      `Host: 127.0.0.1:${listener.port}\r\n` +
      'Content-Type: application/json\r\n' +
      'User-Agent: Segment.io/1.0\r\n' +
      `X-Signature: ${sign(body, SECRET)}\r\n` +
      'Connection: keep-alive, X-Hop-Secret, x-trace-hop\r\n' +
      'Connection: X-Second-Hop\r\n' +
      'X-Hop-Secret: must-not-pass\r\n' +
      'X-Trace-Hop: nope\r\n' +
      'X-Second-Hop: nope\r\n' +
      'Keep-Alive: timeout=5\r\n' +
      'Proxy-Connection: keep-alive\r\n' +
      'Proxy-Authorization: Basic cHJveHk6cHc=\r\n' +
      'Proxy-Authenticate: Basic\r\n' +
      'TE: trailers\r\n' +
      'Trailer: X-Checksum\r\n' +
      'Upgrade: h2c\r\n' +
      'X-Keep-Me: yes\r\n' +
      'Transfer-Encoding: chunked\r\n' +
      '\r\n' +
      chunk(body.slice(0, half)) +
      chunk(body.slice(half)) +
      '0\r\nX-Checksum: abc\r\n\r\n';
    const answer = await rawExchange(listener.port, request, 800);
    expect(answer).toMatch(/^HTTP\/1\.1 200/);
    expect(seen.length).toBe(1);
    const names = (seen[0] as { rawHeaders: string[] }).rawHeaders
      .filter((_, i) => i % 2 === 0)
      .map((n) => n.toLowerCase());
    for (const dropped of [
      'x-hop-secret',
      'x-trace-hop',
      'x-second-hop',
      'keep-alive',
      'proxy-connection',
      'proxy-authorization',
      'proxy-authenticate',
      'te',
      'trailer',
      'upgrade',
      'transfer-encoding',
      'x-checksum',
    ]) {
      expect(names, dropped).not.toContain(dropped);
    }
    // `connection` may be set by the forwarding client itself, but never with the sender's value.
    const rawHeaders = (seen[0] as { rawHeaders: string[] }).rawHeaders;
    const connection = rawHeaders.findIndex((n, i) => i % 2 === 0 && n.toLowerCase() === 'connection');
    if (connection !== -1) expect(rawHeaders[connection + 1]).not.toMatch(/hop/i);
    for (const kept of ['x-keep-me', 'x-signature', 'user-agent', 'content-type', 'content-length'])
      expect(names, kept).toContain(kept);
    expect((seen[0] as { body: string }).body).toBe(body);
    expect(listener.log.records[0]?.verdict.ok).toBe(true);
  });
});

/**
 * A client in its own process: opens `count` connections at once, each writing `bytes` of body over
 * about `writeMs` without reading (its socket paused: the answer stays in the kernel's buffer, where a
 * reset would destroy it), then reads. Prints one JSON line: each connection's status line or error.
 */
const LATE_READER = `
const net = require('node:net');
const [port, bytes, writeMs, count, chunked] = process.argv.slice(1).map(Number);
function one() {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    let out = '';
    let settled = false;
    const done = (r) => { if (!settled) { settled = true; socket.destroy(); resolve(r); } };
    socket.on('error', (e) => done({ error: e.code || e.message, out: out.slice(0, 40) }));
    socket.on('connect', async () => {
      socket.pause();
      socket.write('POST /hook HTTP/1.1\\r\\nHost: 127.0.0.1\\r\\nContent-Type: application/json\\r\\n' +
        (chunked ? 'Transfer-Encoding: chunked\\r\\n' : 'Content-Length: ' + bytes + '\\r\\n') + '\\r\\n');
      const piece = Buffer.alloc(64 * 1024, 0x61);
      const pieces = Math.ceil(bytes / piece.length);
      for (let i = 0; i < pieces; i++) {
        const part = i === pieces - 1 ? piece.subarray(0, bytes - i * piece.length) : piece;
        const data = chunked ? Buffer.concat([Buffer.from(part.length.toString(16) + '\\r\\n'), part, Buffer.from('\\r\\n')]) : part;
        if (!socket.write(data)) await new Promise((r) => socket.once('drain', r));
        await new Promise((r) => setTimeout(r, writeMs / pieces));
      }
      if (chunked) socket.write('0\\r\\n\\r\\n');
      await new Promise((r) => setTimeout(r, 300));
      socket.on('data', (c) => { out += c.toString('latin1'); if (out.includes('\\r\\n\\r\\n')) done({ status: out.split('\\r\\n')[0] }); });
      socket.on('end', () => done({ status: out.split('\\r\\n')[0] || 'closed without an answer' }));
      socket.resume();
    });
  });
}
Promise.all(Array.from({ length: count }, one)).then((r) => console.log(JSON.stringify(r)));
`;

function lateReader(
  port: number,
  bytes: number,
  writeMs: number,
  count: number,
  chunked: boolean,
): Promise<Array<{ status?: string; error?: string }>> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['-e', LATE_READER, String(port), String(bytes), String(writeMs), String(count), chunked ? '1' : '0'],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    let err = '';
    child.stdout.on('data', (c) => (out += c));
    child.stderr.on('data', (c) => (err += c));
    child.on('error', reject);
    child.on('close', () => {
      try {
        resolve(JSON.parse(out));
      } catch {
        reject(new Error(`late reader: ${out}\n${err}`));
      }
    });
  });
}

describe('listen answers 413 that reaches a client still writing', () => {
  // The server reads and drops the rest of an upload for at most 2 s after its 413 (UNREAD_BODY_GRACE_MS): the
  // uploads are paced over 0.4 s, so a busy machine that stretches the client's timers has 1.6 s of margin.
  it('5 MB over about 0.4 s, read only afterwards, three at once (declared Content-Length): each reads 413', async () => {
    const listener = await startListener({ secret: SECRET });
    open.push(listener);
    const results = await lateReader(listener.port, 5 * 1024 * 1024, 400, 3, false);
    expect(results).toEqual([
      { status: 'HTTP/1.1 413 Payload Too Large' },
      { status: 'HTTP/1.1 413 Payload Too Large' },
      { status: 'HTTP/1.1 413 Payload Too Large' },
    ]);
    expect(listener.log.records.map((r) => r.answeredStatus)).toEqual([413, 413, 413]);
  }, 30_000);

  it('the same with a chunked body (the limit is found while reading): each reads 413', async () => {
    const listener = await startListener({ secret: SECRET });
    open.push(listener);
    const results = await lateReader(listener.port, 5 * 1024 * 1024, 400, 3, true);
    expect(results).toEqual([
      { status: 'HTTP/1.1 413 Payload Too Large' },
      { status: 'HTTP/1.1 413 Payload Too Large' },
      { status: 'HTTP/1.1 413 Payload Too Large' },
    ]);
  }, 30_000);
});
