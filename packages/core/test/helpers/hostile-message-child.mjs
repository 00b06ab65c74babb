// Run as `node hostile-message-child.mjs <built core entry> <case>`: serves a receiver of that build on
// 127.0.0.1, sends the case's signed messages to it over HTTP, and prints one JSON line of what came
// back (statuses, codes, what the handlers saw). A process of its own: a crash or a hang is the parent's
// finding, not the end of its suite.
import http from 'node:http';

const [entry, name] = process.argv.slice(2);
const core = await import(entry);
const { createReceiver, toNodeListener, sign, fixture } = core;
// Plans are compiled by @hookgate/plans, of the same build as the core entry given.
const { compileTrackingPlan } = await import(entry.replace('/packages/core/', '/packages/plans/'));
const SECRET = 'whsec_hostile_child_5e1f';

async function serve(options) {
  const listener = toNodeListener(createReceiver({ secret: SECRET, logger: false, ...options }));
  const server = http.createServer((req, res) => void listener(req, res));
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${server.address().port}/`, close: () => server.close() };
}

async function post(url, text) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'user-agent': 'Segment.io/1.0', 'x-signature': sign(text, SECRET) },
    body: text,
  });
  const body = await res.json();
  return { status: res.status, code: body.code };
}

/** A signed track message's text with `properties` written as given (raw JSON text). */
const trackText = (event, propertiesText, messageId = `m-${name}`) =>
  JSON.stringify(fixture('track', { event, messageId, properties: { x: 1 } })).replace('{"x":1}', propertiesText);

const zeros = '0'.repeat(32_000);
/** About 128 KB of numbers `1.` + 32,000 zeros + `1` (each read as 1: changed by parsing). */
const longZeros = `{"a":1.${zeros}1,"b":[1.${zeros}1,-1.${zeros}1],"c":{"d":1.${zeros}1}}`;

/** Numbers the issue's list does not name: each with whether parsing changes it. */
const OTHERS = [
  [`-0.${zeros}`, false],
  [`0.${zeros}1e+32001`, false],
  [`0.${zeros}1e+32002`, false],
  [`1${zeros}1e-32001`, true],
  ['1e-999999', true],
  ['-1e999999', true],
  [`-0.${zeros}e+999999`, false],
  [`1${zeros}`, true],
  [`9${'9'.repeat(30_000)}.5`, true],
  [`1.${'0'.repeat(20_000)}e+20`, false],
  [`1.${'0'.repeat(120_000)}1`, true], // 27 s on main, twice over
];
const othersText = `{${OTHERS.map(([n], i) => `"n${i}":${n}`).join(',')}}`;

/** Thousands of changed numbers nested hundreds deep, among tens of thousands that are not. */
const deep = 500;
const crowd = `{"deep":${'['.repeat(deep)}${'12345678901234567890,1,2.5,'.repeat(3_000)}0${']'.repeat(deep)}}`;

/** A number parsing changes (2^53 + 1 is read as 2^53), thousands of times at the bottom of 10,000 levels. */
const CHANGED = '9007199254740993';
const LEVELS = 10_000;
const deepNumbers = `{"d":${'['.repeat(LEVELS)}${Array(5_000).fill(CHANGED).join(',')}${']'.repeat(LEVELS)}}`;
const flatNumbers = `{"f":[${Array(50_000).fill(CHANGED).join(',')}]}`;
/** 5,000 levels of an object (a key that is not a plain name) holding an array, each with one changed number. */
const mixedNumbers = `{"m":${Array.from({ length: 5_000 }, (_, i) => `{"k.${i}":[1,${CHANGED},`).join('')}0${']}'.repeat(5_000)}}`;
const DEEP_BODIES = [deepNumbers, flatNumbers, mixedNumbers];
/** The path ctx.lossyNumbers gives the mixed body's last number, written out here the plain way. */
const mixedLast = `properties.m${Array.from({ length: 4_999 }, (_, i) => `["k.${i}"][2]`).join('')}["k.4999"][1]`;

/** What a handler saw of the three bodies' changed-number paths: counts, and the paths at both ends. */
function deepPaths([deep, flat, mixed]) {
  return {
    deep: [
      deep.length,
      deep[0].length,
      deep[0].startsWith('properties.d[0][0][0]'),
      deep[4_999].endsWith('[0][0][4999]'),
    ],
    flat: [flat.length, flat[0], flat[49_999]],
    mixed: [mixed.length, mixed[0], mixed[4_999] === mixedLast],
  };
}

/** Whether every changed number of the three bodies came as its exact digits, a string. */
function deepDigits([deep, flat, mixed]) {
  let inner = deep.d;
  while (Array.isArray(inner[0])) inner = inner[0];
  let holder = mixed.m;
  let mixedStrings = 0;
  for (let i = 0; i < 5_000; i++) {
    const array = holder[`k.${i}`];
    if (array[1] === CHANGED) mixedStrings++;
    holder = array[2];
  }
  return [inner.filter((n) => n === CHANGED).length, flat.f.filter((n) => n === CHANGED).length, mixedStrings];
}

const cases = {
  async 'numbers-enqueue'() {
    const stored = [];
    // As enqueueTo does: the handoff's lossyNumbers go into the job.
    const srv = await serve({ enqueue: (handoff) => void stored.push(...handoff.lossyNumbers) });
    const answer = await post(srv.url, trackText('Numbers', longZeros));
    srv.close();
    return { answer, stored };
  },
  async 'numbers-lossy'() {
    let seen;
    const srv = await serve({ on: { track: (_m, ctx) => void (seen = ctx.lossyNumbers) } });
    const answers = [await post(srv.url, trackText('Numbers', longZeros))];
    answers.push(await post(srv.url, trackText('Numbers', othersText, 'm-others')));
    const others = seen;
    answers.push(await post(srv.url, trackText('Numbers', crowd, 'm-crowd')));
    srv.close();
    return { answers, others, crowd: seen.length };
  },
  async 'numbers-string'() {
    let seen;
    const srv = await serve({ bigNumbers: 'string', on: { track: (m) => void (seen = m.properties) } });
    const answer = await post(srv.url, trackText('Numbers', longZeros));
    srv.close();
    return { answer, kinds: [typeof seen.a, typeof seen.b[0], seen.c.d.length] };
  },
  async 'numbers-deep-lossy'() {
    const seen = [];
    const srv = await serve({ on: { track: (_m, ctx) => void seen.push(ctx.lossyNumbers) } });
    const answers = [];
    for (const [i, body] of DEEP_BODIES.entries()) answers.push(await post(srv.url, trackText('Deep', body, `dl${i}`)));
    srv.close();
    return { answers, ...deepPaths(seen) };
  },
  async 'numbers-deep-string'() {
    const seen = [];
    const srv = await serve({ bigNumbers: 'string', on: { track: (m) => void seen.push(m.properties) } });
    const answers = [];
    for (const [i, body] of DEEP_BODIES.entries()) answers.push(await post(srv.url, trackText('Deep', body, `ds${i}`)));
    srv.close();
    return { answers, strings: deepDigits(seen) };
  },
  async 'numbers-deep-plan'() {
    // 20,000 changed numbers 10,000 levels deep against a plan with bigNumbers: 'string': exact numbers deeper
    // than a check can go are left out before their keys are made (each made its 10,000 keys).
    const plan = compileTrackingPlan([
      { type: 'TRACK', key: 'Deep', version: 1, jsonSchema: { properties: { properties: { type: 'object' } } } },
    ]);
    const seen = [];
    const srv = await serve({
      bigNumbers: 'string',
      trackingPlan: plan,
      on: { track: (m) => void seen.push(m.properties) },
    });
    const body = `{"d":${'['.repeat(LEVELS)}${Array(20_000).fill(CHANGED).join(',')}${']'.repeat(LEVELS)}}`;
    const answers = [await post(srv.url, trackText('Deep', body, 'dp'))];
    srv.close();
    let inner = seen[0].d;
    while (Array.isArray(inner[0])) inner = inner[0];
    return { answers, strings: [inner.filter((n) => n === CHANGED).length] };
  },
  async 'numbers-deep-enqueue'() {
    const stored = [];
    // As enqueueTo does: the handoff's lossyNumbers go into the job.
    const srv = await serve({ enqueue: (handoff) => void stored.push([...handoff.lossyNumbers]) });
    const answers = [];
    for (const [i, body] of DEEP_BODIES.entries()) answers.push(await post(srv.url, trackText('Deep', body, `de${i}`)));
    srv.close();
    return { answers, ...deepPaths(stored) };
  },
  async 'numbers-plan'() {
    // 20,000 numbers one above the plan's maximum, kept as digits: a double reads each as the maximum itself.
    const plan = [
      {
        type: 'TRACK',
        key: 'Big',
        version: 1,
        jsonSchema: {
          properties: {
            properties: {
              properties: { a: { type: 'array', items: { type: 'integer', maximum: 12345678901234567000 } } },
            },
          },
        },
      },
    ];
    let seen;
    const srv = await serve({
      bigNumbers: 'string',
      // Limits raised past the cost bound and the violation cap: what is measured is the exact numbers' pass.
      trackingPlan: compileTrackingPlan(plan, { limits: { maxCheckCost: 1e12, maxViolations: 100_000 } }),
      on: { track: (_m, ctx) => void (seen = ctx.violations) },
    });
    const numbers = `{"a":[${Array(20_000).fill('12345678901234567891').join(',')}]}`;
    const answer = await post(srv.url, trackText('Big', numbers));
    srv.close();
    return { answer, violations: seen.length, first: seen[0], last: seen.at(-1).path };
  },
  async 'plan-throws'() {
    // The constructs that made a check throw (recursive $ref over data 10,000 deep, $id inside a subschema)
    // are bounded or refused at start now; a check that still throws must stay a violation naming it. This
    // plan's check throws as they did: a stack overflow, and a validator's own error.
    const rule = (key) => ({
      type: 'TRACK',
      key,
      version: 1,
      jsonSchema: { properties: { properties: { type: 'object' } } },
    });
    const compiled = compileTrackingPlan([rule('Tree'), rule('Scoped')]);
    const overflow = (depth) => overflow(depth + 1) + 1;
    const failing = () => {
      throw new Error("can't resolve reference #/definitions/d");
    };
    // A compiled plan is taken as it is.
    const plan = { ...compiled, check: (m) => (m.event === 'Tree' ? overflow(0) : failing()) };
    const tree = `${'{"c":'.repeat(10_000)}{}${'}'.repeat(10_000)}`;
    const ran = [];
    const onViolation = [];
    const srv = await serve({
      trackingPlan: plan,
      on: { track: (m, ctx) => void ran.push([m.event, ctx.violations]) },
    });
    const answers = [
      await post(srv.url, trackText('Tree', tree, 't1')),
      await post(srv.url, trackText('Scoped', '{"a":1}', 's1')),
    ];
    srv.close();
    const srv2 = await serve({
      trackingPlan: plan,
      on: { track: () => ran.push('the handler, not onViolation') },
      onViolation: (m, violations) => void onViolation.push([m.event, violations]),
    });
    answers.push(
      await post(srv2.url, trackText('Tree', tree, 't2')),
      await post(srv2.url, trackText('Scoped', '{"a":1}', 's2')),
    );
    srv2.close();
    return { answers, ran, onViolation };
  },
  async duplicate() {
    const compiled = compileTrackingPlan([
      { type: 'TRACK', key: 'Paid', version: 1, jsonSchema: { properties: { properties: { required: ['total'] } } } },
    ]);
    let checks = 0;
    // A compiled plan is taken as it is: this one counts its checks.
    const counted = { ...compiled, check: (m, exact) => (checks++, compiled.check(m, exact)) };
    const handled = [];
    const srv = await serve({
      trackingPlan: counted,
      on: { track: (m) => void handled.push(m.messageId) },
      onViolation: (m) => void handled.push(`violation ${m.messageId}`),
    });
    const text = trackText('Paid', '{"note":"no total"}', 'd1');
    const answers = [await post(srv.url, text), await post(srv.url, text)];
    const afterResend = checks;
    srv.close();
    // Webhooks (Actions) batches: only elements not handled before are checked.
    const elements = ['b1', 'b2'].map((messageId) => ({
      type: 'track',
      event: 'Paid',
      messageId,
      userId: 'u',
      timestamp: '2026-12-08T00:00:00.000Z',
      receivedAt: '2026-12-08T00:00:00.000Z',
      properties: {},
    }));
    const batchSrv = await serve({
      destination: 'actions',
      insecureAcceptBatches: true,
      trackingPlan: counted,
      on: { track: (m) => void handled.push(m.messageId) },
      onViolation: (m) => void handled.push(`violation ${m.messageId}`),
    });
    const before = checks;
    const first = JSON.stringify([elements[0]]);
    const both = JSON.stringify(elements);
    const postBatch = async (text, list) => {
      const res = await fetch(batchSrv.url, {
        method: 'POST',
        // A batch's signature covers its first element's JSON.stringify only (Segment's Actions code).
        headers: { 'content-type': 'application/json', 'x-signature': sign(JSON.stringify(list[0]), SECRET) },
        body: text,
      });
      return { status: res.status, code: (await res.json()).code };
    };
    answers.push(
      await postBatch(first, [elements[0]]),
      await postBatch(first, [elements[0]]),
      await postBatch(both, elements),
    );
    batchSrv.close();
    return { answers, afterResend, batchChecks: checks - before, handled };
  },
};

const started = performance.now();
const result = await cases[name]();
console.log(JSON.stringify({ ...result, ms: Math.round(performance.now() - started) }));
