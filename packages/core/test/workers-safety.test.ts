// Workers safety: no eval / new Function anywhere in core or what it bundles, and core works where
// code generation from strings is forbidden and node:crypto, Buffer and require are absent (a Worker
// without nodejs_compat): signAsync, verifyAsync, parseMessage and the receiver over Web Crypto.
// The second part is a SIMULATION on Node (those globals removed, --disallow-code-generation-from-strings),
// kept as a fast extra; the real Workers runtime runs the whole conformance table in
// test/runtimes/workerd.test.ts.
import { execFileSync } from 'node:child_process';
import { createHash, createHmac } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtures } from '../src/index.js';
import { bundleCore, coreSrc, repoRoot, type CoreBundle } from './helpers/bundle.js';

// eval(…), new Function(…), new globalThis.Function(…) (TypeBox's compiler spells it so), Function('…').
// A method of that name (re2js's prefilter has `eval(input, pos) { … }`, called as `.eval(…)`) is not eval.
const CODEGEN = [
  /(?<![.\w$])eval\s*\((?![^)]*\)\s*\{)/,
  /\bnew\s+(?:globalThis\.|self\.|window\.)?Function\b/,
  /\b(?:globalThis\.)?Function\s*\(\s*['"`]/,
];

it('the scan patterns catch every spelling', () => {
  const spellings = [
    'eval("1")',
    'new Function("a", "return a")',
    'return new globalThis.Function(...args);',
    "Function('return 1')",
  ];
  expect(CODEGEN[0]!.test('\teval(input, pos) {')).toBe(false);
  expect(CODEGEN[0]!.test('this.prefilter.eval(input, pos)')).toBe(false);
  for (const s of spellings)
    expect(
      CODEGEN.some((re) => re.test(s)),
      s,
    ).toBe(true);
  expect(CODEGEN.some((re) => re.test('function IsFunction(x) { return FromFunction(x); }'))).toBe(false);
});

function filesUnder(dir: string, ext: RegExp): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? filesUnder(join(dir, e.name), ext) : ext.test(e.name) ? [join(dir, e.name)] : [],
  );
}

let bundle: CoreBundle;
beforeAll(() => {
  bundle = bundleCore();
});
afterAll(() => bundle?.remove());

describe('no code generation from strings', () => {
  it('core’s sources use no eval / new Function', () => {
    const files = filesUnder(coreSrc, /\.ts$/);
    expect(files.length).toBeGreaterThan(20);
    for (const f of files) {
      const text = readFileSync(f, 'utf8');
      for (const re of CODEGEN) expect(re.test(text), `${f} matches ${re}`).toBe(false);
    }
  });

  it('nor does core bundled with its dependencies (TypeBox’s interpreted checker, stable stringify)', () => {
    const text = readFileSync(bundle.file, 'utf8');
    expect(text.length).toBeGreaterThan(10_000);
    expect(text).toContain('fast-json-stable-stringify');
    for (const re of CODEGEN) expect(re.test(text), `bundle matches ${re}`).toBe(false);
  });

  it('nor does the built dist/, when built', () => {
    const dist = join(repoRoot, 'packages/core/dist');
    if (!existsSync(dist)) return; // built by `pnpm build`; the bundle above covers the same code
    for (const f of filesUnder(dist, /\.(c?js)$/)) {
      const text = readFileSync(f, 'utf8');
      for (const re of CODEGEN) expect(re.test(text), `${f} matches ${re}`).toBe(false);
    }
  });
});

