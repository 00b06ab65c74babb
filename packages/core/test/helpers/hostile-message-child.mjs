// Run as `node hostile-message-child.mjs <built core entry> <case>`: serves a receiver of that build on
// 127.0.0.1, sends the case's signed messages to it over HTTP, and prints one JSON line of what came
// back (statuses, codes, what the handlers saw). A process of its own: a crash or a hang is the parent's
// finding, not the end of its suite.
import http from 'node:http';

const [entry, name] = process.argv.slice(2);
const core = await import(entry);
const { createReceiver, toNodeListener, sign, fixture, compileTrackingPlan } = core;
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
      trackingPlan: plan,
      on: { track: (_m, ctx) => void (seen = ctx.violations) },
    });
    const numbers = `{"a":[${Array(20_000).fill('12345678901234567891').join(',')}]}`;
    const answer = await post(srv.url, trackText('Big', numbers));
    srv.close();
    return { answer, violations: seen.length, first: seen[0], last: seen.at(-1).path };
  },
  async 'plan-throws'() {
    const rule = (key, jsonSchema) => ({ type: 'TRACK', key, version: 1, jsonSchema });
    const plan = [
      // recursive $ref over data nested 10,000 deep: the validator's recursion overflows the stack
      rule('Tree', {
        definitions: { node: { type: 'object', properties: { c: { $ref: '#/definitions/node' } } } },
        properties: { properties: { $ref: '#/definitions/node' } },
      }),
      // $id inside a subschema: its $ref no longer resolves, and the validator throws at the first message
      rule('Scoped', {
        definitions: { d: { type: 'string' } },
        properties: { properties: { $id: 'http://example.com/p', properties: { a: { $ref: '#/definitions/d' } } } },
      }),
    ];
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
