// A receiver with a tracking plan of 200 events against the same receiver without one: the whole of
// receiver.handle() (status table, HMAC verification of the raw bytes, JSON parse, message check, the plan's
// check, a handler), awaited, in-process, so the ratio is stricter than over HTTP (no socket work to hide
// in). Three plans: the module `hookgate types` writes (validators precompiled by Ajv), the plan's JSON as
// read by @hookgate/plans' Node build (dist/node/: each rule compiled by Ajv at start; core and plans are
// bundled here as tsup builds them), and the plan's JSON in the runtime-neutral builds (dist/index.js, what
// Workers import: checked by @cfworker/json-schema's interpreter, no code generation: reported without a
// bar). The neutral builds are imported by their paths: on Node, the packages resolve to their Node builds.
// Bar: each Node row ÷ without ≥ 0.9.
// Run: node --import tsx bench/run.ts tracking-plan   (or directly: node --import tsx bench/tracking-plan.ts)
import { spawnSync } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type * as Core from '@hookgate/core';
import type * as Plans from '@hookgate/plans';
import { fixture, type Receiver, type ReceiverInput } from '@hookgate/core';
import { bundlePlans } from '../packages/plans/test/helpers/bundle.js';
import { fmt, median, printReport, type BenchReport } from './lib.js';

const SECRET = 'whsec_bench_plan_71c2';
const ROOT = fileURLToPath(new URL('../', import.meta.url));

/** A plan of 200 track events in the Public API's shape: the fixture's "Order Completed" v2 rule, renamed. */
function planOf200(): { rules: unknown[] } {
  const file = JSON.parse(readFileSync(join(ROOT, 'test/fixtures/tracking-plans/public-api-rules.json'), 'utf8')) as {
    data: { rules: Array<{ type: string; key: string | null; version: number }> };
  };
  const order = file.data.rules.find((r) => r.key === 'Order Completed' && r.version === 2)!;
  const others = file.data.rules.filter((r) => r.type !== 'TRACK');
  const events = Array.from({ length: 199 }, (_, i) => ({ ...order, key: `Event ${i + 1}` }));
  return { rules: [...others, order, ...events] };
}

