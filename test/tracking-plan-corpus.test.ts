// One plan loader: a corpus of good and bad plans (test/fixtures/tracking-plans/corpus) through the four
// places a plan is read — a receiver (createReceiver), a worker (@hookgate/bullmq createWorker's options
// check), `hookgate types` and `hookgate serve` (both real CLI processes) — each giving the same verdict
// and, for a bad plan, the same message naming the rule, the path and the fix.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { createReceiver } from '@hookgate/core';
import { compileTrackingPlan, TrackingPlanError } from '@hookgate/plans';
import { createWorker } from '@hookgate/bullmq';
import { startCliFromSources } from '../packages/emulator/test/helpers/local-http.js';

const CORPUS = fileURLToPath(new URL('./fixtures/tracking-plans/corpus/', import.meta.url));
const files = readdirSync(CORPUS).filter((f) => f.endsWith('.json'));
const out = mkdtempSync(path.join(tmpdir(), 'hookgate-plan-corpus-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

/** What each bad plan's message must say (besides being the same everywhere). */
const BAD: Record<string, RegExp> = {
  'bad-look-ahead.json':
    /^rules\[1\] \(TRACK "Order Completed" v2\): jsonSchema\.properties\.properties\.properties\.order_id\.pattern: pattern "\^\(\?!test-\)" uses negative look-ahead/,
  'bad-back-reference.json':
    /^rules\[0\] \(TRACK "Signed Up" v1\): .*back-reference \\1 at character 6, which RE2 cannot run/,
  'bad-dangling-ref.json':
    /^rules\[0\] \(TRACK "Order Completed" v1\): .*\$ref "#\/definitions\/missing" points at no schema/,
  'bad-remote-ref.json':
    /^rules\[0\] \(TRACK "Order Completed" v1\): .*\$ref "https:\/\/example\.com\/id\.json" is not local/,
  'bad-enum-size.json':
    /^rules\[0\] \(TRACK "Signed Up" v1\): .*enum has 2001 values, over the limit of 2000 \(limits\.maxEnumValues\)/,
  'bad-meta-schema.json':
    /^rules\[0\] \(TRACK "Signed Up" v1\): jsonSchema\.properties\.properties\.properties\.plan\.type .*not a valid draft-07 JSON Schema/,
  'bad-rule-type.json': /^rules\[0\] \(TRAK "Signed Up" v1\): type must be one of TRACK/,
  'bad-deep.json': /^rules\[0\] \(TRACK "Deep" v1\): jsonSchema nests deeper than 64 levels \(limits\.maxSchemaDepth\)/,
};

/** The loader's verdict: the message of the TrackingPlanError, or `null` for a good plan. */
function verdictOf(fn: () => unknown): string | null {
  try {
    fn();
    return null;
  } catch (error) {
    if (!(error instanceof TrackingPlanError)) throw error;
    return error.message;
  }
}

const planOf = (file: string): unknown => JSON.parse(readFileSync(path.join(CORPUS, file), 'utf8'));

it('the corpus has good and bad plans, and each bad one is named here', () => {
  expect(files.filter((f) => f.startsWith('good-')).length).toBeGreaterThanOrEqual(2);
  expect(files.filter((f) => f.startsWith('bad-')).sort()).toEqual(Object.keys(BAD).sort());
});

describe.each(files)('%s', (file) => {
  const expected = verdictOf(() => compileTrackingPlan(planOf(file)));

  it('is judged as the file name says, with the rule, the path and the fix named', () => {
    if (file.startsWith('good-')) expect(expected).toBeNull();
    else expect(expected).toMatch(BAD[file]!);
  });

  it('the same verdict and message at a receiver and at a worker', () => {
    expect(verdictOf(() => createReceiver({ secret: 's', trackingPlan: compileTrackingPlan(planOf(file)) }))).toBe(
      expected,
    );
    // Without a connection, a good plan gets as far as BullMQ's connection check.
    let worker: string | null;
    try {
      createWorker('q', { trackingPlan: compileTrackingPlan(planOf(file)) } as never);
      worker = 'created';
    } catch (error) {
      worker = error instanceof TrackingPlanError ? error.message : (error as Error).message;
    }
    expect(worker).toBe(expected ?? worker);
    if (expected === null) expect(worker).toMatch(/connection is required/);
  });

  it('the same verdict and message from hookgate types and hookgate serve (CLI processes)', async () => {
    const module = path.join(out, `${file}.ts`);
    const types = startCliFromSources(['types', '--plan', path.join(CORPUS, file), '--out', module]);
    const serve = startCliFromSources([
      'serve',
      '--port',
      '0',
      '--endpoint',
      'http://127.0.0.1:9/webhooks',
      '--secret',
      'corpus-s3cret',
      '--json',
      '--tracking-plan',
      path.join(CORPUS, file),
    ]);
    try {
      const typesCode = await types.exited;
      if (expected === null) {
        expect([typesCode, types.err()]).toEqual([0, '']);
        expect(existsSync(module)).toBe(true);
        await serve.waitFor(/"event":"listening"/, 60_000);
        serve.child.kill('SIGTERM');
        expect(await serve.exited).toBe(0);
      } else {
        expect(typesCode).toBe(2);
        expect(types.err()).toContain(expected);
        expect(await serve.exited).toBe(2);
        expect(serve.err()).toContain(expected);
      }
    } finally {
      types.child.kill('SIGKILL');
      serve.child.kill('SIGKILL');
    }
  }, 120_000);
});
