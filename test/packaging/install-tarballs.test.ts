// The packages as a user gets them: `scripts/pack.mjs` packs every package (after `pnpm build`), plain npm
// installs the tarballs into a scratch project outside the workspace, and that project imports them as
// ESM, requires them as CommonJS, type-checks against them (strict; node16 and bundler) and runs the bin.
import { execFile, execFileSync, type ExecFileOptions } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const PACKAGES = [
  'core',
  'plans',
  'express',
  'fastify',
  'hono',
  'emulator',
  'client',
  'redis',
  'bullmq',
  'otel',
] as const;
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const LICENSE = readFileSync(path.join(root, 'LICENSE'), 'utf8');

let scratch = '';
let tarballs: string[] = [];

const execFileAsync = promisify(execFile);

/** Runs a command in the scratch project (asynchronously: the worker keeps talking to vitest meanwhile). */
async function run(file: string, args: string[], options: ExecFileOptions = {}): Promise<string> {
  try {
    const { stdout } = await execFileAsync(file, args, {
      cwd: scratch,
      encoding: 'utf8',
      maxBuffer: 16 << 20,
      ...options,
    });
    return stdout as string;
  } catch (error) {
    const e = error as { stdout?: string; stderr?: string; message: string };
    throw new Error(`${path.basename(file)} ${args.join(' ')} failed:\n${e.stdout ?? ''}\n${e.stderr ?? e.message}`);
  }
}

function manifestOf(tarball: string): Record<string, any> {
  return JSON.parse(execFileSync('tar', ['-xzOf', tarball, 'package/package.json'], { encoding: 'utf8' }));
}

beforeAll(async () => {
  scratch = mkdtempSync(path.join(tmpdir(), 'hookgate-install-'));
  const out = path.join(scratch, 'tarballs');
  tarballs = (await run(process.execPath, [path.join(root, 'scripts/pack.mjs'), '--out', out], { cwd: root }))
    .trim()
    .split('\n');
  const app = path.join(scratch, 'app');
  execFileSync('mkdir', ['-p', app]);
  writeFileSync(path.join(app, 'package.json'), JSON.stringify({ name: 'scratch-app', private: true, type: 'module' }));
  scratch = app;
  // Plain npm, no workspace in sight; peer dependencies (express, fastify, hono, ioredis) come with npm ≥ 7.
  await run('npm', [
    'install',
    '--prefer-offline',
    '--no-audit',
    '--no-fund',
    '--loglevel=error',
    ...tarballs,
    '@types/node@20',
    '@types/express@5',
  ]);
}, 240_000);

afterAll(() => {
  if (scratch) rmSync(path.dirname(scratch), { recursive: true, force: true });
});

