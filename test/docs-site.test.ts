// The docs site, built as users build it (`pnpm docs:build`: TypeDoc's API reference, then
// VitePress, whose own check refuses a dead link between pages), then read back: every link
// between pages, to an asset or into the API reference resolves to a file of the output, and every
// public export of every package has its page in the API reference. Then served, by `pnpm docs:preview`
// and by the plainest static server: the API reference keeps its styles at `/api` and `/api/`, and
// links back to the guides.
import { execFile, spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { beforeAll, describe, expect, it } from 'vitest';
import { servePlainStatic } from './helpers/plain-static-server.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const dist = `${root}docs/.vitepress/dist`;
const PACKAGES = ['core', 'express', 'fastify', 'hono', 'emulator', 'client', 'redis', 'bullmq'] as const;

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = `${dir}/${name}`;
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

/** The output file a site-relative link names, with VitePress's clean URLs (`/testing` → testing.html). */
function target(fromFile: string, href: string): string {
  const path = decodeURIComponent(href.split('#')[0]!.split('?')[0]!);
  const base = path.startsWith('/') ? `${dist}${path}` : `${fromFile.slice(0, fromFile.lastIndexOf('/') + 1)}${path}`;
  const candidates = [base, `${base}.html`, `${base.replace(/\/$/, '')}/index.html`];
  return candidates.find((c) => existsSync(c) && statSync(c).isFile()) ?? base;
}

// Built in a child process without blocking this worker: a synchronous spawn stalls vitest's RPC,
// which then fails the run with "Timeout calling onTaskUpdate" when the build passes 60 s under load.
beforeAll(async () => {
  await new Promise<void>((resolve, reject) => {
    execFile(
      'npx',
      ['-y', 'pnpm@10', 'docs:build'],
      { cwd: root, encoding: 'utf8', timeout: 600_000, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        if (error) reject(new Error(`pnpm docs:build failed (${error.code ?? error.signal}):\n${stdout}\n${stderr}`));
        else resolve();
      },
    );
  });
}, 600_000);

describe('the docs site (pnpm docs:build)', () => {
  it('has the guide for every place a receiver runs, and the pages the sidebar names', () => {
    for (const page of [
      'index',
      'getting-started',
      'testing',
      'cli',
      'redis',
      'production',
      'troubleshooting-signatures',
      'migrating-from-hmac',
      'webhooks-actions',
      'client',
      'architecture',
      'receiver',
      'emulator',
    ]) {
      expect(existsSync(`${dist}/${page}.html`), page).toBe(true);
    }
    for (const guide of ['express', 'fastify', 'hono', 'nextjs', 'nestjs', 'lambda', 'workers', 'bun', 'deno']) {
      expect(existsSync(`${dist}/guides/${guide}.html`), guide).toBe(true);
    }
  });

  it('every internal link of every page resolves to a file of the site', () => {
    const pages = filesUnder(dist).filter((f) => f.endsWith('.html'));
    expect(pages.length).toBeGreaterThan(20);
    const broken: string[] = [];
    let checked = 0;
    for (const page of pages) {
      const html = readFileSync(page, 'utf8');
      for (const m of html.matchAll(/\s(?:href|src)="([^"]+)"/g)) {
        const href = m[1]!.replace(/&amp;/g, '&');
        if (/^(?:[a-z]+:|\/\/|#|data:)/i.test(href)) continue; // other sites, anchors on the page
        checked++;
        if (!existsSync(target(page, href))) broken.push(`${page.slice(dist.length)} → ${href}`);
      }
    }
    expect(checked).toBeGreaterThan(200);
    expect(broken).toEqual([]);
  });

  it('the API reference has a page for every public export of every package', () => {
    const program = ts.createProgram(
      PACKAGES.map((p) => `${root}packages/${p}/src/index.ts`),
      {
        target: ts.ScriptTarget.ES2022,
        module: ts.ModuleKind.ESNext,
        moduleResolution: ts.ModuleResolutionKind.Bundler,
        strict: true,
        skipLibCheck: true,
        noEmit: true,
      },
    );
    const checker = program.getTypeChecker();
    const reference = filesUnder(`${dist}/api`)
      .filter((f) => f.endsWith('.html'))
      .map((f) => readFileSync(f, 'utf8'))
      .join('\n');
    const missing: string[] = [];
    for (const pkg of PACKAGES) {
      const file = program.getSourceFile(`${root}packages/${pkg}/src/index.ts`)!;
      const symbol = checker.getSymbolAtLocation(file);
      for (const exported of symbol ? checker.getExportsOfModule(symbol) : []) {
        const name = exported.getName();
        if (!reference.includes(`>${name}<`)) missing.push(`@hookgate/${pkg}: ${name}`);
      }
    }
    expect(missing).toEqual([]);
  });
});

/** The stylesheets a page loads, resolved as a browser does (against its `<base href>` if any). */
function stylesheetsOf(html: string, pageUrl: string): string[] {
  const base = new URL(/<base href="([^"]+)"/.exec(html)?.[1] ?? '', pageUrl);
  return [...html.matchAll(/<link rel="stylesheet" href="([^"]+)"/g)].map((m) => new URL(m[1]!, base).href);
}

/** Checks the API reference served at `site`: the page and its CSS at `/api` and `/api/`, the links to the guides. */
async function checkApiReference(site: string): Promise<void> {
  for (const path of ['/api', '/api/', '/api/index.html']) {
    const page = await fetch(`${site}${path}`);
    expect(page.status, path).toBe(200);
    const html = await page.text();
    const sheets = stylesheetsOf(html, page.url);
    expect(sheets.length, path).toBeGreaterThan(0);
    for (const sheet of sheets) {
      const css = await fetch(sheet);
      expect(css.status, `${path} → ${sheet}`).toBe(200);
      expect(css.headers.get('content-type'), `${path} → ${sheet}`).toMatch(/text\/css/);
    }
    // The header links back to the guides, and they are pages of the site.
    const guides = [...html.matchAll(/<a href="(\/[^"]*)"[^>]*>Guides</g)].map((m) => m[1]!);
    expect(guides, path).toContain('/getting-started');
    expect((await fetch(new URL('/getting-started', site))).status).toBe(200);
  }
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('the built site, served', () => {
  it('by a plain static server (no trailing-slash redirect): the API reference keeps its styles and links to the guides', async () => {
    const { server, url } = await servePlainStatic(dist);
    try {
      await checkApiReference(url);
    } finally {
      server.close();
    }
  });

  it('by `pnpm docs:preview`', async () => {
    const scripts = JSON.parse(readFileSync(`${root}package.json`, 'utf8')).scripts as Record<string, string>;
    expect(scripts['docs:preview']).toBeDefined();
    const port = await freePort();
    const preview = spawn('npx', ['-y', 'pnpm@10', 'docs:preview', '--port', String(port), '--host', '127.0.0.1'], {
      cwd: root,
      detached: true,
      stdio: 'ignore',
    });
    const site = `http://127.0.0.1:${port}`;
    try {
      const deadline = Date.now() + 60_000;
      for (;;) {
        const up = await fetch(`${site}/`).then(
          (r) => r.ok,
          () => false,
        );
        if (up) break;
        if (Date.now() > deadline) throw new Error('docs:preview did not answer within 60 s');
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
      expect(await (await fetch(`${site}/getting-started`)).text()).toMatch(/Getting started/);
      await checkApiReference(site);
    } finally {
      if (preview.pid) process.kill(-preview.pid, 'SIGTERM');
    }
  }, 90_000);
});
