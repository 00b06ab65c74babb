// Debug mode: a signature mismatch is explained in the log (where the raw body and its re-serialization
// differ), and no log line ever holds the secret or a whole signature.
import { afterEach, describe, expect, it } from 'vitest';
import { createReceiver, fixtures } from '../src/index.js';
import { sortedJson } from '../src/signatures/body-forms.js';
import { SECRET, hmac, send, serveReceiver, type ServedReceiver } from './helpers/receiver-server.js';

let srv: ServedReceiver | undefined;
const savedDebug = process.env.DEBUG;
afterEach(async () => {
  await srv?.close();
  srv = undefined;
  if (savedDebug === undefined) delete process.env.DEBUG;
  else process.env.DEBUG = savedDebug;
});

async function debugReceiver(debug?: boolean) {
  const lines: string[] = [];
  const logger = { warn: (l: string) => void lines.push(l), debug: (l: string) => void lines.push(l) };
  srv = await serveReceiver({ secret: SECRET, ...(debug === undefined ? {} : { debug }), logger, onMessage: () => {} });
  return lines;
}

/** A body as a PHP encoder might write it: escaped slashes and a 1.0, which JSON.stringify rewrites. */
const phpBody = `{"version":1,"type":"track","userId":"u1","timestamp":"2026-11-21T12:00:00.000Z","event":"Viewed","properties":{"price":1.0,"url":"https:\\/\\/shop.example\\/p"}}`;

describe('debug mode', () => {
  it('explains where the raw body and its re-serialization differ, naming JSON paths and causes', async () => {
    const lines = await debugReceiver(true);
    const signature = hmac(phpBody, 'a-rotated-secret');
    const a = await send(srv!.url, phpBody, { signature });
    expect(a.status).toBe(401);
    expect(lines).toHaveLength(1);
    const log = lines[0]!;
    expect(log).toContain('signature mismatch');
    expect(log).toContain('$.properties.price [number-format]');
    expect(log).toContain('$.properties.url [escaped-slash]');
    expect(log).toContain(signature.slice(0, 6));
    expect(log).not.toContain(signature);
    expect(log).not.toContain(signature.slice(0, 12));
    expect(log).not.toContain(SECRET);
  });

  it('says when the signature matches the signed form but the raw bytes were changed after signing, and where', async () => {
    const lines = await debugReceiver(true);
    const signedText = JSON.stringify(fixtures.track);
    const changed = `${signedText.slice(0, 1)} ${signedText.slice(1)}`; // one space after "{"
    const a = await send(srv!.url, changed, { signature: hmac(signedText) });
    expect(a.status).toBe(401);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('matches the JSON.stringify form of this body, not its raw bytes');
    expect(lines[0]).toContain('first difference at byte 1');
    expect(lines[0]).toContain('allowReserializedWithRawBody');
    expect(lines[0]).not.toContain(SECRET);
  });

  it('blames the secret when the body round-trips unchanged', async () => {
    const lines = await debugReceiver(true);
    const body = JSON.stringify(fixtures.track);
    await send(srv!.url, body, { secret: 'whsec_other' });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('secret is the likely difference');
    expect(lines[0]).not.toContain(hmac(body, 'whsec_other'));
  });

  it('for a malformed signature, names the header problem and does not analyse the body', async () => {
    const lines = await debugReceiver(true);
    await send(srv!.url, phpBody, { signature: `${'ab'.repeat(20)}xx` });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('signature malformed');
    expect(lines[0]).toContain('40 hex digits');
    expect(lines[0]).not.toContain('[number-format]');
    expect(lines[0]).not.toContain('ab'.repeat(20));
  });

  it('says so when only a parsed body was given (a body parser ran first)', async () => {
    const lines: string[] = [];
    const receiver = createReceiver({
      secret: SECRET,
      debug: true,
      logger: { warn: (l) => void lines.push(l) },
      onMessage: () => {},
    });
    const r = await receiver.handle({
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-signature': hmac('{"x":1}') },
      parsedBody: fixtures.track,
    });
    expect(r.status).toBe(401);
    expect(lines[0]).toContain('raw body was not available');
    expect(lines[0]).toContain('before body parsers');
  });

  it('is off by default: a mismatch logs one short warning (once a minute per cause), no explanation', async () => {
    delete process.env.DEBUG;
    const lines = await debugReceiver();
    expect((await send(srv!.url, phpBody, { secret: 'other' })).status).toBe(401);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('DEBUG=hookgate');
    expect(lines[0]).not.toContain('[number-format]');
  });

  it('turns on with DEBUG=hookgate (also in a list)', async () => {
    process.env.DEBUG = 'express:*,hookgate';
    const lines = await debugReceiver();
    await send(srv!.url, phpBody, { secret: 'other' });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('[number-format]');
  });

  it('explains a very deeply nested body as too deep, not as invalid JSON', async () => {
    const lines = await debugReceiver(true);
    const body = `${'['.repeat(100_000)}${']'.repeat(100_000)}`; // valid JSON, 200 KB
    const a = await send(srv!.url, body, { secret: 'a-rotated-secret' });
    expect(a.status).toBe(401);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(`$${'[0]'.repeat(100)} [too-deep]`);
    expect(lines[0]).toContain('nests too deeply to explain');
    expect(lines[0]).toContain('deeper than 100 levels');
    expect(lines[0]).not.toContain('not valid JSON');
    expect(lines[0]).not.toContain('call stack');
  });

  it('never logs the secret, whatever fails', async () => {
    const lines = await debugReceiver(true);
    const bodies = [phpBody, JSON.stringify(fixtures.alias), '{"a":1}\n', 'not json'];
    for (const body of bodies) {
      await send(srv!.url, body, { secret: 'nope' });
      await send(srv!.url, body, { signature: 'zz' });
    }
    expect(lines.length).toBe(bodies.length * 2);
    for (const l of lines) expect(l).not.toContain(SECRET);
  });
});

