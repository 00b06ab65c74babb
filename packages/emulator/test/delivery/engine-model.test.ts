// The delivery engine against a small reference model, with fast-check: random calls (to sources of 1 to 3
// endpoints), random answers per attempt (2xx, 5xx at once or late, 4xx, a reset connection) from a real HTTP receiver,
// random retry schedules (the 4 h default and short windows) and random moves of a ManualClock. After every step each record must be where the model says at that
// virtual instant: its attempts (endpoint, round, start time), its state and reason, its next retry.
// The model is the destination's rules, written plainly: every endpoint gets a first attempt; a round's
// retryable failures are retried after min(maxDelayMs, initialDelayMs × factor^(round − 1)) (no jitter);
// once any endpoint answers 2xx the message is done and no retry starts to any endpoint (each retryable
// failure of that round is either `not-retried` or a cancelled retry); a 4xx fails its endpoint for good;
// no retry starts more than the 4 h window after the first attempt.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEmulator, DEFAULT_RETRY, ManualClock, type DeliveryRecord } from '../../src/index.js';

/** `slow`: 503 after 25 ms, so that other attempts (and other messages' queued ones) overtake it. */
type Answer = 200 | 503 | 404 | 'reset' | 'slow';
/** Per endpoint, the answers to its attempts in order; past the end, 503. */
type Script = Answer[][];

interface ModelAttempt {
  endpoint: number;
  round: number;
  atMs: number;
  answer: Answer;
}

interface Model {
  attempts: ModelAttempt[];
  /** When the record finishes (its last round's start), and how. */
  end:
    | { atMs: number; state: 'delivered'; round: number; acceptors: number[]; retrying: number[] }
    | { atMs: number; state: 'failed'; reason: RegExp };
  /** The start of each round after the first (for nextAttemptAt). */
  rounds: number[];
}

type Retry = { windowMs: number; initialDelayMs: number; factor: number; maxDelayMs: number; jitter: 'none' };

/** The reference model: the whole life of one message whose endpoints answer by `script`. */
function model(script: Script, receivedMs: number, retry: Retry): Model {
  const delayAfter = (round: number) => Math.min(retry.maxDelayMs, retry.initialDelayMs * retry.factor ** (round - 1));
  const attempts: ModelAttempt[] = [];
  const sent = script.map(() => 0);
  let active = script.map((_, i) => i);
  const rounds: number[] = [receivedMs];
  for (let round = 1, at = receivedMs; ; round++) {
    const answers = active.map((e) => {
      const answer = script[e]?.[sent[e]!++] ?? 503;
      attempts.push({ endpoint: e, round, atMs: at, answer });
      return { e, answer };
    });
    const acceptors = answers.filter((a) => a.answer === 200).map((a) => a.e);
    const retrying = answers.filter((a) => a.answer !== 200 && a.answer !== 404).map((a) => a.e);
    if (acceptors.length > 0)
      return { attempts, rounds, end: { atMs: at, state: 'delivered', round, acceptors, retrying } };
    active = retrying;
    if (active.length === 0)
      return { attempts, rounds, end: { atMs: at, state: 'failed', reason: /^every endpoint failed for good/ } };
    const due = at + delayAfter(round);
    if (due - receivedMs > retry.windowMs)
      return {
        attempts,
        rounds,
        end: { atMs: at, state: 'failed', reason: /^gave up: the next retry would start more than / },
      };
    at = due;
    rounds.push(at);
  }
}

/** Checks a record against its model at virtual instant `now` (every attempt due by then has been answered). */
function expectAsModel(record: DeliveryRecord, m: Model, endpoints: string[], now: number): void {
  const label = `${record.id} at +${now - (m.rounds[0] as number)} ms`;
  const { end } = m;
  const finished = end.atMs <= now;
  // The round that delivered is checked on its own below: a retry queued behind another message's may be cancelled.
  const lastRound = finished && end.state === 'delivered' ? end.round : Infinity;
  const key = (a: { endpoint: number; round: number }) => a.round * 10 + a.endpoint;
  const shown = (list: Array<{ endpoint: number; round: number; atMs: number }>) =>
    list.map(({ endpoint, round, atMs }) => ({ endpoint, round, atMs })).sort((a, b) => key(a) - key(b));
  const got = record.attempts.map((a) => ({
    endpoint: endpoints.indexOf(a.endpoint),
    round: a.round,
    atMs: Date.parse(a.at),
    outcome: a.outcome,
  }));
  expect(shown(got.filter((a) => a.round < lastRound)), label).toEqual(
    shown(m.attempts.filter((a) => a.atMs <= now && a.round < lastRound)),
  );
  if (!finished) {
    expect(record.state, label).toBe('pending');
    const next = m.rounds.find((at) => at > now);
    expect(record.nextAttemptAt, label).toBe(next === undefined ? undefined : new Date(next).toISOString());
    expect(record.cancelled, label).toEqual([]);
    return;
  }
  expect(record.state, label).toBe(end.state);
  expect(record.nextAttemptAt, label).toBeUndefined();
  if (end.state === 'failed') {
    expect(record.reason, label).toMatch(end.reason);
    expect(record.cancelled, label).toEqual([]);
    return;
  }
  // Delivered, in round `end.round`, by an endpoint that answered 2xx in it. No later round. Each other
  // endpoint of that round: its attempt went out (a first attempt always does), or its retry, queued
  // behind another message's, was cancelled; a retryable failure of it is then not retried, or its
  // next round's retry is cancelled (whichever answer came first).
  expect(end.acceptors, label).toContain((record.deliveredBy as number) - 1);
  expect(
    got.every((a) => a.round <= end.round),
    label,
  ).toBe(true);
  const cancelled = record.cancelled.map((c) => ({ endpoint: endpoints.indexOf(c.endpoint), round: c.round }));
  const isCancelled = (e: number, round: number) => cancelled.some((c) => c.endpoint === e && c.round === round);
  for (const planned of m.attempts.filter((a) => a.round === end.round)) {
    const e = planned.endpoint;
    const attempt = got.find((a) => a.round === end.round && a.endpoint === e);
    if (attempt === undefined) {
      expect(end.round > 1 && isCancelled(e, end.round) && e !== (record.deliveredBy as number) - 1, label).toBe(true);
      continue;
    }
    expect(attempt.atMs, label).toBe(planned.atMs);
    if (!end.retrying.includes(e)) continue;
    expect(
      attempt.outcome === 'not-retried'
        ? !isCancelled(e, end.round + 1)
        : attempt.outcome === 'retry' && isCancelled(e, end.round + 1),
      label,
    ).toBe(true);
  }
  expect(cancelled.length, label).toBe(new Set(cancelled.map((c) => c.endpoint)).size);
}

