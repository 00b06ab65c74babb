// The receiver's hot path: a one-digit change of the signature is refused, the UTF-8 length count
// equals TextEncoder's, and the handler context keeps its contract (lazy signal, extras, detached header).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createReceiver, fixture, sign, verify } from '../src/index.js';
import { utf8ByteLength } from '../src/receiver/utf8-length.js';

describe('verify', () => {
  it('verify() still refuses a one-digit change of the signature', () => {
    const body = JSON.stringify(fixture('track'));
    const good = sign(body, 's3cret');
    const bad = `${good[0] === '0' ? '1' : '0'}${good.slice(1)}`;
    expect(verify({ signature: good, secret: 's3cret', rawBody: Buffer.from(body) }).ok).toBe(true);
    expect(verify({ signature: bad, secret: 's3cret', rawBody: Buffer.from(body) })).toMatchObject({
      ok: false,
      reason: 'mismatch',
    });
  });
});

describe('utf8ByteLength', () => {
  it('counts what TextEncoder writes, lone surrogates and pairs included', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'binary', maxLength: 200 }),
        fc.string({ unit: fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c)), maxLength: 5 }),
        (a, lone) => {
          const s = `${a}${lone}${a}`;
          expect(utf8ByteLength(s)).toBe(new TextEncoder().encode(s).byteLength);
        },
      ),
    );
  });

  it('applies the body limit to a string body by its UTF-8 bytes (413 one byte over)', async () => {
    const body = JSON.stringify({ ...fixture('track'), event: 'é'.repeat(100) });
    const bytes = new TextEncoder().encode(body).byteLength;
    const headers = (b: string) => ({ 'content-type': 'application/json', 'x-signature': sign(b, 's') });
    const at = createReceiver({ secret: 's', dedupe: false, maxBodyBytes: bytes, onMessage: () => {} });
    const under = createReceiver({ secret: 's', dedupe: false, maxBodyBytes: bytes - 1, onMessage: () => {} });
    expect((await at.handle({ method: 'POST', headers: headers(body), rawBody: body })).status).toBe(200);
    expect((await under.handle({ method: 'POST', headers: headers(body), rawBody: body })).status).toBe(413);
  });
});

describe('handler context and answers', () => {
  it('gives extras, a detached header(), and a signal made on first read that still fires for an abort before it', async () => {
    const body = JSON.stringify(fixture('track'));
    const seen: Array<{ extra: unknown; ua: string | undefined; signalWasExtra: boolean; keys: string[] }> = [];
    const receiver = createReceiver<{ extra: string; signal?: string }>({
      secret: 's',
      dedupe: false,
      onMessage: (_msg, ctx) => {
        const { header } = ctx;
        seen.push({
          extra: ctx.extra,
          ua: header('User-Agent'),
          signalWasExtra: (ctx.signal as unknown) === 'not a signal',
          keys: Object.keys(ctx),
        });
      },
    });
    const input = {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-signature': sign(body, 's'), 'user-agent': 'Segment.io/1.0' },
      rawBody: body,
      context: { extra: 'mine', signal: 'not a signal' },
    };
    expect((await receiver.handle(input)).status).toBe(200);
    expect(seen).toEqual([
      {
        extra: 'mine',
        ua: 'Segment.io/1.0',
        signalWasExtra: false,
        keys: expect.arrayContaining(['extra', 'dedupeKey', 'verification', 'receivedAt', 'header']),
      },
    ]);

    const accepted = await receiver.accept(input);
    if (accepted.kind !== 'message') throw new Error(`expected a message, got ${accepted.kind}`);
    accepted.abort(new Error('deadline'));
    expect(accepted.context.signal.aborted).toBe(true);
    expect((accepted.context.signal.reason as Error).message).toBe('deadline');
    expect(accepted.context.signal).toBe(accepted.context.signal); // one controller
  });
});
