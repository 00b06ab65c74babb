// Issue #30 item 2, over real HTTP (core's node listener): without DEBUG, a signature failure is not
// silent: one warning per cause through the receiver's logger, at most one per cause per minute,
// naming the fix and never the secret or a full signature; `logger: false` silences it.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fixtures } from '../src/index.js';
import { SECRET, hmac, send, serveReceiver, type ServedReceiver } from './helpers/receiver-server.js';

const WRONG = 'whsec_not_the_one_configured_0000';

let served: ServedReceiver | undefined;
afterEach(async () => {
  vi.restoreAllMocks();
  await served?.close();
  served = undefined;
});

describe('signature failures are logged once per cause', () => {
  it('a wrong secret: one warning naming the fix, none for a second 401 within the minute, no secret nor full signature', async () => {
    const lines: string[] = [];
    served = await serveReceiver({
      secret: SECRET,
      debug: false,
      logger: { warn: (l) => void lines.push(l) },
      onMessage: () => {},
    });
    const body = JSON.stringify({ ...fixtures.track, messageId: 'w1' });
    const signature = hmac(body, WRONG);
    expect((await send(served.url, body, { secret: WRONG })).status).toBe(401);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/secret/i);
    expect(lines[0]).toMatch(/rotat|mistyped/);
    expect(
      (await send(served.url, JSON.stringify({ ...fixtures.track, messageId: 'w2' }), { secret: WRONG })).status,
    ).toBe(401);
    expect(lines).toHaveLength(1);
    // Another cause is a warning of its own.
    expect((await send(served.url, body, { secret: null })).status).toBe(401);
    expect(lines).toHaveLength(2);
    expect(lines[1]).toMatch(/X-Signature/);
    expect((await send(served.url, body, { secret: null })).status).toBe(401);
    expect(lines).toHaveLength(2);
    for (const line of lines) {
      expect(line).not.toContain(SECRET);
      expect(line).not.toContain(WRONG);
      expect(line).not.toContain(signature);
      expect(line).not.toContain(signature.slice(0, 12));
    }
  });

  it('logger: false silences it (nothing on the console)', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    served = await serveReceiver({ secret: SECRET, debug: false, logger: false, onMessage: () => {} });
    const body = JSON.stringify({ ...fixtures.track, messageId: 'w3' });
    expect((await send(served.url, body, { secret: WRONG })).status).toBe(401);
    expect((await send(served.url, body, { secret: null })).status).toBe(401);
    expect(warn).not.toHaveBeenCalled();
  });

  it('the default logger is the console: a 401 is not silent without DEBUG', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    served = await serveReceiver({ secret: SECRET, debug: false, onMessage: () => {} });
    expect((await send(served.url, JSON.stringify(fixtures.track), { secret: WRONG })).status).toBe(401);
    expect(warn).toHaveBeenCalledTimes(1);
  });
});

describe('each cause, its fix, and the minute', () => {
  it('missing, malformed and a parser before hookgate each get their own warning naming what to do', async () => {
    const lines: string[] = [];
    served = await serveReceiver({
      secret: SECRET,
      debug: false,
      logger: { warn: (l) => void lines.push(l) },
      onMessage: () => {},
    });
    const body = JSON.stringify(fixtures.track);
    expect((await send(served.url, body, { secret: null })).json.code).toBe('missing_signature');
    expect((await send(served.url, body, { signature: 'not-hex' })).json.code).toBe('invalid_signature');
    // A framework's parser ran first: only the parsed body reaches the receiver.
    const parsed = await served.receiver.handle({
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-signature': hmac(body, WRONG) },
      parsedBody: JSON.parse(body),
    });
    expect(parsed.code).toBe('invalid_signature');
    const tail = ' (At most one such warning a minute; DEBUG=hookgate explains every failure.)';
    expect(lines).toEqual([
      '[hookgate] A request without X-Signature was refused 401 (missing_signature). If it came from Segment, the destination has no shared secret: set one in its settings and give the same to this receiver.' +
        tail,
      '[hookgate] A request whose X-Signature is not one header of 40 hex digits was refused 401 (invalid_signature); Segment sends the lowercase hex HMAC-SHA1 of the body.' +
        tail,
      '[hookgate] A signature did not match (401 invalid_signature) and the raw body was not available: a body parser ran before hookgate, and its re-serialization is not what was signed. Mount hookgate before body parsers (express.json() and the like) to verify the exact bytes.' +
        tail,
    ]);
  });

  it('a cause warns again once a minute has passed, not before', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      const lines: string[] = [];
      served = await serveReceiver({
        secret: SECRET,
        debug: false,
        logger: { warn: (l) => void lines.push(l) },
        onMessage: () => {},
      });
      const wrong = () => send(served!.url, JSON.stringify(fixtures.track), { secret: WRONG });
      await wrong();
      vi.setSystemTime(Date.now() + 59_999);
      await wrong();
      expect(lines).toHaveLength(1);
      vi.setSystemTime(Date.now() + 1);
      await wrong();
      expect(lines).toHaveLength(2);
      expect(lines[1]).toBe(lines[0]);
    } finally {
      vi.useRealTimers();
    }
  });

  it('with debug on, the explanation replaces the short warning', async () => {
    const lines: string[] = [];
    served = await serveReceiver({
      secret: SECRET,
      debug: true,
      logger: { warn: (l) => void lines.push(l) },
      onMessage: () => {},
    });
    await send(served.url, JSON.stringify(fixtures.track), { secret: WRONG });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^\[hookgate\] signature mismatch \(X-Signature /);
    expect(lines[0]).not.toContain('At most one such warning a minute');
  });
});
