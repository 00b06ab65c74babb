// Two endpoints, one accepts: the other's failure is never left as a promise of a retry that will not
// come (seed §6: once delivery to any one succeeds, the message is not retried to the others). Over
// real HTTP on 127.0.0.1, in both orders, each made certain by holding one endpoint's answer until the
// emulator has seen the other's: B fails after A accepted (its attempt says `not-retried`), and B
// fails before A accepted (its attempt said `retry`, true then; a `cancelled` event follows).
import { afterEach, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../../../test/helpers/servers.js';
import { startGatedReceiver } from '../helpers/gated-receiver.js';
import {
  createEmulator,
  type Attempt,
  type CancelledRetry,
  type DeliveryRecord,
  type Emulator,
} from '../../src/index.js';
import { summarizeEndpoints } from '../../src/cli/serve-summary.js';

type Seen =
  | { kind: 'attempt'; endpoint: string; outcome: Attempt['outcome'] }
  | { kind: 'delivered' }
  | { kind: 'cancelled'; cancelled: CancelledRetry };

describe('two endpoints, one accepted: the other is not retried, and says so', () => {
  let emulator: Emulator | undefined;
  const servers: RunningServer[] = [];
  afterEach(async () => {
    await emulator?.close();
    for (const s of servers.splice(0)) await s.close();
    emulator = undefined;
  });

  /** Signals once: `wait()` resolves after `open()`. */
  function latch() {
    let open!: () => void;
    const opened = new Promise<void>((resolve) => (open = resolve));
    return { open, wait: () => opened };
  }

  async function run(order: 'B fails after A accepts' | 'B fails before A accepts') {
    const aAnswered = latch();
    const bAnswered = latch();
    // A answers 200; B answers 500. The later of the two waits for the emulator to log the earlier.
    const a = await startGatedReceiver(200);
    const b = await startGatedReceiver(500);
    if (order === 'B fails after A accepts') {
      a.open();
      void aAnswered.wait().then(b.open);
    } else {
      b.open();
      void bAnswered.wait().then(a.open);
    }
    servers.push(a.server, b.server);
    const urlA = `${a.server.url}/a`;
    const urlB = `${b.server.url}/b`;
    emulator = createEmulator({
      retry: { initialDelayMs: 20, jitter: 'none', windowMs: 60_000 },
      sources: [{ writeKey: 'wk', webhooks: { enabled: true, endpoints: [{ url: urlA }, { url: urlB }] } }],
    });
    const seen: Seen[] = [];
    emulator.on('attempt', (attempt) => {
      seen.push({ kind: 'attempt', endpoint: attempt.endpoint, outcome: attempt.outcome });
      (attempt.endpoint === urlA ? aAnswered : bAnswered).open();
    });
    emulator.on('delivered', () => seen.push({ kind: 'delivered' }));
    emulator.on('cancelled', (cancelled) => seen.push({ kind: 'cancelled', cancelled }));
    const record = emulator.track({ userId: 'u1', event: 'Signed Up' });
    await emulator.drain();
    // A retry round would start 20 ms after the first: give it ten times that to show up.
    await new Promise((r) => setTimeout(r, 200));
    return { a, b, urlA, urlB, record, seen };
  }

  function attemptAt(record: DeliveryRecord, url: string): Attempt {
    const attempts = record.attempts.filter((x) => x.endpoint === url);
    expect(attempts).toHaveLength(1);
    return attempts[0] as Attempt;
  }

  it('B fails after A accepted: its attempt is not-retried, "endpoint 1 accepted"', async () => {
    const { a, b, urlA, urlB, record, seen } = await run('B fails after A accepts');
    expect(record.state).toBe('delivered');
    expect(record.deliveredTo).toBe(urlA);
    expect(record.deliveredBy).toBe(1);
    expect([a.requests(), b.requests()]).toEqual([1, 1]);
    expect(attemptAt(record, urlA)).toMatchObject({ status: 200, outcome: 'delivered' });
    const atB = attemptAt(record, urlB);
    expect(atB).toMatchObject({ status: 500, outcome: 'not-retried', notRetriedBecause: 'endpoint 1 accepted' });
    expect(atB.error?.code).toBe('http');
    expect((atB as unknown as { toJSON(): Record<string, unknown> }).toJSON()).toMatchObject({
      outcome: 'not-retried',
      notRetriedBecause: 'endpoint 1 accepted',
    });
    // Its attempt says it all: no promise was made, so there is nothing to cancel.
    expect(record.cancelled).toEqual([]);
    expect(seen).toEqual([
      { kind: 'attempt', endpoint: urlA, outcome: 'delivered' },
      { kind: 'delivered' },
      { kind: 'attempt', endpoint: urlB, outcome: 'not-retried' },
    ]);
    // serve's summary counts it under its own column, not as a success.
    expect(summarizeEndpoints([record], [urlA, urlB])).toEqual([
      { endpoint: urlA, attempts: 1, delivered: 1, failed: 0, pending: 0, notRetried: 0 },
      { endpoint: urlB, attempts: 1, delivered: 0, failed: 0, pending: 0, notRetried: 1 },
    ]);
  });

  it('B fails before A accepted: its "retry" is followed by a cancelled retry, "endpoint 1 answered 200"', async () => {
    const { a, b, urlA, urlB, record, seen } = await run('B fails before A accepts');
    expect(record.state).toBe('delivered');
    expect(record.deliveredBy).toBe(1);
    expect([a.requests(), b.requests()]).toEqual([1, 1]);
    // True when it ended: no endpoint had accepted the message yet.
    expect(attemptAt(record, urlB)).toMatchObject({ status: 500, outcome: 'retry' });
    expect(attemptAt(record, urlB).notRetriedBecause).toBeUndefined();
    // The retry it promised (round 2) is cancelled when A accepts, with why.
    expect(record.cancelled).toHaveLength(1);
    const cancelled = record.cancelled[0] as CancelledRetry;
    expect(cancelled).toMatchObject({ recordId: record.id, endpoint: urlB, round: 2 });
    expect(cancelled.reason).toBe(
      `endpoint 1 (${urlA}) answered 200: a message is not retried after an endpoint accepted it`,
    );
    expect(seen).toEqual([
      { kind: 'attempt', endpoint: urlB, outcome: 'retry' },
      { kind: 'attempt', endpoint: urlA, outcome: 'delivered' },
      { kind: 'delivered' },
      { kind: 'cancelled', cancelled },
    ]);
    expect(summarizeEndpoints([record], [urlA, urlB])[1]).toEqual({
      endpoint: urlB,
      attempts: 1,
      delivered: 0,
      failed: 0,
      pending: 0,
      notRetried: 1,
    });
  });
});