// ---- the receiver: answers each request as the script of its message says ----

let server: http.Server;
let base = '';
/** messageId → script; and how many attempts each (messageId, endpoint) had. */
const scripts = new Map<string, Script>();
const seen = new Map<string, number>();

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const { messageId } = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { messageId: string };
      const endpoint = Number(/\/e(\d)$/.exec(req.url ?? '')?.[1]);
      const k = `${messageId} ${endpoint}`;
      const n = seen.get(k) ?? 0;
      seen.set(k, n + 1);
      const answer = scripts.get(messageId)?.[endpoint]?.[n] ?? 503;
      if (answer === 'reset') req.socket.destroy();
      else if (answer === 'slow') setTimeout(() => res.writeHead(503).end('slow'), 25);
      else res.writeHead(answer, { 'content-type': 'text/plain' }).end(String(answer));
    });
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

// The 4 h default, and short windows that the schedule meets exactly (1 + 2 + 4 + 8 s = 15 s): a retry due
// exactly at the window's end still starts.
const retryOptions = fc.record({
  windowMs: fc.constantFrom(DEFAULT_RETRY.windowMs, 15_000, 14_999, 7_000),
  initialDelayMs: fc.constantFrom(1000, 1000, 250),
  factor: fc.constantFrom(2, 2, 3),
  maxDelayMs: fc.constantFrom(DEFAULT_RETRY.maxDelayMs, 4000),
  jitter: fc.constant('none' as const),
});
// In flight per endpoint: 1 makes a message's retries queue behind another's (and be cancelled there).
const concurrency = fc.constantFrom(64, 1);
const answer = fc.constantFrom<Answer>(200, 503, 503, 404, 'reset', 'slow');
const script = fc.array(fc.array(answer, { maxLength: 6 }), { minLength: 1, maxLength: 3 });
// Calls come in bursts (sent before any is answered, so their attempts meet in the lanes) between moves of the clock.
const step = fc.oneof(
  { weight: 3, arbitrary: fc.record({ track: fc.array(script, { minLength: 1, maxLength: 3 }) }) },
  {
    weight: 2,
    arbitrary: fc.record({
      advance: fc.oneof(fc.integer({ min: 0, max: 5_000 }), fc.integer({ min: 0, max: 2 * 3_600_000 })),
    }),
  },
);

describe('the delivery engine, against a reference model of the destination rules', () => {
  it('every record is where the model says, after every call and every move of the clock', async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        retryOptions,
        concurrency,
        fc.array(step, { minLength: 1, maxLength: 12 }),
        async (retry, inFlight, steps) => {
          run++;
          const clock = new ManualClock({ start: '2026-01-01T00:00:00.000Z' });
          // One source per endpoint count, each endpoint its own lane.
          const endpointsOf = (n: number) => Array.from({ length: n }, (_, i) => `${base}/r${run}/s${n}/e${i}`);
          const emulator = createEmulator({
            clock,
            retry,
            concurrency: inFlight,
            includeIds: true,
            sources: [1, 2, 3].map((n) => ({
              writeKey: `wk${n}`,
              webhooks: { enabled: true, endpoints: endpointsOf(n).map((url) => ({ url })) },
            })),
          });
          const tracked: Array<{ record: DeliveryRecord; model: Model; endpoints: string[] }> = [];
          const checkAll = () => {
            for (const t of tracked) expectAsModel(t.record, t.model, t.endpoints, clock.now());
          };
          try {
            for (const s of steps) {
              if ('track' in s) {
                for (const answers of s.track) {
                  const messageId = `r${run}-m${tracked.length}`;
                  scripts.set(messageId, answers);
                  const n = answers.length;
                  const record = emulator.track({ userId: 'u1', event: 'E', messageId }, { writeKey: `wk${n}` });
                  tracked.push({ record, model: model(answers, clock.now(), retry), endpoints: endpointsOf(n) });
                }
                await clock.settle();
              } else {
                await clock.advance(s.advance);
              }
              checkAll();
            }
            await clock.advance(retry.windowMs + 1);
            checkAll();
            expect(emulator.deliveryCounts().pending).toBe(0);
          } finally {
            await emulator.close();
          }
        },
      ),
      { numRuns: 20 },
    );
  }, 300_000);
});
