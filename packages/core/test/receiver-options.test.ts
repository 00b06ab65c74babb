// createReceiver's options: no secret → no receiver (unless opted out by name), and clear errors that
// name the bad option and the fix.
import { afterEach, describe, expect, it } from 'vitest';
import { createReceiver, fixtures, type ReceiverOptions } from '../src/index.js';
import { DEFAULT_MAX_BODY_BYTES } from '../src/internal.js';
import { SECRET, hmac, send, serveReceiver, type ServedReceiver } from './helpers/receiver-server.js';

let srv: ServedReceiver | undefined;
afterEach(async () => {
  await srv?.close();
  srv = undefined;
});

const quiet = { warn: () => {} };

describe('no secret, no receiver', () => {
  it.each([
    ['no options', {}],
    ['secret undefined', { secret: undefined }],
    ['an empty list', { secret: [] }],
    ['insecureSkipVerification false', { insecureSkipVerification: false }],
    ['secret null (null means not given)', { secret: null }],
  ])('%s → throws, naming `secret` and the opt-out', (_name, options) => {
    expect(() => createReceiver(options as ReceiverOptions)).toThrow(TypeError);
    expect(() => createReceiver(options as ReceiverOptions)).toThrow(
      /secret is required.*sharedSecret.*insecureSkipVerification: true/s,
    );
  });

  it.each([
    ['an empty string (unset environment variable)', '', /^secret must be a non-empty string/],
    ['a number', 123, /^secret must be/],
    ['an empty one in a rotation', [SECRET, ''], /^secret\[1\] must be a non-empty string/],
  ])('a secret that is %s → throws, naming it', (_name, secret, pattern) => {
    expect(() => createReceiver({ secret: secret as string })).toThrow(pattern);
  });

  it('accepts bytes as a secret', async () => {
    srv = await serveReceiver({ secret: new TextEncoder().encode(SECRET), onMessage: () => {} });
    expect((await send(srv.url, fixtures.track)).status).toBe(200);
  });
});

describe('insecureSkipVerification', () => {
  it('creates a receiver that warns at creation and accepts unsigned requests', async () => {
    const lines: string[] = [];
    const seen: unknown[] = [];
    srv = await serveReceiver({
      insecureSkipVerification: true,
      logger: { warn: (l) => void lines.push(l) },
      onMessage: (_m, ctx) => void seen.push(ctx.verification),
    });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('insecureSkipVerification');
    expect(lines[0]).toContain('unverified');
    const a = await send(srv.url, fixtures.track, { secret: null });
    expect(a.status).toBe(200);
    expect(seen).toEqual([{ form: 'unsigned', secretIndex: -1 }]);
  });

  it('still refuses what is not a message', async () => {
    srv = await serveReceiver({ insecureSkipVerification: true, logger: quiet, onMessage: () => {} });
    expect((await send(srv.url, { type: 'nope' }, { secret: null })).status).toBe(400);
    expect((await send(srv.url, 'x', { secret: null })).status).toBe(400);
  });
});

describe('option checks', () => {
  it.each([
    [{ deadlineMs: 5000 }, /deadlineMs must be a whole number of milliseconds from 1 to 4999.*got 5000/],
    [{ deadlineMs: 0 }, /deadlineMs.*got 0/],
    [{ deadlineMs: 1.5 }, /deadlineMs/],
    [{ deadlineMs: Number.NaN }, /deadlineMs/],
    [{ maxBodyBytes: 0 }, /maxBodyBytes must be a whole number of bytes above 0; got 0/],
    [{ maxBodyBytes: 1e3 + 0.5 }, /maxBodyBytes/],
    [{ mode: 'fire-and-forget' }, /mode must be 'handle' or 'acknowledge'; got "fire-and-forget"/],
    [{ signatureForms: ['raw', 'json'] }, /signatureForms\[1\] must be one of raw, stringify, sorted; got "json"/],
    [{ signatureForms: [] }, /signatureForms must list at least one/],
    [{ crypto: 'subtle' }, /crypto must be 'auto' or 'web'; got "subtle"/],
    [{ dedupe: { ttlMs: 0 } }, /dedupe.ttlMs must be a whole number of milliseconds above 0; got 0/],
    [{ dedupe: { inFlightTtlMs: -5 } }, /dedupe.inFlightTtlMs must be a whole number of milliseconds above 0; got -5/],
    [{ dedupe: { store: {} } }, /dedupe.store must have claim, complete and release/],
  ])('%j → a clear error', (bad, pattern) => {
    expect(() => createReceiver({ secret: SECRET, logger: quiet, ...(bad as object) })).toThrow(pattern);
  });

  it('reports its settings', () => {
    const r = createReceiver({ secret: SECRET });
    expect(r.maxBodyBytes).toBe(DEFAULT_MAX_BODY_BYTES);
    expect(DEFAULT_MAX_BODY_BYTES).toBe(1024 * 1024);
    expect(r.deadlineMs).toBe(4000);
    expect(r.mode).toBe('handle');
    const s = createReceiver({ secret: SECRET, deadlineMs: 4999, maxBodyBytes: 10, mode: 'acknowledge' });
    expect([s.deadlineMs, s.maxBodyBytes, s.mode]).toEqual([4999, 10, 'acknowledge']);
  });

  it('signatureForms limits what verification tries', async () => {
    srv = await serveReceiver({ secret: SECRET, signatureForms: ['raw'], onMessage: () => {} });
    const pretty = JSON.stringify(fixtures.track, null, 2);
    // Signed over the compact form, sent pretty-printed: only the stringify form would match.
    const a = await send(srv.url, pretty, { signature: hmac(JSON.stringify(fixtures.track)) });
    expect(a.status).toBe(401);
  });

  it('strictTimestamps refuses Go’s form; the default accepts it', async () => {
    const body = { ...fixtures.track, timestamp: '2009-11-10T23:00:00+0000' };
    srv = await serveReceiver({ secret: SECRET, onMessage: () => {} });
    expect((await send(srv.url, body)).status).toBe(200);
    await srv.close();
    srv = await serveReceiver({ secret: SECRET, strictTimestamps: true, onMessage: () => {} });
    const a = await send(srv.url, body);
    expect(a.status).toBe(400);
    expect(a.json.message).toContain('$.timestamp');
  });
});
