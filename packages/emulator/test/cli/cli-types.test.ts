// `hookgate types`: the module it writes from a Public API plan types a receiver's keyed handlers (tsc on a
// temporary project compiles good user code and refuses a misspelt property, a wrong type and an unknown
// event name; through core, Express, Fastify's hookgateOptions, Hono and BullMQ's createWorker, Classic
// and whole-event Actions), and at
// run time its precompiled validators check messages as the JSON plan would.
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

// The same module through every adapter and the BullMQ worker: good code compiles, each BAD line does not.
const ADAPTERS_GOOD = `import { createReceiver } from '@hookgate/core';
import { hookgate as expressHookgate } from '@hookgate/express';
import { hookgateOptions } from '@hookgate/fastify';
import { hookgate as honoHookgate } from '@hookgate/hono';
import { createWorker } from '@hookgate/bullmq';
import { trackingPlan } from './tracking-plan.js';

const track = {
  'Order Completed': (msg: { properties: { total: number } }) => console.log(msg.properties.total.toFixed(2)),
};
expressHookgate({
  secret: 's',
  trackingPlan,
  on: { track: { 'Order Completed': (msg, ctx) => console.log(msg.properties.total.toFixed(2), ctx.req.path, ctx.violations) } },
});
hookgateOptions({
  secret: 's',
  trackingPlan,
  on: { track: { 'Order Completed': (msg, ctx) => console.log(msg.properties.order_id, ctx.request.id, ctx.planned) } },
});
honoHookgate({
  secret: 's',
  trackingPlan,
  on: { track, identify: (msg, ctx) => console.log(msg.traits.email, ctx.c.req.path) },
});
createWorker('q', {
  connection: {},
  trackingPlan,
  on: { track: { 'Order Completed': (msg, ctx) => console.log(msg.properties.total.toFixed(2), ctx.dedupeKey, ctx.violations) } },
});
createReceiver({
  destination: 'actions',
  secret: 's',
  trackingPlan,
  on: {
    track: { 'Order Completed': (event, ctx) => console.log(event.properties.total.toFixed(2), event.messageId, ctx.batch?.index) },
    identify: (event) => console.log(event.traits.email, event.receivedAt),
  },
  onViolation: (event, violations, ctx) => console.log(event.type, violations.length, ctx.batch?.size),
});
expressHookgate({
  destination: 'actions',
  secret: 's',
  trackingPlan,
  on: { track: { 'Signed Up': (event, ctx) => console.log(event.properties.plan, ctx.req.path, ctx.planned) } },
});
createWorker('q', {
  destination: 'actions',
  connection: {},
  trackingPlan,
  on: { track: { 'Order Completed': (event, ctx) => console.log(event.properties.total.toFixed(2), event.messageId, ctx.attempt) } },
});
`;

const ADAPTERS_BAD = `import { createReceiver } from '@hookgate/core';
import { hookgate as expressHookgate } from '@hookgate/express';
import { hookgateOptions } from '@hookgate/fastify';
import { hookgate as honoHookgate } from '@hookgate/hono';
import { createWorker } from '@hookgate/bullmq';
import { trackingPlan } from './tracking-plan.js';

expressHookgate({
  secret: 's',
  trackingPlan,
  on: { track: { 'Order Completed': (msg) => console.log(msg.properties.totl) } }, // BAD misspelt property
});
hookgateOptions({
  secret: 's',
  trackingPlan,
  on: { track: { 'Order Complete': () => {} } }, // BAD unknown event name
});
honoHookgate({
  secret: 's',
  trackingPlan,
  on: { identify: (msg) => console.log(msg.traits.emial) }, // BAD misspelt trait
});
createWorker('q', {
  connection: {},
  trackingPlan,
  on: { track: { 'Order Completed': (msg) => console.log(msg.properties.totl) } }, // BAD misspelt property
});
createReceiver({
  destination: 'actions',
  secret: 's',
  trackingPlan,
  on: { track: { 'Order Completed': (event) => console.log(event.properties.totl) } }, // BAD misspelt property
});
expressHookgate({
  destination: 'actions',
  secret: 's',
  trackingPlan,
  on: { track: { 'Signed Upp': () => {} } }, // BAD unknown event name
});
createWorker('q', {
  destination: 'actions',
  connection: {},
  trackingPlan,
  on: { track: { 'Order Completed': (event) => console.log(event.properties.totl) } }, // BAD misspelt property
});
`;

