// Every guide followed as a new user follows it, before the packages are on the registry: a new
// `npm init -y` project per guide family, the guide's own install lines with each `@hookgate/<name>`
// replaced by its tarball (as getting-started's "Before the packages are on npm" says), the guide's
// snippet saved and started the way the guide says, then a signed request to it (the guide's
// `npx hookgate send` where it gives one) and a forged one. Plain npm from the registry for the rest
// (one install per family, npm's cache reused between runs).
import { execFile, execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixture, sign } from '@hookgate/core';
import { startWorkerd, workerdBinary } from '../runtimes/workerd.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const execFileAsync = promisify(execFile);
const SECRET = 'whsec_guide_snippets';

/** The code blocks of a Markdown page, in order, with their language. */
function blocksOf(doc: string): { lang: string; code: string }[] {
  const text = readFileSync(path.join(root, doc), 'utf8');
  return [...text.matchAll(/^```(\w+)\n([\s\S]*?)^```$/gm)].map((m) => ({ lang: m[1]!, code: m[2]! }));
}

/** The guide's install lines (`npm pkg set …`, `npm install …` in its sh blocks; not the tarball example). */
function installLinesOf(doc: string): string[] {
  return blocksOf(doc)
    .filter((b) => b.lang === 'sh')
    .flatMap((b) => b.code.split('\n'))
    .filter((line) => /^npm (install|pkg set) /.test(line) && !line.includes('/path/to/'));
}

