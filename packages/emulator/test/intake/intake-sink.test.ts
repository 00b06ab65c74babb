// The intake's one way in: it hands every call to the sink its engine names (`intakeSink`), and that sink
// checks a call exactly as `emulator.ingest` does. Proven over real HTTP with the listener mounted on a
// server of the test's own, behind an engine of the test's own that only forwards to an emulator: the
// records are the same as `emulator.listen()` makes (refused calls recorded, notes, duplicates), because
// nothing but the engine object passed connects the intake to the emulator.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createEmulator,
  createIntakeListener,
  ValidationError,
  type Emulator,
  type IntakeEngine,
} from '../../src/index.js';

const KEY = 'wk_sink_test_4f1c';
const basic = `Basic ${Buffer.from(`${KEY}:`).toString('base64')}`;
const closers: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

function emulatorOf(): Emulator {
  const emulator = createEmulator({
    // Port 9 (discard): nothing answers; the records stay pending until close().
    sources: [{ writeKey: KEY, webhooks: { enabled: true, endpoints: [{ url: 'http://127.0.0.1:9/hook' }] } }],
  });
  closers.push(() => emulator.close());
  return emulator;
}

/** A server of the test's own with the intake's bare listener on it; returns its base URL. */
async function serve(engine: IntakeEngine): Promise<string> {
  const server = http.createServer(createIntakeListener(engine, { inspector: false }));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(() => new Promise((resolve) => server.close(resolve)));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function post(base: string, path: string, body: string): Promise<{ status: number; json: unknown }> {
  const res = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: basic },
    body,
  });
  return { status: res.status, json: await res.json() };
}

// One request with a refused call, a call holding an integer JSON parsing changes, and a resend of it.
const BATCH = `{"batch":[{"type":"track","userId":"u1","event":"A","messageId":"m-1","properties":{"n":12345678901234567890}},{"type":"track","event":null},{"type":"track","userId":"u1","event":"A","messageId":"m-1"}]}`;

describe('the intake hands its calls to the sink its engine names', () => {
  it('an engine that only forwards to an emulator gets the records emulator.listen() makes', async () => {
    const direct = emulatorOf();
    const forwarded = emulatorOf();
    // The test's own engine: nothing of the emulator but what IntakeEngine names.
    const engine: IntakeEngine = {
      clock: forwarded.clock,
      hasSource: (key) => forwarded.hasSource(key),
      intakeSink: forwarded.intakeSink,
      get deliveries() {
        return forwarded.deliveries;
      },
      deliveryCounts: () => forwarded.deliveryCounts(),
    };
    const listened = await direct.listen({ port: 0, inspector: false });
    closers.push(() => listened.close());
    const own = await serve(engine);

    const a = await post(listened.url, '/v1/batch', BATCH);
    const b = await post(own, '/v1/batch', BATCH);
    expect(a.status).toBe(200);
    expect(b).toEqual(a);
    const shape = (em: Emulator) =>
      em.deliveries.map((r) => ({
        state: r.state,
        notes: r.notes?.length ?? 0,
        rawCall: r.rawCall,
        duplicateOf: r.duplicateOf,
        refused: r.reason?.startsWith('refused by the intake') ?? false,
      }));
    expect(shape(forwarded)).toEqual(shape(direct));
    expect(shape(forwarded)).toEqual([
      {
        state: 'pending',
        notes: 1,
        rawCall: '{"type":"track","userId":"u1","event":"A","messageId":"m-1","properties":{"n":12345678901234567890}}',
        duplicateOf: undefined,
        refused: false,
      },
      { state: 'filtered', notes: 0, rawCall: '{"type":"track","event":null}', duplicateOf: undefined, refused: true },
      {
        state: 'filtered',
        notes: 0,
        rawCall: '{"type":"track","userId":"u1","event":"A","messageId":"m-1"}',
        duplicateOf: 'dlv_1',
        refused: false,
      },
    ]);
  });

  it('the sink checks a call as ingest does: the same ValidationError, nothing recorded', () => {
    const emulator = emulatorOf();
    const bad = { type: 'track', userId: 'u1' } as never; // no event
    const issuesOf = (f: () => unknown) => {
      try {
        f();
      } catch (error) {
        expect(error).toBeInstanceOf(ValidationError);
        return (error as ValidationError).issues;
      }
      throw new Error('did not throw');
    };
    const viaSink = issuesOf(() => emulator.intakeSink.accept(bad, { writeKey: KEY, receivedMs: 0 }));
    const viaIngest = issuesOf(() => emulator.ingest(bad, { writeKey: KEY }));
    expect(viaSink).toEqual(viaIngest);
    expect(viaSink.map((i) => i.path)).toEqual(['$.event']);
    expect(emulator.deliveries).toHaveLength(0);
  });

  it('a call nested too deep is refused by the sink as by ingest (no stack overflow)', () => {
    const emulator = emulatorOf();
    let deep: Record<string, unknown> = {};
    const call = { type: 'track', userId: 'u1', event: 'E', properties: deep } as never;
    for (let i = 0; i < 200; i++) deep = deep.x = {};
    expect(() => emulator.intakeSink.accept(call, { writeKey: KEY, receivedMs: 0 })).toThrow(
      /nests deeper than 100 levels/,
    );
    expect(() => emulator.ingest(call, { writeKey: KEY })).toThrow(/nests deeper than 100 levels/);
  });
});
