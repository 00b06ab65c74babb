// Options are checked at creation: an unknown name throws, naming it and the nearest valid one;
// a missing options object throws a clear error; `null` in an optional field means "not given".
import { afterEach, describe, expect, it } from 'vitest';
import { UnknownOptionError, createReceiver, fixtures, type ReceiverOptions } from '../src/index.js';
import { RECEIVER_OPTION_NAMES, checkReceiverOptions } from '../src/adapter.js';
import { editDistance, nearestName, rejectUnknownNames } from '../src/internal.js';
import { SECRET, send, serveReceiver, type ServedReceiver } from './helpers/receiver-server.js';

let srv: ServedReceiver | undefined;
afterEach(async () => {
  await srv?.close();
  srv = undefined;
});

const quiet = { warn: () => {} };
const create = (options: unknown) => () => createReceiver(options as ReceiverOptions);

describe('editDistance and nearestName', () => {
  it.each([
    ['track', 'track', 0],
    ['trak', 'track', 1],
    ['trakc', 'track', 1], // a swap of neighbours counts once
    ['tarck', 'track', 1],
    ['', 'abc', 3],
    ['abc', '', 3],
    ['kitten', 'sitting', 3],
    ['onMesage', 'onMessage', 1],
    ['deadline', 'deadlineMs', 2],
  ])('editDistance(%j, %j) = %i', (a, b, d) => {
    expect(editDistance(a, b)).toBe(d);
    expect(editDistance(b, a)).toBe(d);
  });

  it('suggests the closest name, ignoring case, and nothing for a name far from all', () => {
    const types = ['page', 'screen', 'identify', 'track', 'alias', 'group', 'delete'];
    expect(nearestName('trak', types)).toBe('track');
    expect(nearestName('Track', types)).toBe('track');
    expect(nearestName('identfy', types)).toBe('identify');
    expect(nearestName('grop', types)).toBe('group');
    expect(nearestName('pages', types)).toBe('page');
    expect(nearestName('ttl', ['store', 'ttlMs', 'inFlightTtlMs'])).toBe('ttlMs'); // a name cut short
    expect(nearestName('banana', types)).toBeUndefined();
    expect(nearestName('x', ['y'])).toBeUndefined(); // one or two characters: only a case slip
    expect(nearestName('Y', ['y'])).toBe('y');
    expect(nearestName('anything', [])).toBeUndefined();
  });

  it('rejectUnknownNames passes known names and throws for the first unknown one', () => {
    expect(() => rejectUnknownNames({ url: 'x' }, ['url', 'headers'], { caller: 'endpoint' })).not.toThrow();
    let error: unknown;
    try {
      rejectUnknownNames({ url: 'x', headrs: {} }, ['url', 'headers'], {
        caller: 'endpoint',
        path: 'endpoints[0]',
        kind: 'setting',
      });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(UnknownOptionError);
    expect(error).toBeInstanceOf(TypeError);
    expect((error as UnknownOptionError).option).toBe('endpoints[0].headrs');
    expect((error as UnknownOptionError).suggestion).toBe('endpoints[0].headers');
    expect((error as Error).message).toBe(
      'endpoint: unknown setting "endpoints[0].headrs"; did you mean "endpoints[0].headers"? Valid settings in endpoints[0]: url, headers.',
    );
  });
});

describe('a missing options object', () => {
  it.each([
    ['no argument', undefined, 'undefined'],
    ['null', null, 'null'],
    ['a bare secret string', SECRET, '"whs…"'],
    ['an array', [SECRET], 'an array'],
  ])('%s → a clear error naming what to pass and the opt-out, not a TypeError from deep inside', (_n, given, shown) => {
    expect(create(given)).toThrow(TypeError);
    expect(create(given)).toThrow(
      /^createReceiver\(\) needs an options object with your shared secret, e\.g\. createReceiver\(\{ secret: /,
    );
    expect(create(given)).toThrow(/pass \{ insecureSkipVerification: true \}/);
    expect(create(given)).toThrow(new RegExp(`Got ${shown.replace(/[[\]().*+?]/g, '\\$&')}\\.$`));
  });

  it('never shows a secret passed in place of the options', () => {
    expect(create(SECRET)).not.toThrow(new RegExp(SECRET));
  });
});

describe('unknown names', () => {
  it.each([
    [{ on: { trak: () => {} } }, 'on.trak', 'on.track', 'message type'],
    [{ on: { Identify: () => {} } }, 'on.Identify', 'on.identify', 'message type'],
    [{ on: { track: () => {}, alais: () => {} } }, 'on.alais', 'on.alias', 'message type'],
    [{ onMesage: () => {} }, 'onMesage', 'onMessage', 'option'],
    [{ deadlinMs: 3000 }, 'deadlinMs', 'deadlineMs', 'option'],
    [{ secrets: [SECRET] }, 'secrets', 'secret', 'option'],
    [{ maxbodybyte: 10 }, 'maxbodybyte', 'maxBodyBytes', 'option'],
    [{ dedupe: { ttl: 1000 } }, 'dedupe.ttl', 'dedupe.ttlMs', 'option'],
    [{ dedupe: { inflightTtlMs: 1000 } }, 'dedupe.inflightTtlMs', 'dedupe.inFlightTtlMs', 'option'],
    [{ handlers: {} }, 'handlers', undefined, 'option'],
    [{ on: { order_completed: () => {} } }, 'on.order_completed', undefined, 'message type'],
  ])('%j → names %s and suggests %s', (extra, option, suggestion, kind) => {
    let error: unknown;
    try {
      createReceiver({ secret: SECRET, logger: quiet, ...(extra as object) });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(UnknownOptionError);
    const e = error as UnknownOptionError;
    expect(e.option).toBe(option);
    expect(e.suggestion).toBe(suggestion);
    expect(e.message).toContain(`createReceiver(): unknown ${kind} "${option}"`);
    if (suggestion) expect(e.message).toContain(`did you mean "${suggestion}"?`);
    else expect(e.message).not.toContain('did you mean');
    expect(e.message).toMatch(
      kind === 'option' && !option.includes('.')
        ? /Valid options: secret, insecureSkipVerification, on, /
        : /Valid .* in (on|dedupe): /,
    );
  });

  it('lists every option of ReceiverOptions as valid', () => {
    expect([...RECEIVER_OPTION_NAMES].sort()).toEqual(
      [
        'allowReserializedWithRawBody',
        'bigNumbers',
        'crypto',
        'debug',
        'dedupe',
        'deadlineMs',
        'insecureSkipVerification',
        'logger',
        'maxBodyBytes',
        'mode',
        'on',
        'onError',
        'onMessage',
        'secret',
        'signatureForms',
        'strictTimestamps',
        'destination',
        'enqueue',
        'trackingPlan',
        'onViolation',
        'telemetry',
      ].sort(),
    );
  });

  it('an adapter adds its own names; they stay unknown to core', () => {
    expect(() =>
      checkReceiverOptions({ secret: SECRET, path: '/x' }, { caller: 'plugin', adapterOptions: ['path'] }),
    ).not.toThrow();
    expect(() =>
      checkReceiverOptions({ secret: SECRET, paht: '/x' }, { caller: 'plugin', adapterOptions: ['path'] }),
    ).toThrow(/^plugin: unknown option "paht"; did you mean "path"\?/);
    expect(create({ secret: SECRET, path: '/x' })).toThrow(/unknown option "path"/);
  });

  it('a misspelled handler never becomes a silent "unhandled" acknowledgement', async () => {
    // Before: on: { trak } answered every track 200 unhandled. Now there is no receiver to serve.
    await expect(
      serveReceiver({ secret: SECRET, on: { trak: () => {} } } as unknown as ReceiverOptions),
    ).rejects.toThrow(/did you mean "on.track"/);
  });
});

describe('wrong types name the field and the fix', () => {
  it.each([
    [{ on: () => {} }, /^createReceiver\(\): on must be an object of handlers per message type/],
    [{ on: [() => {}] }, /on must be an object.*got an array/],
    [{ on: { track: 'handleTrack' } }, /on\.track must be a function \(msg, ctx\) => …; got "handleTrack"/],
    [{ onMessage: {} }, /onMessage must be a function; got an object/],
    [{ onError: 'log' }, /onError must be a function; got "log"/],
    [{ debug: 'true' }, /debug must be true or false; got "true"/],
    [{ strictTimestamps: 1 }, /strictTimestamps must be true or false; got 1/],
    [{ insecureSkipVerification: 'yes' }, /insecureSkipVerification must be true or false/],
    [{ logger: console.warn }, /logger must be an object with a warn\(line\) method.*got a function/],
    [{ logger: { log: () => {} } }, /logger must be an object with a warn\(line\) method/],
    [{ logger: { warn: () => {}, debug: 'x' } }, /logger must be/],
    [{ dedupe: true }, /dedupe must be false \(off\) or an object \{ store\?, ttlMs\?, inFlightTtlMs\? \}; got true/],
    [{ dedupe: 'redis' }, /dedupe must be false/],
    [{ secret: { value: SECRET } }, /^secret must be a non-empty string/],
  ])('%j', (extra, pattern) => {
    expect(create({ secret: SECRET, logger: quiet, ...(extra as object) })).toThrow(pattern);
  });

  it('a long string value is cut short in the error', () => {
    expect(create({ secret: SECRET, onMessage: 'a-very-long-value-that-might-be-private' })).toThrow(/got "a-v…"\./);
  });
});

describe('handlers written as a class', () => {
  it('their methods are handlers, over HTTP; a misspelled method is refused like a misspelled key', async () => {
    const seen: string[] = [];
    class Handlers {
      track() {
        seen.push('track');
      }
    }
    srv = await serveReceiver({ secret: SECRET, on: new Handlers() });
    expect((await send(srv.url, fixtures.track)).json).toMatchObject({ code: 'ok' });
    expect(seen).toEqual(['track']);
    class Misspelled {
      trak() {}
    }
    expect(create({ secret: SECRET, on: new Misspelled() })).toThrow(
      /unknown message type "on.trak"; did you mean "on.track"/,
    );
  });

  it('a Map of handlers is refused, not read as "no handlers"', () => {
    expect(create({ secret: SECRET, on: new Map([['track', () => {}]]) })).toThrow(/unknown message type "on\.\w+"/);
  });
});

describe('null means "not given" in optional fields', () => {
  it('null options take their defaults', () => {
    const r = createReceiver({
      secret: SECRET,
      mode: null,
      deadlineMs: null,
      maxBodyBytes: null,
      crypto: null,
      signatureForms: null,
      strictTimestamps: null,
      debug: null,
      logger: null,
      onError: null,
      onMessage: null,
      on: null,
      dedupe: null,
    } as unknown as ReceiverOptions);
    expect([r.mode, r.deadlineMs, r.maxBodyBytes]).toEqual(['handle', 4000, 1024 * 1024]);
  });

  it("does not change the caller's options object", () => {
    const given = { secret: SECRET, deadlineMs: null, on: { track: null }, dedupe: { ttlMs: null } };
    createReceiver(given as unknown as ReceiverOptions);
    expect(given).toEqual({ secret: SECRET, deadlineMs: null, on: { track: null }, dedupe: { ttlMs: null } });
  });

  it('on.track: null falls through to onMessage, over HTTP', async () => {
    const seen: string[] = [];
    srv = await serveReceiver({
      secret: SECRET,
      on: { track: null, identify: () => void seen.push('identify') },
      onMessage: (m: { type: string }) => void seen.push(`any:${m.type}`),
    } as unknown as ReceiverOptions);
    expect((await send(srv.url, fixtures.track)).status).toBe(200);
    expect((await send(srv.url, fixtures.identify)).status).toBe(200);
    expect(seen).toEqual(['any:track', 'identify']);
  });

  it('dedupe: null keeps the default dedupe (turn it off with false), over HTTP', async () => {
    let runs = 0;
    srv = await serveReceiver({
      secret: SECRET,
      dedupe: null,
      onMessage: () => void runs++,
    } as unknown as ReceiverOptions);
    const first = await send(srv.url, fixtures.track);
    const again = await send(srv.url, fixtures.track);
    expect(first.status).toBe(200);
    expect(again.json).toMatchObject({ duplicate: true });
    expect(runs).toBe(1);
  });

  it('dedupe: { store: null, ttlMs: null } is the in-memory default', async () => {
    let runs = 0;
    srv = await serveReceiver({
      secret: SECRET,
      dedupe: { store: null, ttlMs: null, inFlightTtlMs: null },
      onMessage: () => void runs++,
    } as unknown as ReceiverOptions);
    await send(srv.url, fixtures.identify);
    expect((await send(srv.url, fixtures.identify)).json).toMatchObject({ duplicate: true });
    expect(runs).toBe(1);
  });

  it('a misspelled name is refused even when its value is null', () => {
    expect(create({ secret: SECRET, deadlinMs: null })).toThrow(
      /unknown option "deadlinMs"; did you mean "deadlineMs"/,
    );
    expect(create({ secret: SECRET, on: { trak: null } })).toThrow(/did you mean "on.track"/);
  });
});

describe('allowReserializedWithRawBody is checked like the other switches', () => {
  it('takes true or false, and names the field for anything else', () => {
    expect(() => checkReceiverOptions({ secret: SECRET, allowReserializedWithRawBody: true })).not.toThrow();
    expect(() => checkReceiverOptions({ secret: SECRET, allowReserializedWithRawBody: 'yes' })).toThrow(
      /allowReserializedWithRawBody must be true or false; got "yes"/,
    );
    expect(() => checkReceiverOptions({ secret: SECRET, allowReserialisedWithRawBody: true })).toThrow(
      /did you mean "allowReserializedWithRawBody"/,
    );
  });
});