describe('debug lines, in detail', () => {
  it('shows the first 6 characters of a signature and its length, and nothing of one of 8 characters or fewer', async () => {
    const lines = await debugReceiver(true);
    const body = JSON.stringify(fixtures.track);
    const wrong = hmac(body, 'whsec_other');
    for (const signature of [wrong, 'abcdef12', 'abcdef123']) await send(srv!.url, body, { signature });
    expect(lines.map((l) => /\(X-Signature ([^)]*\)?)\)/.exec(l)?.[1])).toEqual([
      `${wrong.slice(0, 6)}…(40 chars)`,
      '…',
      'abcdef…(9 chars)',
    ]);
    expect(lines[0]).toMatch(/^\[hookgate\] signature mismatch \(X-Signature [0-9a-f]{6}…\(40 chars\)\): /);
  });

  it('says when the signature matches the key-sorted form, and adds where raw and JSON.stringify differ', async () => {
    const lines = await debugReceiver(true);
    const message = { ...fixtures.track, properties: { url: 'https://shop.example/p' } };
    // Signed key-sorted; sent unsorted with an escaped slash.
    const sent = JSON.stringify(message).replace('https://shop.example/p', 'https:\\/\\/shop.example\\/p');
    const a = await send(srv!.url, sent, { signature: hmac(sortedJson(message)) });
    expect(a.status).toBe(401);
    expect(lines).toHaveLength(1);
    const [first, ...rest] = lines[0]!.split('\n');
    expect(first).toContain('The signature matches the key-sorted form of this body, not its raw bytes');
    expect(rest).toHaveLength(1);
    expect(rest[0]).toMatch(/^ {2}\$\.properties\.url \[escaped-slash\] /);
  });

  it('the changed-after-signing explanation has no finding lines when raw and JSON.stringify agree', async () => {
    const lines = await debugReceiver(true);
    // Compact (raw is its own JSON.stringify form) but signed key-sorted.
    await send(srv!.url, JSON.stringify(fixtures.track), { signature: hmac(sortedJson(fixtures.track)) });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('matches the key-sorted form');
    expect(lines[0]).not.toContain('\n');
    expect(lines[0]).toMatch(/accepts re-encoded bytes \(its cost: the receiver docs, Options\)\.$/);
  });

  it('one place where the raw body differs is listed as a difference, not as where the explanation stopped', async () => {
    const lines = await debugReceiver(true);
    const body = JSON.stringify({ ...fixtures.track, properties: { price: 1 } }).replace('"price":1', '"price":1.0');
    await send(srv!.url, body, { secret: 'whsec_other' });
    expect(lines).toHaveLength(1);
    const [first, ...rest] = lines[0]!.split('\n');
    expect(first).toMatch(/Where the raw body and its JSON\.stringify form differ:$/);
    expect(rest).toEqual([expect.stringMatching(/^ {2}\$\.properties\.price \[number-format\] /)]);
  });

  it('lists at most 10 places where the raw body and its JSON.stringify form differ', async () => {
    const lines = await debugReceiver(true);
    const properties = Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`p${i}`, 'a/b']));
    const body = JSON.stringify({ ...fixtures.track, properties }).replaceAll('a/b', 'a\\/b');
    await send(srv!.url, body, { secret: 'whsec_other' });
    expect(lines).toHaveLength(1);
    const [first, ...rest] = lines[0]!.split('\n');
    expect(first).toMatch(/Where the raw body and its JSON\.stringify form differ:$/);
    expect(rest).toHaveLength(10);
    expect(rest[0]).toMatch(/^ {2}\$\.properties\.p0 \[escaped-slash\] /);
  });

  it('a repeated X-Signature header is shown joined, still cut short', async () => {
    const lines: string[] = [];
    const receiver = createReceiver({ secret: SECRET, debug: true, logger: { warn: (l) => void lines.push(l) } });
    const body = JSON.stringify(fixtures.track);
    const wrong = hmac(body, 'whsec_other');
    const r = await receiver.handle({
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-signature': [wrong, wrong] },
      rawBody: body,
    });
    expect(r.status).toBe(401);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(`(X-Signature ${wrong.slice(0, 6)}…(81 chars))`);
  });
});
