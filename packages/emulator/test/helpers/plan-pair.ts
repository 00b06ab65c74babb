// An emulator source with a tracking plan and schema controls delivering, over real HTTP, to a real
// hookgate receiver with the same plan (which verifies every signature, so what is delivered is what is
// signed): calls go in through the intake, and what each end made of them can be compared.
import { expect } from 'vitest';
import {
  createReceiver,
  toNodeListener,
  type HandlerContext,
  type ReceiverOptions,
  type WebhookMessage,
} from '@hookgate/core';
import { compileTrackingPlan } from '@hookgate/plans';
import { startHttpServer, type RunningServer } from '../../../../test/helpers/servers.js';
import { createEmulator, type DeliveryRecord, type Emulator, type SchemaControls } from '../../src/index.js';
import { listenIntake, type IntakeServer } from '../../src/intake/index.js';

const SECRET = 'plan-pair-secret';
const KEY = 'wk_plan_pair';

export interface PlanPair {
  emulator: Emulator;
  /** What the receiver's `onMessage` got (empty when `on` was given). */
  seen: { message: WebhookMessage; ctx: HandlerContext }[];
  /** Posts a call to the intake (`userId: 'u1'` added) and waits for its delivery record. */
  call(
    path: 'track' | 'page' | 'screen' | 'identify' | 'group',
    body: Record<string, unknown>,
  ): Promise<DeliveryRecord>;
  close(): Promise<void>;
}

/**
 * Starts the pair: the receiver with `plan` (and `on`, else an `onMessage` recording into `seen`), the
 * emulator's source with the same plan and `schemaControls`, and its intake.
 */
export async function startPlanPair(
  plan: unknown,
  schemaControls?: SchemaControls,
  on?: ReceiverOptions['on'],
): Promise<PlanPair> {
  const seen: PlanPair['seen'] = [];
  const receiver = createReceiver({
    secret: SECRET,
    trackingPlan: compileTrackingPlan(plan), // the emulator's source (below) takes the plan as read
    ...(on
      ? { on }
      : { onMessage: (message: WebhookMessage, ctx: HandlerContext) => void seen.push({ message, ctx }) }),
  });
  const listener = toNodeListener(receiver);
  const server: RunningServer = await startHttpServer((req, res) => void listener(req, res));
  const emulator = createEmulator({
    sources: [
      {
        writeKey: KEY,
        webhooks: { enabled: true, endpoints: [{ url: `${server.url}/webhooks` }], sharedSecret: SECRET },
        trackingPlan: plan,
        ...(schemaControls && { schemaControls }),
      },
    ],
  });
  const intake: IntakeServer = await listenIntake(emulator);
  const basic = `Basic ${Buffer.from(`${KEY}:`).toString('base64')}`;
  return {
    emulator,
    seen,
    async call(path, body) {
      const res = await fetch(`${intake.url}/v1/${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: basic },
        body: JSON.stringify({ userId: 'u1', ...body }),
      });
      expect(res.status).toBe(200);
      await emulator.drain();
      return emulator.deliveries.at(-1)!;
    },
    async close() {
      await intake.close();
      await emulator.close();
      await server.close();
    },
  };
}
