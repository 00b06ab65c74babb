// `listen` under requests no real sender makes, over raw sockets. A signature that the request's own
// Connection header names is hop-by-hop (RFC 9110 section 7.6.1): it belongs to this hop, not to the
// message, and listen does not forward it; so listen does not check it either, and its verdict is
// the one the receiver behind it will reach (no signature), never "verified" beside an unsigned forward.
import net from 'node:net';
import { sign } from '@hookgate/core';
import { afterEach, describe, expect, it } from 'vitest';
import { readAll, startHttpServer } from '../../../../test/helpers/servers.js';
import { startListener } from '../../src/index.js';

const SECRET = 'listen-attack-s3cret';
const BODY = '{"type":"track","userId":"u1","event":"Hop","timestamp":"2026-01-01T00:00:00.000Z","version":1}';
const open: Array<{ close(): Promise<unknown> }> = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()));
});

/** One request on its own connection (Connection: close among `connection`); everything answered, in latin1. */
function exchange(port: number, connection: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    let out = '';
    socket.on('data', (c: Buffer) => (out += c.toString('latin1')));
    socket.on('end', () => resolve(out));
    socket.on('error', reject);
    socket.write(
      'POST /hook HTTP/1.1\r\n' +
        `Host: 127.0.0.1:${port}\r\n` +
        'Content-Type: application/json\r\n' +
        `X-Signature: ${sign(BODY, SECRET)}\r\n` +
        `Connection: ${connection}\r\n` +
        `Content-Length: ${BODY.length}\r\n\r\n${BODY}`,
    );
  });
}

describe('listen: X-Signature named in Connection', () => {
  it('without --forward-to: not checked, answered 401 naming why; the same signature as a plain header is verified', async () => {
    const listener = await startListener({ secret: SECRET });
    open.push(listener);
    const hop = await exchange(listener.port, 'close, X-Signature');
    expect(hop).toMatch(/^HTTP\/1\.1 401 /);
    expect(hop).toContain('hop-by-hop');
    const plain = await exchange(listener.port, 'close');
    expect(plain).toMatch(/^HTTP\/1\.1 200 /);
    const verdicts = listener.log.records.map((r) => (r.verdict.ok ? 'verified' : r.verdict.reason));
    expect(verdicts).toEqual(['missing', 'verified']);
    expect(listener.log.records[0]!.verdict.message).toMatch(
      /named in the Connection header.*not checked and not forwarded/,
    );
  });

  it('with --forward-to: the receiver gets no X-Signature, and listen does not call the request verified', async () => {
    const seen: Array<{ signature: string | string[] | undefined; body: string }> = [];
    const rx = await startHttpServer(async (req, res) => {
      seen.push({ signature: req.headers['x-signature'], body: (await readAll(req)).toString('utf8') });
      res
        .writeHead(req.headers['x-signature'] === undefined ? 401 : 200, { 'content-type': 'application/json' })
        .end('{}');
    });
    open.push(rx);
    const listener = await startListener({ secret: SECRET, forwardTo: `${rx.url}/hook` });
    open.push(listener);
    const answer = await exchange(listener.port, 'close, x-signature');
    expect(answer).toMatch(/^HTTP\/1\.1 401 /); // the receiver's own answer
    expect(seen).toEqual([{ signature: undefined, body: BODY }]);
    const [record] = listener.log.records;
    expect(record!.verdict.ok).toBe(false);
    expect(record!.forward?.status).toBe(401);
  });
});
