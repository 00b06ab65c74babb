// Builds and sends the requests of the conformance table over real sockets on 127.0.0.1.
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import net from 'node:net';
import { fixture, sign, type MessageType, type WebhookMessage } from '@hookgate/core';
import type { BodySpec, RequestSpec } from './conformance-cases.js';
import { SECRETS } from './conformance-scenarios.js';

/** A request ready to go: the exact bytes and headers. */
export interface PreparedRequest {
  method: string;
  headers: Record<string, string>;
  body: Buffer;
  transport: NonNullable<RequestSpec['transport']>;
  /** The message the body holds, when it is one. */
  message?: WebhookMessage;
}

/** What came back. */
export interface Answer {
  status: number;
  body: string;
  ms: number;
}

/** Text with emoji (4-byte), combining marks, CJK and accented letters: every UTF-8 length. */
export const MULTIBYTE_TEXT = 'Grüße 👋🏽 from Zürich — 日本語のテキスト, café ☕, 𝄞 music, ñandú 🎉';

/** A seed-shaped message of `type` that is unique to `marker` (its user id carries the marker). */
export function uniqueMessage(type: MessageType, marker: string): WebhookMessage {
  if (type === 'alias') return fixture('alias', { 'User ID': marker });
  return fixture(type, { userId: marker } as never);
}

/** The marker of a message (where `uniqueMessage` put it). */
export function markerOf(message: WebhookMessage): string {
  return message.type === 'alias' ? message['User ID'] : message.userId;
}

function bodyOf(spec: BodySpec, marker: string): { text: string; message?: WebhookMessage } {
  switch (spec.kind) {
    case 'message': {
      const message = uniqueMessage(spec.type, marker);
      return { text: JSON.stringify(message), message };
    }
    case 'multibyte': {
      const message = fixture('track', {
        userId: marker,
        event: 'Käufe 🛒 abgeschlossen',
        properties: { note: MULTIBYTE_TEXT, items: ['🍣', '🍜', 'éclair'] },
      });
      return { text: JSON.stringify(message), message };
    }
    case 'large': {
      const message = fixture('track', { userId: marker, properties: { padding: '' } });
      const base = JSON.stringify(message).length;
      (message.properties as { padding: string }).padding = 'x'.repeat(Math.max(0, spec.bytes - base));
      return { text: JSON.stringify(message), message };
    }
    case 'malformed-json':
      return { text: `{"version":1,"type":"track","userId":"${marker}","event":"Oops",` };
    case 'not-a-message':
      return {
        text: JSON.stringify({ version: 1, type: 'track', userId: marker, timestamp: '2026-11-21T12:00:00.000Z' }),
      };
    case 'none':
      return { text: '' };
  }
}

function signatureOf(spec: RequestSpec['signature'], body: Buffer): string | undefined {
  const right = sign(body, SECRETS.main);
  switch (spec) {
    case 'valid':
      return right;
    case 'missing':
      return undefined;
    case 'wrong':
      return (right.startsWith('0') ? '1' : '0') + right.slice(1);
    case 'truncated':
      return right.slice(0, 32);
    case 'non-hex':
      return `zz${right.slice(2)}`;
    case 'wrong-secret':
      return sign(body, SECRETS.stranger);
    case 'previous-secret':
      return sign(body, SECRETS.previous);
  }
}

/** Prepares the bytes and headers of one request. */
export function prepareRequest(spec: RequestSpec, marker: string = `user_${randomUUID()}`): PreparedRequest {
  const method = spec.method ?? 'POST';
  const { text, message } = bodyOf(spec.body, marker);
  let body = Buffer.from(text, 'utf8');
  const signature = signatureOf(spec.signature, body);
  if (spec.tamper) {
    // Same length, one character changed: the signature no longer fits.
    body = Buffer.from(text.replace('"user_', '"usEr_'), 'utf8');
    if (body.equals(Buffer.from(text, 'utf8'))) throw new Error('tamper did not change the body');
  }
  const headers: Record<string, string> = { 'user-agent': 'Segment.io/1.0' };
  if (spec.body.kind !== 'none') headers['content-type'] = spec.contentType ?? 'application/json';
  if (signature !== undefined) headers['x-signature'] = signature;
  return { method, headers, body, transport: spec.transport ?? 'content-length', message };
}

