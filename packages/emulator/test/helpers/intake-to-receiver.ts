// An intake in front of a real receiver (core's, verifying every signature) on 127.0.0.1: one source, one
// endpoint. What the intake tests that post raw JSON text share, so each test file holds only its cases.
import { createReceiver, toNodeListener, type WebhookMessage } from '@hookgate/core';
import { startHttpServer } from '../../../../test/helpers/servers.js';
import { createEmulator, type Emulator } from '../../src/index.js';
import { listenIntake, type IntakeServer } from '../../src/intake/index.js';

/** The intake's answer: its status and its JSON body (typed by the test that reads it). */
export interface IntakeAnswer<Body> {
  status: number;
  body: Body;
}

export interface IntakeToReceiver {
  emulator: Emulator;
  intake: IntakeServer;
  /** The messages the receiver got and verified, in order. */
  seen: WebhookMessage[];
  /** What the intake reported through `onError` (a test expects it empty). */
  errors: unknown[];
  /** POSTs `text` as it is (no JSON.stringify: it may be junk) to `path`, with the source's write key. */
  post<Body>(path: string, text: string): Promise<IntakeAnswer<Body>>;
  /** Closes the intake, the emulator and the receiver. */
  close(): Promise<void>;
}

/**
 * Starts a receiver, an emulator with one source delivering to it (signed with `secret`) and the intake
 * in front of the emulator.
 *
 * @example
 * const rig = await startIntakeToReceiver({ writeKey: 'wk_deep', secret: 'deep-secret' });
 * const answer = await rig.post<{ accepted?: number }>('/v1/track', '{"userId":"u1","event":"E"}');
 * await rig.emulator.drain();
 * expect(rig.seen).toHaveLength(answer.status === 200 ? 1 : 0);
 * await rig.close();
 */
export async function startIntakeToReceiver(source: { writeKey: string; secret: string }): Promise<IntakeToReceiver> {
  const seen: WebhookMessage[] = [];
  const errors: unknown[] = [];
  const receiver = await startHttpServer(
    toNodeListener(createReceiver({ secret: source.secret, onMessage: (message) => void seen.push(message) })),
  );
  const emulator = createEmulator({
    sources: [
      {
        writeKey: source.writeKey,
        webhooks: { enabled: true, endpoints: [{ url: `${receiver.url}/webhooks` }], sharedSecret: source.secret },
      },
    ],
  });
  const intake = await listenIntake(emulator, { onError: (e) => errors.push(e) });
  const authorization = `Basic ${Buffer.from(`${source.writeKey}:`).toString('base64')}`;
  return {
    emulator,
    intake,
    seen,
    errors,
    async post<Body>(path: string, text: string): Promise<IntakeAnswer<Body>> {
      const res = await fetch(`${intake.url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization },
        body: text,
      });
      return { status: res.status, body: (await res.json()) as Body };
    },
    async close() {
      await intake.close();
      await emulator.close();
      await receiver.close();
    },
  };
}