describe('in a Worker-like runtime simulated on Node: no node:crypto, no Buffer, no require, no eval', () => {
  const SECRET = 'whsec_worker';
  const body = JSON.stringify({ ...fixtures.track, properties: { note: 'café ☕' } });
  const signature = createHmac('sha1', SECRET).update(body).digest('hex');
  let out: Record<string, unknown>;

  beforeAll(() => {
    const script = join(bundle.dir, 'worker-like.mjs');
    writeFileSync(
      script,
      `
const out = {};
// What a Worker lacks: node:crypto (no getBuiltinModule, and ESM has no require) and Buffer.
delete process.getBuiltinModule;
const savedBuffer = globalThis.Buffer;
delete globalThis.Buffer;
out.requireDefined = typeof require !== 'undefined';
try { eval('1'); out.evalBlocked = false; } catch (e) { out.evalBlocked = e instanceof EvalError; }
try { new Function('return 1'); out.functionBlocked = false; } catch (e) { out.functionBlocked = e instanceof EvalError; }
const core = await import(${JSON.stringify(bundle.file)});
globalThis.Buffer = savedBuffer; // Node's own fetch needs it back; core captured its absence at import
const [body, signature, secret] = JSON.parse(process.argv[2]);
try { core.sign(body, secret); out.signError = null; } catch (e) { out.signError = e.message; }
out.signAsync = await core.signAsync(body, secret);
out.verifyAsync = await core.verifyAsync({ signature, secret: ['old', secret], rawBody: body });
out.verifyAsyncPretty = await core.verifyAsync({ signature, secret, parsedBody: JSON.parse(JSON.stringify(JSON.parse(body), null, 2)) });
out.verifyAsyncPrettyRaw = await core.verifyAsync({ signature, secret, rawBody: JSON.stringify(JSON.parse(body), null, 2) });
out.verifyAsyncBad = await core.verifyAsync({ signature: signature.replace(/^./, (c) => (c === '0' ? '1' : '0')), secret, rawBody: body });
out.parsed = core.parseMessage(body).type;
out.issues = core.messageIssues({ type: 'alias' }).map((i) => i.path);
const handled = [];
const receiver = core.createReceiver({ secret, onMessage: (m, ctx) => { handled.push([m.type, ctx.verification, ctx.dedupeKey]); } });
const req = (sig, b = body) => new Request('https://worker.example/hook', { method: 'POST', body: b, headers: { 'content-type': 'application/json', 'x-signature': sig } });
const ok = await receiver.fetch(req(signature));
out.ok = [ok.status, await ok.json()];
const dup = await receiver.fetch(req(signature));
out.duplicate = (await dup.json()).code;
const bad = await receiver.fetch(req('0'.repeat(40)));
out.bad = bad.status;
out.handled = handled;
console.log(JSON.stringify(out));
`,
    );
    const stdout = execFileSync(
      process.execPath,
      ['--disallow-code-generation-from-strings', script, JSON.stringify([body, signature, SECRET])],
      {
        encoding: 'utf8',
        timeout: 20_000,
      },
    );
    out = JSON.parse(stdout.trim().split('\n').at(-1)!);
  });

  it('the simulation holds: eval and new Function throw, require is absent', () => {
    expect(out.evalBlocked).toBe(true);
    expect(out.functionBlocked).toBe(true);
    expect(out.requireDefined).toBe(false);
  });

  it('the sync API says clearly to use the async one', () => {
    expect(out.signError).toBe(
      'sign needs node:crypto, which this runtime does not provide. Use signAsync (Web Crypto) instead.',
    );
  });

  it('signAsync and verifyAsync work on Web Crypto alone', () => {
    expect(out.signAsync).toBe(signature);
    expect(out.verifyAsync).toEqual({ ok: true, form: 'raw', secretIndex: 1 });
    expect(out.verifyAsyncPretty).toEqual({ ok: true, form: 'stringify', secretIndex: 0 });
    expect(out.verifyAsyncPrettyRaw).toMatchObject({ ok: false, reason: 'mismatch' });
    expect(out.verifyAsyncBad).toMatchObject({ ok: false, reason: 'mismatch' });
  });

  it('the validator runs without code generation', () => {
    expect(out.parsed).toBe('track');
    expect(out.issues).toEqual(
      expect.arrayContaining(['$.version', '$.timestamp', '$["Previous ID"]', '$["User ID"]']),
    );
  });

  it('the receiver picks Web Crypto by itself and runs the status table, dedupe keyed by a Web Crypto SHA-256', () => {
    expect(out.ok).toEqual([200, { ok: true, code: 'ok', message: 'Handled.' }]);
    expect(out.duplicate).toBe('duplicate');
    expect(out.bad).toBe(401);
    expect(out.handled).toEqual([
      ['track', { form: 'raw', secretIndex: 0 }, `sha256:${createHash('sha256').update(body).digest('hex')}`],
    ]);
  });
});