/** Sends a prepared request and reads the whole answer. */
export function sendRequest(url: string, req: PreparedRequest): Promise<Answer> {
  return req.transport === 'split-tcp' || req.transport === 'split-tcp-chunked'
    ? sendSplit(url, req)
    : sendHttp(url, req);
}

function sendHttp(url: string, req: PreparedRequest): Promise<Answer> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { ...req.headers };
    if (req.method !== 'GET' && req.transport === 'content-length') headers['content-length'] = String(req.body.length);
    const r = http.request(url, { method: req.method, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          body: Buffer.concat(chunks).toString('utf8'),
          ms: performance.now() - started,
        }),
      );
      res.on('error', reject);
    });
    r.on('error', reject);
    if (req.method === 'GET') return void r.end();
    if (req.transport === 'chunked') {
      // Several chunks, no Content-Length: the limit must hold while streaming.
      const step = 1_000;
      for (let i = 0; i < req.body.length; i += step) r.write(req.body.subarray(i, i + step));
      r.end();
    } else r.end(req.body);
  });
}

/** Offsets that fall inside multibyte characters (never on a character boundary). */
export function splitPointsInsideCharacters(body: Buffer, wanted = 4): number[] {
  const inside: number[] = [];
  for (let i = 1; i < body.length; i++) if (((body[i] as number) & 0b1100_0000) === 0b1000_0000) inside.push(i);
  if (inside.length === 0) throw new Error('the body has no multibyte characters to split');
  const picks = new Set<number>();
  for (let k = 0; k < wanted; k++) picks.add(inside[Math.floor(((k + 0.5) * inside.length) / wanted)] as number);
  return [...picks].sort((a, b) => a - b);
}

function sendSplit(url: string, req: PreparedRequest): Promise<Answer> {
  const { hostname, port, pathname } = new URL(url);
  const cuts = splitPointsInsideCharacters(req.body);
  const pieces: Buffer[] = [];
  let from = 0;
  for (const cut of [...cuts, req.body.length]) {
    pieces.push(req.body.subarray(from, cut));
    from = cut;
  }
  const chunked = req.transport === 'split-tcp-chunked';
  const head =
    `${req.method} ${pathname} HTTP/1.1\r\nHost: ${hostname}:${port}\r\nConnection: close\r\n` +
    Object.entries(req.headers)
      .map(([k, v]) => `${k}: ${v}\r\n`)
      .join('') +
    (chunked ? 'Transfer-Encoding: chunked\r\n' : `Content-Length: ${req.body.length}\r\n`) +
    '\r\n';
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname);
    socket.setNoDelay(true);
    const received: Buffer[] = [];
    socket.on('data', (c: Buffer) => received.push(c));
    socket.on('error', reject);
    socket.on('end', () => {
      try {
        resolve({ ...parseHttpResponse(Buffer.concat(received)), ms: performance.now() - started });
      } catch (e) {
        reject(e instanceof Error ? e : new Error(String(e)));
      }
    });
    socket.once('connect', () => {
      void (async () => {
        socket.write(head);
        for (const piece of pieces) {
          // A pause between writes makes each one its own TCP segment and its own read on the server.
          await new Promise((r) => setTimeout(r, 15));
          socket.write(
            chunked
              ? Buffer.concat([Buffer.from(`${piece.length.toString(16)}\r\n`), piece, Buffer.from('\r\n')])
              : piece,
          );
        }
        if (chunked) socket.write('0\r\n\r\n');
      })().catch(reject);
    });
  });
}

/** Parses a whole HTTP/1.1 response (Content-Length, chunked, or read to the end). */
export function parseHttpResponse(raw: Buffer): { status: number; body: string } {
  const split = raw.indexOf('\r\n\r\n');
  if (split < 0) throw new Error(`no complete HTTP response: ${JSON.stringify(raw.toString('latin1').slice(0, 200))}`);
  const head = raw.subarray(0, split).toString('latin1');
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(head)?.[1]);
  let body = raw.subarray(split + 4);
  if (/\r\ntransfer-encoding:\s*chunked/i.test(head)) {
    const out: Buffer[] = [];
    let at = 0;
    for (;;) {
      const eol = body.indexOf('\r\n', at);
      const size = Number.parseInt(body.subarray(at, eol).toString('latin1'), 16);
      if (!size) break;
      out.push(body.subarray(eol + 2, eol + 2 + size));
      at = eol + 2 + size + 2;
    }
    body = Buffer.concat(out);
  }
  return { status, body: body.toString('utf8') };
}