/** Each workspace package's sources, as the temporary project imports them. */
const PATHS = Object.fromEntries(
  ['core', 'express', 'fastify', 'hono', 'bullmq'].flatMap((name) => [
    [`@hookgate/${name}`, [join(ROOT, `packages/${name}/src/index.ts`)]],
    [`@hookgate/${name}/*`, [join(ROOT, `packages/${name}/src/*.ts`)]],
  ]),
);

const run = promisify(execFile);

describe('hookgate types', () => {
  it('writes a module whose trackingPlan types keyed handlers: good code compiles, bad code does not', async () => {
    writeFileSync(join(dir, 'src/good.ts'), GOOD);
    writeFileSync(join(dir, 'src/bad.ts'), BAD);
    writeFileSync(join(dir, 'src/adapters-good.ts'), ADAPTERS_GOOD);
    writeFileSync(join(dir, 'src/adapters-bad.ts'), ADAPTERS_BAD);
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
          paths: PATHS,
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
    expect(errors.filter((l) => !l.startsWith('src/bad.ts') && !l.startsWith('src/adapters-bad.ts'))).toEqual([]);
    for (const [file, text] of [
      ['bad.ts', BAD],
      ['adapters-bad.ts', ADAPTERS_BAD],
    ] as const) {
      const badLines = text.split('\n').flatMap((l, i) => (l.includes('// BAD') ? [i + 1] : []));
      const lineOf = (l: string) => (l.startsWith(`src/${file}(`) ? Number(/\((\d+),/.exec(l)?.[1]) : NaN);
      const errorLines = [...new Set(errors.map(lineOf).filter((n) => !Number.isNaN(n)))].sort((a, b) => a - b);
      expect(errorLines, file).toEqual(badLines);
    }
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

  it('the module runs its patterns on RE2: ^(a+)+$ against 10 KB in milliseconds, refs across the rule typed', async () => {
    const corpus = join(ROOT, 'test/fixtures/tracking-plans/corpus');
    const patterns = join(dir, 'src/linear-patterns.ts');
    const refs = join(dir, 'src/local-refs.ts');
    const write = process.stdout.write.bind(process.stdout);
    process.stdout.write = () => true;
    try {
      expect(await runTypes(['--plan', join(corpus, 'good-linear-patterns.json'), '--out', patterns])).toBe(0);
      expect(await runTypes(['--plan', join(corpus, 'good-local-refs.json'), '--out', refs])).toBe(0);
    } finally {
      process.stdout.write = write;
    }
    const text = readFileSync(patterns, 'utf8');
    expect(text).toContain(
      "import { linearRegExp as hookgateLinearRegExp, isMultipleOf as hookgateIsMultipleOf } from '@hookgate/core';",
    );
    expect(text).not.toMatch(/new RegExp\(/);
    const { trackingPlan } = (await import(patterns)) as { trackingPlan: unknown };
    const plan = compileTrackingPlan(trackingPlan);
    const hostile = fixture('track', { event: 'Signed Up', properties: { code: `${'a'.repeat(10 * 1024)}!` } });
    plan.check(fixture('track', { event: 'Signed Up', properties: { code: 'a' } })); // warmed
    const start = process.cpuUsage();
    expect(plan.check(hostile).violations.map((v) => v.path)).toEqual(['properties.code']);
    const used = process.cpuUsage(start);
    expect((used.user + used.system) / 1000).toBeLessThan(50);
    // #/properties/properties, recursive: a named type that refers to itself.
    expect(readFileSync(refs, 'utf8')).toMatch(/export interface (\w+) \{\s*parent\?: \1;/);
  }, 60_000);
});
