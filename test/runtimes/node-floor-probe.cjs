// Run by node-floor.test.ts under another Node binary: loads the BUILT packages the way a user's
// program does — `node test/runtimes/node-floor-probe.cjs import` (ESM: `import()`, the `import`
// conditions) or `… require` (CommonJS) — exercises core's sync signatures and receiver, and prints
// one JSON line with what happened. Plain CommonJS, so it runs on every Node version unchanged.
'use strict';

const mode = process.argv[2];
const SECRET = 'whsec_floor_probe';
// eslint-disable-next-line @typescript-eslint/no-require-imports -- a CommonJS probe: loading through require is what it checks
const load = (name) => (mode === 'require' ? Promise.resolve(require(name)) : import(name));

async function main() {
  const out = { mode, node: process.version, hasGetBuiltinModule: typeof process.getBuiltinModule === 'function' };
  const core = await load('@hookgate/core');
  const body = JSON.stringify({ ...core.fixtures.track, messageId: `floor-${mode}-${process.version}` });
  out.body = body;
  try {
    out.sign = core.sign(body, SECRET);
  } catch (error) {
    out.sign = `threw: ${error.message}`;
  }
  try {
    out.verify = core.verify({ signature: out.sign, secret: SECRET, rawBody: body });
    out.verifyWrong = core.verify({ signature: out.sign, secret: 'not-the-secret', rawBody: body }).ok;
  } catch (error) {
    out.verify = `threw: ${error.message}`;
  }
  out.signAsync = await core.signAsync(body, SECRET);

  // The receiver's own status table over its Fetch handler: signed, duplicate, wrong, missing, oversize.
  let handled = 0;
  const receiver = core.createReceiver({ secret: SECRET, maxBodyBytes: 2048, onMessage: () => void handled++ });
  const post = (payload, signature) =>
    new Request('http://127.0.0.1/webhooks', {
      method: 'POST',
      body: payload,
      headers: { 'content-type': 'application/json', ...(signature ? { 'x-signature': signature } : {}) },
    });
  const answer = async (request) => {
    const response = await receiver.fetch(request);
    return `${response.status} ${(await response.json()).code}`;
  };
  const big = JSON.stringify({ ...core.fixtures.track, properties: { pad: 'x'.repeat(4096) } });
  out.receiver = [
    await answer(post(body, out.sign)),
    await answer(post(body, out.sign)),
    await answer(post(body, '0'.repeat(40))),
    await answer(post(body, undefined)),
    await answer(post(big, await core.signAsync(big, SECRET))),
  ];
  out.handled = handled;

  // Every other package loads, and its main export is there.
  const mains = {
    '@hookgate/express': 'hookgate',
    '@hookgate/fastify': 'hookgate',
    '@hookgate/hono': 'hookgate',
    '@hookgate/emulator': 'createEmulator',
    '@hookgate/client': 'Analytics',
    '@hookgate/redis': 'RedisIdempotencyStore',
  };
  out.packages = {};
  for (const [name, main] of Object.entries(mains)) {
    try {
      out.packages[name] = typeof (await load(name))[main];
    } catch (error) {
      out.packages[name] = `threw: ${error.message}`;
    }
  }
  console.log(JSON.stringify(out));
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
