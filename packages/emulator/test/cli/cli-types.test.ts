// `hookgate types`: the module it writes from a Public API plan types a receiver's keyed handlers (tsc on a
// temporary project compiles good user code and refuses a misspelt property, a wrong type and an unknown
// event name), and at run time its precompiled validators check messages as the JSON plan would.
import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileTrackingPlan, createReceiver, fixture, toNodeListener } from '@hookgate/core';
import { runTypes } from '../../src/cli/command-types.js';
import { startHttpServer } from '../../../../test/helpers/servers.js';
import { sign } from '@hookgate/core';

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const PLAN = join(ROOT, 'test/fixtures/tracking-plans/public-api-rules.json');
const dir = join(ROOT, '.hookgate-tmp', `types-${process.pid}-${Date.now()}`);
const out = join(dir, 'src/tracking-plan.ts');

beforeAll(async () => {
  const write = process.stdout.write.bind(process.stdout);
  process.stdout.write = () => true;
  try {
    expect(await runTypes(['--plan', PLAN, '--out', out])).toBe(0);
  } finally {
    process.stdout.write = write;
  }
}, 60_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const GOOD = `import { createReceiver } from '@hookgate/core';
import { trackingPlan, type OrderCompleted } from './tracking-plan.js';

const total: number = ({} as OrderCompleted).properties.total;
createReceiver({
  secret: 's',
  trackingPlan,
  on: {
    track: {
      'Order Completed': (msg, ctx) => {
        const id: string = msg.properties.order_id;
        const sum: number = msg.properties.total;
        const currency: 'EUR' | 'USD' | undefined = msg.properties.currency;
        const first: string | undefined = msg.properties.products?.[0]?.product_id;
        const event: 'Order Completed' = msg.event;
        console.log(id, sum, currency, first, event, ctx.violations.length, ctx.planned, total);
      },
      'Signed Up': (msg) => console.log(msg.properties.plan === 'pro'),
      '*': (msg) => console.log(msg.event, msg.properties?.['anything']),
    },
    identify: (msg) => console.log(msg.traits.email.toLowerCase()),
    group: (msg) => console.log(msg.traits?.name),
  },
  onViolation: (msg, violations) => console.log(msg.type, violations[0]?.path),
});
`;

// Each line marked BAD must be an error; nothing else may be.
const BAD = `import { createReceiver } from '@hookgate/core';
import { trackingPlan } from './tracking-plan.js';

createReceiver({
  secret: 's',
  trackingPlan,
  on: {
    track: {
      'Order Completed': (msg) => {
        console.log(msg.properties.totl); // BAD misspelt property
        const wrong: string = msg.properties.total; // BAD wrong type
        console.log(wrong);
      },
      'Order Complete': () => {}, // BAD unknown event name
    },
    identify: (msg) => console.log(msg.traits.emial), // BAD misspelt trait
  },
});
`;

const run = promisify(execFile);

describe('hookgate types', () => {
  it('writes a module whose trackingPlan types keyed handlers: good code compiles, bad code does not', async () => {
    writeFileSync(join(dir, 'src/good.ts'), GOOD);
    writeFileSync(join(dir, 'src/bad.ts'), BAD);
    writeFileSync(
      join(dir, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          module: 'ESNext',
          moduleResolution: 'Bundler',
          lib: ['ES2023', 'DOM'],
          types: ['node'],
          typeRoots: [join(ROOT, 'node_modules/@types')],
          strict: true,
          noEmit: true,
          skipLibCheck: true,
          baseUrl: '.',
          paths: { '@hookgate/core': [join(ROOT, 'packages/core/src/index.ts')] },
        },
        include: ['src'],
      }),
    );
    const tsc = join(ROOT, 'node_modules/.bin/tsc');
    const output = await run(tsc, ['-p', 'tsconfig.json', '--pretty', 'false'], { cwd: dir }).then(
      (r) => r.stdout,
      (e: { stdout: string }) => e.stdout,
    );
    const errors = output.split('\n').filter((l) => /error TS/.test(l));
    expect(errors.filter((l) => !l.startsWith('src/bad.ts'))).toEqual([]);
    const badLines = BAD.split('\n').flatMap((l, i) => (l.includes('// BAD') ? [i + 1] : []));
    const errorLines = [...new Set(errors.map((l) => Number(/^src\/bad\.ts\((\d+),/.exec(l)?.[1])))].sort(
      (a, b) => a - b,
    );
    expect(errorLines).toEqual(badLines);
    expect(errors.join('\n')).toMatch(/'totl' does not exist/);
    expect(output).toMatch(/'Order Complete'+ does not exist/);
  }, 120_000);

  it('the module checks messages with its precompiled validators as the JSON plan does', async () => {
    const { trackingPlan } = (await import(out)) as { trackingPlan: { validators: unknown[] } };
    expect(trackingPlan.validators).toHaveLength(7);
    const fromModule = compileTrackingPlan(trackingPlan);
    const fromJson = compileTrackingPlan(JSON.parse(readFileSync(PLAN, 'utf8')));
    const messages = [
      fixture('track', { event: 'Order Completed', properties: { order_id: 7, currency: 'GBP' } }),
      fixture('track', { event: 'Order Completed', properties: { order_id: 'o', total: 1 } }),
      fixture('identify', { traits: { name: 'Ada', logins: 'x' } }),
      fixture('page', { properties: {} }),
    ];
    for (const m of messages) {
      const a = fromModule.check(m);
      const b = fromJson.check(m);
      expect(a.violations.map((v) => [v.path, v.keyword]).sort()).toEqual(
        b.violations.map((v) => [v.path, v.keyword]).sort(),
      );
      expect(a.violations.map((v) => v.message).sort()).toEqual(b.violations.map((v) => v.message).sort());
    }

    // And as a receiver's option, over real HTTP.
    const seen: string[] = [];
    const receiver = createReceiver({
      secret: 's',
      trackingPlan,
      on: {
        track: {
          '*': (msg, ctx) =>
            void seen.push(
              `${msg.event}:${ctx.violations
                .map((v) => v.path)
                .sort()
                .join()}`,
            ),
        },
      },
    });
    const listener = toNodeListener(receiver);
    const server = await startHttpServer((req, res) => void listener(req, res));
    try {
      const body = JSON.stringify(messages[0]);
      const r = await fetch(server.url, {
        method: 'POST',
        body,
        headers: { 'content-type': 'application/json', 'x-signature': sign(body, 's') },
      });
      expect(r.status).toBe(200);
    } finally {
      await server.close();
    }
    expect(seen).toEqual(['Order Completed:properties.currency,properties.order_id,properties.total']);
  });

  it('a malformed plan is a usage error naming the rule and path; no file is written', async () => {
    const bad = join(dir, 'bad-plan.json');
    writeFileSync(
      bad,
      JSON.stringify({ rules: [{ type: 'TRACK', key: 'A', version: 1, jsonSchema: { type: 'objekt' } }] }),
    );
    await expect(runTypes(['--plan', bad, '--out', join(dir, 'never.ts')])).rejects.toThrow(
      /rules\[0\] \(TRACK "A" v1\): jsonSchema.type/,
    );
    mkdirSync(dir, { recursive: true });
  });
});
