// The inspector's delivery view (its JSON API, over real HTTP) shows what a source's tracking plan did
// to a delivery: its violations and the properties omitted, read from the body sent, for the Webhooks
// destination and the Webhooks (Actions) destination alike; a delivery the plan left alone has none.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHttpServer, type RunningServer } from '../../../../test/helpers/servers.js';
import { createEmulator, type Emulator } from '../../src/index.js';

const plan: unknown = JSON.parse(
  readFileSync(new URL('../../../../test/fixtures/tracking-plans/public-api-rules.json', import.meta.url), 'utf8'),
);

let receiver: RunningServer;
let emulator: Emulator;
let intake: { url: string; close(): Promise<void> };

beforeAll(async () => {
  receiver = await startHttpServer((_req, res) => void res.end('ok'));
  const controls = { unplannedProperties: 'omit', violations: 'omit' } as const;
  emulator = createEmulator({
    sources: [
      {
        writeKey: 'wk_classic',
        webhooks: { enabled: true, endpoints: [{ url: `${receiver.url}/hook` }], sharedSecret: 's' },
        trackingPlan: plan,
        schemaControls: controls,
      },
      {
        writeKey: 'wk_actions',
        trackingPlan: plan,
        schemaControls: controls,
        webhooksActions: {
          sharedSecret: 's',
          subscriptions: [
            {
              subscribe: 'type = "track"',
              partnerAction: 'send',
              mapping: { url: `${receiver.url}/actions`, method: 'POST', data: { '@path': '$.' } },
            },
          ],
        },
      },
    ],
  });
  intake = await emulator.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  await intake.close();
  await emulator.close();
  await receiver.close();
});

const detail = async (id: string) =>
  (await (await fetch(`${intake.url}/_hookgate/ui/api/deliveries/${id}`)).json()) as { protocols?: unknown };

describe('the inspector shows what the tracking plan did', () => {
  it.each(['wk_classic', 'wk_actions'])('violations and omitted fields of a delivery (%s)', async (writeKey) => {
    const properties = { order_id: 'o1', total: 12, currency: 'GBP', utm: 'x' };
    const record = emulator.track({ userId: 'u1', event: 'Order Completed', properties }, { writeKey });
    const clean = emulator.track(
      { userId: 'u1', event: 'Order Completed', properties: { order_id: 'o2', total: 3 } },
      { writeKey },
    );
    await emulator.drain();
    expect(record.state).toBe('delivered');
    expect((await detail(record.id)).protocols).toEqual({
      violations: [
        {
          type: 'Invalid Enum',
          field: 'properties.currency',
          description: 'must be equal to one of the allowed values: "EUR", "USD"',
        },
      ],
      omitted: ['utm'],
      omittedOnViolation: ['currency'],
    });
    expect((await detail(clean.id)).protocols).toBeUndefined();
  });
});