describe('the packed tarballs', () => {
  it('are one per package, with workspace ranges resolved and the metadata a first publish needs', () => {
    // One version for all: .changeset/config.json puts every @hookgate package in one fixed group.
    const { version } = JSON.parse(readFileSync(path.join(root, 'packages/core/package.json'), 'utf8'));
    expect(tarballs.map((t) => path.basename(t)).sort()).toEqual(
      PACKAGES.map((p) => `hookgate-${p}-${version}.tgz`).sort(),
    );
    for (const tarball of tarballs) {
      const manifest = manifestOf(tarball);
      const text = JSON.stringify(manifest);
      expect(text, `${manifest.name} has no workspace: range`).not.toMatch(/workspace:/);
      // @hookgate/otel names core's types only, so core is its peer (the receiver's own core), not its dependency.
      const coreRange =
        manifest.name === '@hookgate/otel'
          ? manifest.peerDependencies['@hookgate/core']
          : manifest.dependencies?.['@hookgate/core'];
      // The packages that import @hookgate/core/internal (no stability promised) pin core's exact version;
      // the rest take any compatible one.
      const pinned = ['@hookgate/bullmq', '@hookgate/emulator', '@hookgate/plans'].includes(manifest.name);
      if (manifest.name !== '@hookgate/core') {
        expect(coreRange, manifest.name).toBe(pinned ? manifest.version : `^${manifest.version}`);
      }
      expect(manifest.publishConfig).toEqual({ access: 'public' });
      expect(manifest.repository).toEqual({
        type: 'git',
        url: 'git+https://github.com/hookgate/hookgate.git',
        directory: `packages/${manifest.name.split('/')[1]}`,
      });
      expect(manifest.homepage).toMatch(/^https:\/\/github\.com\/hookgate\/hookgate\//);
      expect(manifest.bugs.url).toBe('https://github.com/hookgate/hookgate/issues');
      expect(manifest.keywords.length).toBeGreaterThan(2);
      expect(manifest.license).toBe('MIT');
    }
  });

  it('carry LICENSE, README and the built files, nothing else (no sources, tests, CLI CJS twin or CLI types)', () => {
    for (const tarball of tarballs) {
      const files = execFileSync('tar', ['-tzf', tarball], { encoding: 'utf8' })
        .trim()
        .split('\n')
        .map((f) => f.replace(/^package\//, ''))
        .sort();
      const isEmulator = path.basename(tarball).startsWith('hookgate-emulator');
      const isCore = path.basename(tarball).startsWith('hookgate-core');
      const isPlans = path.basename(tarball).startsWith('hookgate-plans');
      const expected = [
        'LICENSE',
        'README.md',
        'package.json',
        'dist/index.cjs',
        'dist/index.d.cts',
        'dist/index.d.ts',
        'dist/index.js',
      ];
      // The emulator ships the web inspector's page (built by scripts/build-inspector.mjs); core a Node entry
      // that imports node:crypto statically (ESM on Node before 20.16).
      if (isEmulator)
        expected.push(
          'bin/hookgate.js',
          'dist/cli.js',
          'dist/inspector/app.css',
          'dist/inspector/app.js',
          'dist/inspector/index.html',
        );
      if (isCore || isPlans) {
        // Core: four entries (main, adapter, calls, internal); plans: two (main, internal). Each in the neutral
        // build and the Node build (dist/node/), sharing chunks whose names carry a content hash.
        const subpaths = isCore ? ['adapter', 'calls', 'internal'] : ['internal'];
        for (const entry of subpaths)
          for (const ext of ['cjs', 'd.cts', 'd.ts', 'js']) expected.push(`dist/${entry}.${ext}`);
        for (const entry of ['index', ...subpaths]) expected.push(`dist/node/${entry}.js`);
        const shared = /^dist\/(node\/)?(chunk-[\w-]+\.c?js|[\w-]+-[\w-]+\.d\.c?ts)$/; // hashes are base64url: - and _ too
        expect(
          files.filter((f) => !shared.test(f)),
          path.basename(tarball),
        ).toEqual(expected.sort());
      } else if (isEmulator) {
        // The CLI's lazily loaded chunks (`hookgate types`' generators), named with a content hash.
        const chunk = /^dist\/[\w-]+-[A-Z0-9]{8}\.js$/;
        expect(files.filter((f) => chunk.test(f)).length, 'the CLI chunks').toBeGreaterThan(0);
        expect(
          files.filter((f) => !chunk.test(f)),
          path.basename(tarball),
        ).toEqual(expected.sort());
      } else expect(files, path.basename(tarball)).toEqual(expected.sort());
      expect(execFileSync('tar', ['-xzOf', tarball, 'package/LICENSE'], { encoding: 'utf8' })).toBe(LICENSE);
    }
  });
});

// Spawned node, npx and tsc processes are slow on a loaded machine: a generous bound, not a timing assertion.
describe('installed with npm outside the workspace', { timeout: 120_000 }, () => {
  it('imports every package as ESM and requires it as CommonJS, with the same exports', async () => {
    const names = PACKAGES.map((p) => `'@hookgate/${p}'`).join(', ');
    const [esm, cjs, resolved] = await Promise.all([
      run(process.execPath, [
        '--input-type=module',
        '-e',
        `const out = {}; for (const n of [${names}]) { const m = await import(n); out[n] = Object.keys(m).sort(); } console.log(JSON.stringify(out));`,
      ]),
      run(process.execPath, [
        '-e',
        `const out = {}; for (const n of [${names}]) out[n] = Object.keys(require(n)).sort(); console.log(JSON.stringify(out));`,
      ]),
      run(process.execPath, ['-e', "console.log(require.resolve('@hookgate/core'))"]),
    ]);
    const esmExports = JSON.parse(esm) as Record<string, string[]>;
    expect(JSON.parse(cjs)).toEqual(esmExports);
    expect(esmExports['@hookgate/core']).toEqual(expect.arrayContaining(['createReceiver', 'sign', 'verify']));
    expect(esmExports['@hookgate/emulator']).toEqual(expect.arrayContaining(['createEmulator', 'ManualClock']));
    // Resolved from the scratch project, not from the workspace.
    expect(resolved.trim().startsWith(path.join(scratch, 'node_modules'))).toBe(true);
  });

  it('signs with the ESM build and verifies with the CommonJS build (one protocol, both formats)', async () => {
    const signature = (
      await run(process.execPath, [
        '--input-type=module',
        '-e',
        `const { sign } = await import('@hookgate/core'); console.log(sign('{"a":1}', 's3cret'))`,
      ])
    ).trim();
    expect(signature).toMatch(/^[0-9a-f]{40}$/);
    const verify = async (secret: string) =>
      JSON.parse(
        await run(process.execPath, [
          '-e',
          `const { verify } = require('@hookgate/core'); console.log(JSON.stringify(verify({ signature: ${JSON.stringify(signature)}, secret: ${JSON.stringify(secret)}, rawBody: '{"a":1}' })))`,
        ]),
      );
    const [right, wrong] = await Promise.all([verify('s3cret'), verify('other')]);
    expect(right.ok).toBe(true);
    expect(wrong.ok).toBe(false);
  });

  const CONSUMER = `import { createReceiver, type WebhookMessage } from '@hookgate/core';
import { hookgate as expressHookgate } from '@hookgate/express';
import { hookgate as fastifyHookgate } from '@hookgate/fastify';
import { hookgate as honoHookgate } from '@hookgate/hono';
import { createEmulator, ManualClock } from '@hookgate/emulator';
import { Analytics } from '@hookgate/client';
import { RedisIdempotencyStore } from '@hookgate/redis';
import { createWorker, enqueueTo } from '@hookgate/bullmq';
import type { Request } from 'express';
import type { FastifyRequest } from 'fastify';

export const receiver = createReceiver({ secret: 's3cret', on: { track: (msg) => { const event: string = msg.event; void event; } } });
// @ts-expect-error the types are real, not any: a secret is a string (or several)
createReceiver({ secret: 42 });
// The frameworks' augmentations ship with the adapters.
export const fromExpress = (req: Request): WebhookMessage | undefined => req.webhook;
export const fromFastify = (request: FastifyRequest): WebhookMessage | undefined => request.webhook;
export const used = [expressHookgate, fastifyHookgate, honoHookgate, createEmulator, ManualClock, Analytics, RedisIdempotencyStore, createWorker, enqueueTo];
`;

  it('type-checks a consumer with tsc --strict under moduleResolution node16 (ESM and CommonJS files) and bundler', async () => {
    // A .cts file takes the `require` branch of each exports map (index.d.cts) under node16. The
    // `@ts-expect-error` line fails the check if the installed types were missing or `any`.
    const modes = {
      node16: { options: { module: 'node16', moduleResolution: 'node16' }, files: ['consumer.ts', 'consumer-cjs.cts'] },
      bundler: { options: { module: 'esnext', moduleResolution: 'bundler' }, files: ['consumer.ts'] },
    };
    writeFileSync(path.join(scratch, 'consumer.ts'), CONSUMER);
    writeFileSync(path.join(scratch, 'consumer-cjs.cts'), CONSUMER);
    const checks = Object.entries(modes).map(([mode, { options, files }]) => {
      const config = `tsconfig.${mode}.json`;
      writeFileSync(
        path.join(scratch, config),
        JSON.stringify({
          compilerOptions: {
            strict: true,
            noEmit: true,
            target: 'es2022',
            lib: ['es2023', 'dom'],
            types: ['node'],
            skipLibCheck: true,
            ...options,
          },
          files,
        }),
      );
      return run(process.execPath, [tsc, '-p', config]);
    });
    await Promise.all(checks);
  }, 120_000);

  it('runs the hookgate bin, by its .bin link and through npx without asking the registry', async () => {
    const bin = path.join(scratch, 'node_modules/.bin/hookgate');
    const [viaBin, viaNpx] = await Promise.all([
      run(bin, ['--help']),
      run('npx', ['--no-install', 'hookgate', '--help']),
    ]);
    expect(viaBin).toMatch(/^Usage: hookgate <command>/);
    expect(viaNpx).toBe(viaBin);
    await expect(run(bin, ['no-such-command'])).rejects.toThrow(/unknown command "no-such-command"/);
  });
});