/** The module `hookgate types` writes for `plan`, imported. */
async function generatedModule(plan: unknown): Promise<{ trackingPlan: unknown; cleanup: () => void }> {
  const dir = mkdtempSync(join(tmpdir(), 'hookgate-bench-plan-'));
  writeFileSync(join(dir, 'plan.json'), JSON.stringify(plan));
  const out = join(dir, 'tracking-plan.ts');
  const run = spawnSync(
    process.execPath,
    [
      '--import',
      'tsx',
      join(ROOT, 'packages/emulator/src/cli.ts'),
      'types',
      '--plan',
      join(dir, 'plan.json'),
      '--out',
      out,
    ],
    { cwd: ROOT, encoding: 'utf8' },
  );
  if (run.status !== 0) throw new Error(`hookgate types failed: ${run.stderr}`);
  const mod = (await import(pathToFileURL(out).href)) as { trackingPlan: unknown };
  return { trackingPlan: mod.trackingPlan, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

function input(): ReceiverInput {
  const message = fixture('track', {
    event: 'Order Completed',
    messageId: 'api-2Vx1Wq8ZpQm7Lr4Tn9Yk3Hs6Jd0',
    context: { ip: '203.0.113.9', library: { name: 'analytics-go', version: '2.0.0' } },
    properties: {
      order_id: 'ord_77',
      total: 42.5,
      currency: 'EUR',
      products: [
        { product_id: 'p1', price: 20 },
        { product_id: 'p2', price: 22.5 },
      ],
    },
  });
  const raw = Buffer.from(JSON.stringify(message));
  const headers = {
    'content-type': 'application/json',
    'content-length': String(raw.length),
    'x-signature': createHmac('sha1', SECRET).update(raw).digest('hex'),
  };
  return { method: 'POST', headers, rawBody: raw };
}

async function rate(receiver: Receiver, request: ReceiverInput, ms: number): Promise<number> {
  let n = 0;
  const start = performance.now();
  let now = start;
  while (now - start < ms) {
    for (let i = 0; i < 50; i++) {
      const answer = await receiver.handle(request);
      if (answer.status !== 200) throw new Error(`bench setup: answered ${answer.status} ${answer.body}`);
    }
    n += 50;
    now = performance.now();
  }
  return (n * 1000) / (now - start);
}

/** Interleaved rounds (the order alternates); medians of the rates and of the per-round ratios. */
async function compare(a: Receiver, b: Receiver, request: ReceiverInput, rounds = 15, ms = 200) {
  await rate(a, request, ms);
  await rate(b, request, ms);
  const ra: number[] = [];
  const rb: number[] = [];
  const ratios: number[] = [];
  for (let i = 0; i < rounds; i++) {
    let x: number;
    let y: number;
    if (i % 2 === 0) {
      x = await rate(a, request, ms);
      y = await rate(b, request, ms);
    } else {
      y = await rate(b, request, ms);
      x = await rate(a, request, ms);
    }
    ra.push(x);
    rb.push(y);
    ratios.push(x / y);
  }
  return { ops: median(ra), baselineOps: median(rb), ratio: median(ratios) };
}

export default async function bench(): Promise<BenchReport> {
  const plan = planOf200();
  const generated = await generatedModule(plan);
  const nodeBuild = await bundlePlans('node');
  try {
    type Both = typeof Core & typeof Plans;
    const nodeCore = (await import(pathToFileURL(nodeBuild.file).href)) as Both;
    const neutralCore = {
      ...((await import(pathToFileURL(join(ROOT, 'packages/core/dist/index.js')).href)) as typeof Core),
      ...((await import(pathToFileURL(join(ROOT, 'packages/plans/dist/index.js')).href)) as typeof Plans),
    };
    let violations = 0;
    const make = (core: Both, trackingPlan?: unknown) =>
      core.createReceiver({
        secret: SECRET,
        dedupe: false,
        ...(trackingPlan !== undefined && { trackingPlan: core.compileTrackingPlan(trackingPlan) }),
        on: { track: (_msg, ctx) => void (violations += ctx.violations?.length ?? 0) },
      });
    const request = input();
    const nodeWithout = make(nodeCore);
    const a = await compare(make(nodeCore, generated.trackingPlan), nodeWithout, request);
    const b = await compare(make(nodeCore, plan), nodeWithout, request);
    const c = await compare(make(neutralCore, plan), make(neutralCore), request);
    if (violations !== 0) throw new Error('bench setup: the message should be valid');
    const moduleName = 'receiver.handle with a 200-event plan (hookgate types module) ÷ without';
    const jsonName = 'receiver.handle with a 200-event plan (JSON, Node build: Ajv) ÷ without';
    const neutralName = 'receiver.handle with a 200-event plan (JSON, neutral build: interpreted) ÷ without';
    const row = (name: string, r: { ops: number; baselineOps: number; ratio: number }) => ({
      case: name,
      'with plan ops/s': fmt(r.ops),
      'without ops/s': fmt(r.baselineOps),
      ratio: fmt(r.ratio, 2),
    });
    return {
      title: 'Tracking plan: receiver with a 200-event plan vs without (in-process handle, awaited, medians)',
      rows: [
        row('generated module (Ajv precompiled), Node build', a),
        row('plan JSON, Node build (Ajv at start)', b),
        row('plan JSON, neutral build (@cfworker/json-schema)', c),
      ],
      ratios: { [moduleName]: a.ratio, [jsonName]: b.ratio, [neutralName]: c.ratio },
      bars: { [moduleName]: 0.9, [jsonName]: 0.9 },
      notes: ['the message: "Order Completed" with 4 properties and 2 products, valid against its rule'],
    };
  } finally {
    generated.cleanup();
    nodeBuild.remove();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) printReport(await bench());
