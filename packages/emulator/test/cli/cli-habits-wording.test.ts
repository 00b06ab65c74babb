// What users read: no internal word ("seed", "§") in any README, doc page, built bundle (string
// literals survive the build, comments do not), inspector asset or CLI output; and every
// `hookgate <command> --flag` that the docs tell people to type names a flag that exists (run).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { requireBuiltCli, runCli } from '../helpers/cli-process.js';

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const INTERNAL = /\bseed\b|\bseed's\b|§/i;
const COMMANDS = ['serve', 'send', 'fixtures', 'sign', 'replay', 'listen', 'conformance', 'types'];

function files(dir: string, keep: (name: string) => boolean): string[] {
  const out: string[] = [];
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch {
    return out;
  }
  for (const name of entries) {
    if (name === 'node_modules' || name.startsWith('.')) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...files(path, keep));
    else if (keep(name)) out.push(path);
  }
  return out;
}

/** Every README and doc page users read. */
function docs(): string[] {
  const packages = readdirSync(join(ROOT, 'packages')).map((p) => join(ROOT, 'packages', p, 'README.md'));
  const examples = readdirSync(join(ROOT, 'examples')).map((e) => join(ROOT, 'examples', e, 'README.md'));
  return [
    join(ROOT, 'README.md'),
    ...packages,
    ...examples,
    ...files(join(ROOT, 'docs'), (n) => n.endsWith('.md')),
  ].filter((p) => {
    try {
      return statSync(p).isFile();
    } catch {
      return false;
    }
  });
}

/** Lines of `text` with an internal word, as `path:line: text`. */
function offenders(path: string, text: string): string[] {
  return text
    .split('\n')
    .map((line, i) => [line, i + 1] as const)
    .filter(([line]) => INTERNAL.test(line))
    .map(([line, n]) => `${path.slice(ROOT.length)}:${n}: ${line.trim().slice(0, 160)}`);
}

beforeAll(() => requireBuiltCli());

describe('no internal words in what users read', () => {
  it('READMEs and docs', () => {
    const found = docs().flatMap((p) => offenders(p, readFileSync(p, 'utf8')));
    expect(found).toEqual([]);
  });

  it('built bundles and inspector assets (the strings of errors, answers and the page)', () => {
    const built = [
      ...files(join(ROOT, 'packages/core/dist'), (n) => /\.(c?js)$/.test(n)),
      ...files(join(ROOT, 'packages/emulator/dist'), (n) => /\.(c?js|html|css)$/.test(n)),
    ];
    expect(built.length).toBeGreaterThan(3);
    const found = built.flatMap((p) => offenders(p, readFileSync(p, 'utf8')));
    expect(found).toEqual([]);
  });

  it('CLI output: every help, and the usage errors', async () => {
    const runs = [
      ['--help'],
      ...COMMANDS.map((c) => [c, '--help']),
      [
        'serve',
        '--endpoint',
        'http://127.0.0.1:1/',
        '--endpoint',
        'http://127.0.0.1:2/',
        '--endpoint',
        'http://127.0.0.1:3/',
        '--endpoint',
        'http://127.0.0.1:4/',
        '--endpoint',
        'http://127.0.0.1:5/',
        '--endpoint',
        'http://127.0.0.1:6/',
      ],
      [
        'serve',
        '--endpoint',
        'http://127.0.0.1:1/',
        ...Array.from({ length: 6 }, (_, i) => ['--header', `X-H${i}: v`]).flat(),
      ],
      ['fixtures', 'nope'],
    ];
    for (const args of runs) {
      const r = await runCli(args);
      expect(offenders(`hookgate ${args.join(' ')}`, `${r.stdout}\n${r.stderr}`)).toEqual([]);
    }
  }, 60_000);
});

describe('every flag the docs tell people to type exists', () => {
  it('each `hookgate <command> … --flag` in a README or doc page runs on that command', async () => {
    const named = new Map<string, Set<string>>(COMMANDS.map((c) => [c, new Set()]));
    for (const path of docs()) {
      for (const m of readFileSync(path, 'utf8').matchAll(
        /hookgate (serve|send|fixtures|sign|replay|listen|conformance|types)\b([^|`)\n]*)/g,
      )) {
        for (const f of m[2]!.matchAll(/(?<![\w-])--([a-z][a-z0-9-]*)/g)) named.get(m[1]!)!.add(f[1]!);
      }
    }
    expect([...named.values()].reduce((n, s) => n + s.size, 0)).toBeGreaterThan(5);
    for (const [command, flags] of named) {
      for (const flag of flags) {
        const r = await runCli([command, '--help', `--${flag}=x`]);
        const bare = r.code === 0 ? r : await runCli([command, '--help', `--${flag}`]);
        expect(`hookgate ${command} --${flag}: ${bare.stderr}`).not.toMatch(/unknown option/);
        expect(bare.code, `hookgate ${command} --${flag}`).toBe(0);
      }
    }
  }, 120_000);
});
