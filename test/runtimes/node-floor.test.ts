// `engines.node` says what truly works: the BUILT packages, loaded as ESM (`import`) and as CommonJS
// (`require`), under the lowest Node version every package.json allows and under Node 22 and 24,
// each binary taken from npm (test/runtimes/node-versions.ts). Core's sync `sign`/`verify` work in both
// module systems (ESM on Node before 20.16 has no `process.getBuiltinModule`: the `node` export
// condition gives it a build that imports node:crypto statically), its receiver answers its status
// table, and every other package loads.
import { execFile } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { ROOT, assertBuilt } from './spawn-server.js';
import { enginesFloor, nodeBinary } from './node-versions.js';

const SECRET = 'whsec_floor_probe';
const FLOOR = enginesFloor();
const VERSIONS = [FLOOR, '22', '24'];

interface Probe {
  mode: string;
  node: string;
  hasGetBuiltinModule: boolean;
  body: string;
  sign: string;
  verify: unknown;
  verifyWrong: boolean;
  signAsync: string;
  receiver: string[];
  handled: number;
  packages: Record<string, string>;
}

const run = promisify(execFile);

async function probe(bin: string, mode: 'import' | 'require'): Promise<Probe> {
  const { stdout } = await run(bin, ['test/runtimes/node-floor-probe.cjs', mode], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: 60_000,
  });
  return JSON.parse(stdout.trim().split('\n').at(-1)!) as Probe;
}

describe('engines.node', () => {
  it('is one lower bound, the same in every published package (checked by enginesFloor)', () => {
    expect(FLOOR).toMatch(/^20\.\d+\.\d+$/);
  });

  it('core builds a Node ESM entry with node:crypto imported statically, and a neutral one without any node: import', () => {
    assertBuilt(['core']);
    const dist = path.join(ROOT, 'packages/core/dist');
    const staticNodeImport = /^import .* from "node:[a-z_/]+";?$/m;
    // The Node build (dist/node/): its entries share chunks, one of which imports node:crypto statically.
    const nodeBuild = readdirSync(path.join(dist, 'node')).filter((f) => f.endsWith('.js'));
    expect(nodeBuild.map((f) => readFileSync(path.join(dist, 'node', f), 'utf8')).join('\n')).toMatch(
      /^import \* as \w+ from "node:crypto";?$/m,
    );
    expect(readFileSync(path.join(dist, 'index.js'), 'utf8')).not.toMatch(staticNodeImport);
    const exports = (
      JSON.parse(readFileSync(path.join(ROOT, 'packages/core/package.json'), 'utf8')) as {
        exports: Record<string, Record<string, Record<string, string>>>;
      }
    ).exports;
    expect(Object.keys(exports['.']!.import!)).toEqual(['types', 'node', 'default']);
  });
});

for (const version of VERSIONS) {
  describe(`Node ${version === FLOOR ? `${FLOOR} (the engines floor)` : version}, from npm`, () => {
    let bin: string;
    // The first run installs the binary (tens of MB from npm) into .cache/node-versions/.
    beforeAll(async () => {
      bin = await nodeBinary(version);
    }, 600_000);
    for (const mode of ['import', 'require'] as const) {
      it(`${mode === 'import' ? 'ESM import()' : 'CommonJS require()'}: sync sign/verify, the receiver's table, every package loads`, async () => {
        assertBuilt(['core', 'express', 'fastify', 'hono', 'emulator', 'client', 'redis']);
        const out = await probe(bin, mode);
        if (version === FLOOR) expect(out.node).toBe(`v${FLOOR}`);
        else expect(out.node).toMatch(new RegExp(`^v${version}\\.`));
        expect(JSON.parse(out.body)).toMatchObject({ type: 'track', messageId: `floor-${mode}-${out.node}` });
        // The reference HMAC of the probe's body, computed here with node:crypto on the test's own Node.
        const reference = createHmac('sha1', SECRET).update(out.body).digest('hex');
        expect(out.sign).toBe(reference);
        expect(out.signAsync).toBe(reference);
        expect(out.verify).toEqual({ ok: true, form: 'raw', secretIndex: 0 });
        expect(out.verifyWrong).toBe(false);
        expect(out.receiver).toEqual([
          '200 ok',
          '200 duplicate',
          '401 invalid_signature',
          '401 missing_signature',
          '413 payload_too_large',
        ]);
        expect(out.handled).toBe(1);
        for (const [name, type] of Object.entries(out.packages)) expect(type, name).toBe('function');
        expect(Object.keys(out.packages)).toHaveLength(6);
      }, 60_000);
    }
  });
}