/** The first TypeScript block of `doc` that contains `marker` (or the first one). */
function snippetOf(doc: string, marker?: string): string {
  const block = blocksOf(doc).find((b) => b.lang === 'ts' && (!marker || b.code.includes(marker)));
  if (!block) throw new Error(`${doc}: no ts block${marker ? ` containing ${marker}` : ''}`);
  return block.code;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

let scratch = '';
const tarballs: Record<string, string> = {};
const running: ChildProcess[] = [];

async function sh(command: string, cwd: string, env: Record<string, string> = {}): Promise<string> {
  try {
    const { stdout } = await execFileAsync('sh', ['-c', command], {
      cwd,
      encoding: 'utf8',
      maxBuffer: 16 << 20,
      timeout: 300_000,
      env: {
        ...process.env,
        npm_config_prefer_offline: 'true',
        npm_config_audit: 'false',
        npm_config_fund: 'false',
        npm_config_loglevel: 'error',
        npm_config_update_notifier: 'false',
        ...env,
      },
    });
    return stdout;
  } catch (error) {
    const e = error as { stdout?: string; stderr?: string; message: string };
    throw new Error(`${command} (in ${cwd}) failed:\n${e.stdout ?? ''}\n${e.stderr ?? e.message}`);
  }
}

/** A new `npm init -y` project with the install lines of `docs`, `@hookgate/<name>` read as its tarball. */
async function projectFor(family: string, docs: readonly string[]): Promise<string> {
  const dir = path.join(scratch, family);
  mkdirSync(dir);
  await sh('npm init -y', dir);
  for (const doc of docs) {
    for (const line of installLinesOf(doc)) {
      const withTarballs = line.replace(/@hookgate\/([a-z]+)/g, (_, name: string) => {
        if (!tarballs[name]) throw new Error(`${doc}: no tarball for @hookgate/${name}`);
        return tarballs[name];
      });
      // The emulator depends on @hookgate/plans, which npm cannot fetch before it is published: its tarball
      // goes with the emulator's (as getting-started's "Before the packages are on npm" says).
      const withPlans =
        withTarballs.includes(tarballs.emulator!) && !withTarballs.includes(tarballs.plans!)
          ? withTarballs.replace(tarballs.emulator!, `${tarballs.emulator} ${tarballs.plans}`)
          : withTarballs;
      await sh(withPlans, dir);
    }
  }
  return dir;
}

/** Starts `node --import tsx <file>` in `dir` (as the guides say) and waits for it to answer on `port`. */
async function startNode(dir: string, file: string, port: number): Promise<void> {
  const child = spawn(process.execPath, ['--import', 'tsx', file], {
    cwd: dir,
    env: { ...process.env, WEBHOOK_SECRET: SECRET },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.push(child);
  let output = '';
  child.stdout.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr.on('data', (c: Buffer) => (output += c.toString()));
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${file} exited (${child.exitCode}):\n${output}`);
    const up = await fetch(`http://127.0.0.1:${port}/webhooks`).then(
      () => true,
      () => false,
    );
    if (up) return;
    if (Date.now() > deadline) throw new Error(`${file} did not listen on ${port} within 60 s:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** A signed track message and a forged one: 200 `ok`, then 401. */
async function expectVerifies(url: string): Promise<void> {
  const body = JSON.stringify(fixture('track', { userId: `guide_${Math.random().toString(36).slice(2)}` }));
  const post = (signature: string) =>
    fetch(url, { method: 'POST', body, headers: { 'content-type': 'application/json', 'x-signature': signature } });
  const signed = await post(sign(body, SECRET));
  expect(signed.status, await signed.clone().text()).toBe(200);
  expect(await signed.json()).toMatchObject({ ok: true, code: 'ok' });
  expect((await post(sign(body, 'not the secret'))).status).toBe(401);
}

/** The guide's send line: `npx hookgate send <type> --to <url> --secret "$WEBHOOK_SECRET"`, from the project. */
async function sendWithCli(dir: string, type: string, url: string): Promise<string> {
  return sh(`npx --no-install hookgate send ${type} --to ${url} --secret "$WEBHOOK_SECRET"`, dir, {
    WEBHOOK_SECRET: SECRET,
  });
}

beforeAll(async () => {
  scratch = mkdtempSync(path.join(tmpdir(), 'hookgate-guides-'));
  const out = path.join(scratch, 'tarballs');
  const packed = await sh(`"${process.execPath}" scripts/pack.mjs --out "${out}"`, root);
  for (const tarball of packed.trim().split('\n')) {
    const name = /hookgate-([a-z]+)-\d/.exec(path.basename(tarball))?.[1];
    if (name) tarballs[name] = tarball;
  }
}, 240_000);

// Asynchronous: removing five projects' node_modules synchronously blocks the worker past vitest's RPC timeout.
afterAll(async () => {
  const exits = running
    .filter((child) => child.exitCode === null && child.signalCode === null)
    .map((child) => {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      return exited;
    });
  await Promise.all(exits);
  if (scratch) await rm(scratch, { recursive: true, force: true });
}, 120_000);

// Spawned npm, node and workerd on a loaded machine: generous bounds, not timing assertions.
describe('the guides, followed in a new npm project from the tarballs', { timeout: 400_000 }, () => {
  it('getting started and the Express guide (one project: both install lines)', async () => {
    const dir = await projectFor('express', ['docs/getting-started.md', 'docs/guides/express.md']);
    expect(JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')).type).toBe('module');
    for (const [doc, defaultPort, marker] of [
      ['docs/getting-started.md', 3000, undefined],
      ['docs/guides/express.md', 3000, 'handleClientErrors'],
    ] as const) {
      const port = await freePort();
      const code = snippetOf(doc, marker);
      expect(code, doc).toContain(String(defaultPort));
      const file = `${path.basename(doc, '.md')}.ts`;
      writeFileSync(path.join(dir, file), code.replaceAll(String(defaultPort), String(port)));
      await startNode(dir, file, port);
      await expectVerifies(`http://127.0.0.1:${port}/webhooks`);
      expect(await sendWithCli(dir, 'track', `http://127.0.0.1:${port}/webhooks`)).toMatch(/← 200/);
    }
    // The snippets type-check with what the guide installed (tsc, @types/node, @types/express).
    writeFileSync(
      path.join(dir, 'tsconfig.json'),
      JSON.stringify({ compilerOptions: { target: 'es2022', module: 'nodenext', strict: true, noEmit: true } }),
    );
    await sh('npx --no-install tsc -p .', dir);
  });

  it('the Fastify guide (top-level await: the project is an ES module)', async () => {
    const dir = await projectFor('fastify', ['docs/guides/fastify.md']);
    const port = await freePort();
    writeFileSync(path.join(dir, 'server.ts'), snippetOf('docs/guides/fastify.md').replaceAll('3001', String(port)));
    await startNode(dir, 'server.ts', port);
    await expectVerifies(`http://127.0.0.1:${port}/webhooks`);
    expect(await sendWithCli(dir, 'track', `http://127.0.0.1:${port}/webhooks`)).toMatch(/← 200/);
  });

  it('the Hono guide on Node, and its Worker under workerd with the secret from env', async () => {
    const dir = await projectFor('hono', ['docs/guides/hono.md']);
    const port = await freePort();
    writeFileSync(path.join(dir, 'server.ts'), snippetOf('docs/guides/hono.md').replaceAll('3002', String(port)));
    await startNode(dir, 'server.ts', port);
    await expectVerifies(`http://127.0.0.1:${port}/webhooks`);
    expect(await sendWithCli(dir, 'identify', `http://127.0.0.1:${port}/webhooks`)).toMatch(/← 200/);

    writeFileSync(path.join(dir, 'worker.ts'), snippetOf('docs/guides/hono.md', 'ExecutionContext'));
    await expectWorkerVerifies(dir);
  });

  it('the NestJS guide, in a CommonJS project (npm init -y, no "type": "module")', async () => {
    const dir = await projectFor('nestjs', ['docs/guides/nestjs.md']);
    expect(JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')).type).toBe('commonjs');
    const tsconfig = blocksOf('docs/guides/nestjs.md').find((b) => b.lang === 'json' && b.code.includes('Decorators'));
    writeFileSync(path.join(dir, 'tsconfig.json'), tsconfig!.code);
    const port = await freePort();
    writeFileSync(path.join(dir, 'server.ts'), snippetOf('docs/guides/nestjs.md').replaceAll('3004', String(port)));
    await startNode(dir, 'server.ts', port);
    await expectVerifies(`http://127.0.0.1:${port}/webhooks`);
    expect(await sendWithCli(dir, 'track', `http://127.0.0.1:${port}/webhooks`)).toMatch(/← 200/);
  });

  it('the Workers guide under workerd, and the Lambda guide bundled with esbuild and invoked', async () => {
    const dir = await projectFor('core', ['docs/guides/workers.md', 'docs/guides/lambda.md']);
    writeFileSync(path.join(dir, 'worker.ts'), snippetOf('docs/guides/workers.md'));
    await expectWorkerVerifies(dir);

    // Lambda: bundled as the guide says, then invoked with a function URL's (v2) event.
    writeFileSync(path.join(dir, 'handler.ts'), snippetOf('docs/guides/lambda.md'));
    await sh(
      'npx --no-install esbuild handler.ts --bundle --platform=node --format=esm --outfile=dist/handler.mjs',
      dir,
    );
    const body = JSON.stringify(fixture('track', { userId: 'guide_lambda' }));
    const invoke = (signature: string) =>
      sh(
        `node --input-type=module -e 'const { handler } = await import("./dist/handler.mjs"); console.log(JSON.stringify(await handler(JSON.parse(process.env.EVENT))))'`,
        dir,
        {
          WEBHOOK_SECRET: SECRET,
          EVENT: JSON.stringify({
            version: '2.0',
            requestContext: { http: { method: 'POST' } },
            headers: { 'content-type': 'application/json', 'x-signature': signature },
            body,
            isBase64Encoded: false,
          }),
        },
      );
    const lastLine = (out: string) => JSON.parse(out.trim().split('\n').at(-1)!) as { statusCode: number };
    expect(lastLine(await invoke(sign(body, SECRET))).statusCode).toBe(200);
    expect(lastLine(await invoke(sign(body, 'not the secret'))).statusCode).toBe(401);
  });
});

/** Bundles `dir/worker.ts` as Wrangler would (esbuild, the Workers conditions) and serves it under workerd. */
async function expectWorkerVerifies(dir: string): Promise<void> {
  expect(workerdBinary(), 'the workspace installs workerd').toBeDefined();
  const esbuild = path.join(root, 'node_modules/.bin/esbuild');
  const worker = await startWorkerd([{ name: 'guide', bindings: { WEBHOOK_SECRET: SECRET } }], {
    bundle: (out) => {
      const file = path.join(out, 'worker.mjs');
      // From the project: its node_modules (the tarballs' packages), not the workspace's.
      execFileSync(
        esbuild,
        [
          'worker.ts',
          '--bundle',
          '--format=esm',
          '--platform=browser',
          '--conditions=workerd,worker,browser',
          '--target=es2022',
          `--outfile=${file}`,
          '--log-level=error',
        ],
        { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] },
      );
      return file;
    },
  });
  try {
    await expectVerifies(`${worker.urls.guide}/webhooks`);
  } finally {
    await worker.close();
  }
}
