// The built package (dist/index.js and dist/index.cjs) runs Webhooks (Actions) with Segment's own
// packages loaded at run time (actions-core's ES module build cannot be imported by Node: both builds
// load its CommonJS build), each in a process of its own against a real receiver.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCaptureReceiver, type CaptureReceiver } from '../helpers/capture-receiver.js';

const DIST = fileURLToPath(new URL('../../dist/', import.meta.url));
let receiver: CaptureReceiver;

beforeAll(async () => {
  for (const f of ['index.js', 'index.cjs']) {
    if (!existsSync(`${DIST}${f}`))
      throw new Error(`${DIST}${f} is missing: build the emulator first (pnpm --filter ./packages/emulator build).`);
  }
  receiver = await startCaptureReceiver();
});
afterAll(() => receiver?.close());

const script = (load: string, url: string) => `
${load}
const e = createEmulator({ sources: [{ writeKey: 'wk', webhooksActions: { sharedSecret: 's', subscriptions: [
  { subscribe: 'type = "track"', partnerAction: 'send', mapping: { url: '${url}', method: 'PATCH', data: { t: { '@template': '{{event}}!' }, n: { '@if': { exists: { '@path': '$.properties.n' }, then: { '@path': '$.properties.n' }, else: 0 } } } } },
] } }] });
e.track({ userId: 'u', event: 'Built', properties: { n: 7 } });
e.drain().then(() => e.close()).then(() => console.log('done'));
`;

function run(args: string[]): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (c) => (out += c));
    child.stderr.on('data', (c) => (err += c));
    child.on('close', (code) => resolve({ code, out, err }));
  });
}

describe('the built emulator sends Webhooks (Actions) requests', () => {
  const builds: Array<[string, (url: string) => string[]]> = [
    ['ESM', (url) => ['--input-type=module', '-e', script(`import { createEmulator } from '${DIST}index.js';`, url)]],
    ['CJS', (url) => ['-e', script(`const { createEmulator } = require('${DIST}index.cjs');`, url)]],
  ];
  it.each(builds)(
    '%s',
    async (_name, argsFor) => {
      const before = receiver.received.length;
      const r = await run(argsFor(`${receiver.url}/built`));
      expect(r.err).toBe('');
      expect(r.out.trim()).toBe('done');
      const got = receiver.received.slice(before);
      expect(got).toHaveLength(1);
      expect(got[0]!.method).toBe('PATCH');
      expect(got[0]!.headers['user-agent']).toBe('Segment (Actions)');
      expect(got[0]!.text).toBe('{"t":"Built!","n":7}');
    },
    30_000,
  );
});
