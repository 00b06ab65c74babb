// Runs the shared conformance table against one target: a server that mounts every scenario of
// `conformance-scenarios.ts` at `<base>/webhooks/<scenario>` and reports its handlers at `<base>/_seen`.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messageIssues } from '@hookgate/core';
import { CONFORMANCE_CASES, type ConformanceCase } from './conformance-cases.js';
import { THROWN_TEXT, type SeenReport } from './conformance-scenarios.js';
import { seedShapeProblems } from './seed-shapes.js';
import { markerOf, prepareRequest, sendRequest, type Answer, type PreparedRequest } from './send-request.js';

/** A running conformance target. */
export interface ConformanceTarget {
  /** Base URL (no trailing slash), e.g. `http://127.0.0.1:4123`. */
  url: string;
  close(): Promise<void>;
}

/** How a target differs. */
export interface ConformanceOptions {
  /** Also run the cases marked `slow` (the real 4 s default deadline). */
  slow?: boolean;
  /** The target's handlers run behind a pass-through middleware (`via: 'route'`) instead of typed `on` handlers. */
  passThrough?: boolean;
  /** Check first that the target reports these `info` values at `/_seen` (runtime, resolved package path). */
  expectInfo?: Record<string, string | RegExp>;
}

async function seen(baseUrl: string): Promise<SeenReport> {
  const res = await fetch(`${baseUrl}/_seen`);
  expect(res.status).toBe(200);
  return (await res.json()) as SeenReport;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Defines one vitest test per case of the table, against the target that `start` brings up. */
export function runConformance(
  label: string,
  start: () => Promise<ConformanceTarget>,
  options: ConformanceOptions = {},
): void {
  describe(`conformance: ${label}`, () => {
    let target: ConformanceTarget;
    beforeAll(async () => {
      target = await start();
    }, 60_000);
    afterAll(async () => {
      await target?.close();
    });

    if (options.expectInfo) {
      it(`runs where it should: ${JSON.stringify(options.expectInfo, (_k, v) => (v instanceof RegExp ? String(v) : v))}`, async () => {
        const { info } = await seen(target.url);
        for (const [key, want] of Object.entries(options.expectInfo!)) {
          if (want instanceof RegExp) expect(info[key], key).toMatch(want);
          else expect(info[key], key).toBe(want);
        }
      });
    }

    // The slow case (the real 4 s default deadline) runs on one target only; the others run the same
    // check with a 300 ms deadline.
    for (const c of CONFORMANCE_CASES.filter((k) => !k.slow || options.slow)) {
      it(
        c.name,
        async () => {
          await checkCase(target.url, c, options);
        },
        20_000,
      );
    }
  });
}

async function checkCase(baseUrl: string, c: ConformanceCase, options: ConformanceOptions): Promise<void> {
  const url = `${baseUrl}/webhooks/${c.scenario}`;
  const marker = `user_${c.scenario}_${randomUUID()}`;
  const sent: PreparedRequest[] = [];
  const answers: Answer[] = [];
  const mine = (report: SeenReport) => report.records.filter((r) => markerOf(r.message) === marker);

  for (const [i, spec] of c.requests.entries()) {
    const prepared = spec.repeatPrevious ? (sent[i - 1] as PreparedRequest) : prepareRequest(spec, marker);
    // Every message the table sends has the seed's shape: by the seed's table, and by core's validator.
    if (prepared.message) {
      expect(seedShapeProblems(prepared.message)).toEqual([]);
      expect(messageIssues(prepared.message)).toEqual([]);
    }
    sent.push(prepared);
    const answer = await sendRequest(url, prepared);
    answers.push(answer);
    const want = c.answers[i]!;
    const where = `request ${i + 1} of "${c.name}": answered ${answer.status} ${answer.body.slice(0, 300)}`;
    expect(answer.status, where).toBe(want.status);
    if (want.code !== undefined) expect(JSON.parse(answer.body).code, where).toBe(want.code);
    if (want.withinMs !== undefined) expect(answer.ms, where).toBeLessThan(want.withinMs);
    if (want.notBeforeMs !== undefined) expect(answer.ms, where).toBeGreaterThanOrEqual(want.notBeforeMs);
    if (want.noStackTrace) {
      expect(answer.body, where).not.toContain(THROWN_TEXT);
      expect(answer.body, where).not.toMatch(/\bat .*(?:\.[cm]?[jt]s|node:)|Error:/);
    }
    if (want.handlerStillRunning) {
      const now = mine(await seen(baseUrl));
      expect(
        now.map((r) => r.phase),
        `${where}: the handler should have started and still run`,
      ).toEqual(['start']);
    }
  }

  if (c.finishesWithinMs !== undefined) {
    const until = Date.now() + c.finishesWithinMs;
    while (!mine(await seen(baseUrl)).some((r) => r.phase === 'end') && Date.now() < until) await sleep(50);
    expect(mine(await seen(baseUrl)).map((r) => r.phase)).toEqual(['start', 'end']);
  }

  const records = mine(await seen(baseUrl));
  const starts = records.filter((r) => r.phase === 'start');
  expect(starts.length, `handler runs for "${c.name}"`).toBe(c.handlerRuns);
  for (const r of starts) expect(r.scenario).toBe(c.scenario);

  if (c.sawMessage) {
    const [first] = sent;
    expect(starts[0]!.message).toEqual(first!.message);
    expect(starts[0]!.via).toBe(options.passThrough ? 'route' : `on.${first!.message!.type}`);
  }
  if (c.secretIndexes) {
    expect(starts.map((r) => r.verification).map((v) => v.secretIndex)).toEqual(c.secretIndexes);
  }
}
