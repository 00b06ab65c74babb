// Every package builds to ESM + CJS + types with an exports map publint accepts, and loads both ways.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { publint } from 'publint';
import { formatMessage } from 'publint/utils';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const PACKAGES = ['core', 'plans', 'express', 'fastify', 'hono', 'emulator', 'client', 'redis', 'bullmq'] as const;

describe.each(PACKAGES)('@hookgate/%s package', (name) => {
  const dir = `${root}packages/${name}`;
  const pkg = JSON.parse(readFileSync(`${dir}/package.json`, 'utf8'));

  it('declares Node ≥ 20.12 (test/runtimes/node-floor.test.ts checks it), side effects, a README and an exports map with import, require and types', () => {
    expect(pkg.engines?.node).toBe('>=20.12.0');
    expect(pkg.sideEffects).toBe(false);
    expect(existsSync(`${dir}/README.md`)).toBe(true);
    const dot = pkg.exports['.'];
    expect(dot.import.types).toMatch(/\.d\.ts$/);
    expect(dot.require.types).toMatch(/\.d\.cts$/);
    for (const file of [dot.import.default, dot.import.types, dot.require.default, dot.require.types]) {
      expect(existsSync(`${dir}/${file}`), `${file} is built`).toBe(true);
    }
  });

  it('passes publint with no errors or warnings', async () => {
    const { messages, pkg: read } = await publint({ pkgDir: dir, strict: true, level: 'warning', pack: 'npm' });
    const lines = messages.map((m) => `${m.type}: ${formatMessage(m, read)}`);
    expect(lines).toEqual([]);
  });

  it('loads as ESM and as CommonJS from its built output', () => {
    const esm = execFileSync(
      process.execPath,
      ['--input-type=module', '-e', `const m = await import('@hookgate/${name}'); console.log(Object.keys(m).length)`],
      { cwd: root, encoding: 'utf8' },
    );
    const cjs = execFileSync(
      process.execPath,
      ['-e', `console.log(Object.keys(require('@hookgate/${name}')).length)`],
      { cwd: root, encoding: 'utf8' },
    );
    expect(Number(esm)).toBeGreaterThan(0);
    expect(Number(cjs)).toBe(Number(esm));
  });
});
