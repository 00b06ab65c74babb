// The docs site, built as users build it (`pnpm docs:build`: TypeDoc's API reference, then
// VitePress, whose own check refuses a dead link between pages), then read back: every link
// between pages, to an asset or into the API reference resolves to a file of the output, and every
// public export of every package has its page in the API reference.
import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { beforeAll, describe, expect, it } from 'vitest';

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
