// The inspector's JSON views for a message delivered by endpoint 1 while endpoint 2 answered 500: endpoint
// 2's status reads "not retried — endpoint 1 accepted" beside its last status, in both orders (its
// failure after or before the acceptance). Real emulator, intake and receivers on 127.0.0.1; the order
// made certain by holding one receiver's answer until the emulator logged the other's.
import { afterEach, describe, expect, it } from 'vitest';
import { createEmulator, type Emulator, type IntakeServer } from '@hookgate/emulator';
import type { RunningServer } from '../../../../test/helpers/servers.js';
import { startGatedReceiver } from '../helpers/gated-receiver.js';

const PASSWORD = 'pw-of-endpoint-2-4711';

interface EndpointStatus {
  endpoint: string;
  outcome?: string;
  lastStatus?: number | string;
  words: string;
}

describe('inspector views: an endpoint not retried because another accepted', () => {
  let emulator: Emulator | undefined;
  let intake: IntakeServer | undefined;
  const servers: RunningServer[] = [];
  afterEach(async () => {
    await intake?.close();
    await emulator?.close();
    for (const s of servers.splice(0)) await s.close();
    emulator = intake = undefined;
  });

  async function run(order: 'after' | 'before') {
    const a = await startGatedReceiver(200);
    const b = await startGatedReceiver(500);
    servers.push(a.server, b.server);
    const urlA = `${a.server.url}/a`;
    const urlB = `http://hook:${PASSWORD}@127.0.0.1:${b.server.port}/b`;
    const shownB = `http://hook:***@127.0.0.1:${b.server.port}/b`;
    emulator = createEmulator({
      retry: { initialDelayMs: 20, jitter: 'none', windowMs: 60_000 },
      sources: [{ writeKey: 'wk', webhooks: { enabled: true, endpoints: [{ url: urlA }, { url: urlB }] } }],
    });
    // B fails after A accepted: B answers once A's attempt is logged; before: the other way round.
    emulator.on('attempt', (attempt) => {
      if (order === 'after' && attempt.endpoint === urlA) b.open();
      if (order === 'before' && attempt.endpoint === shownB) a.open();
    });
    (order === 'after' ? a : b).open();
    intake = await emulator.listen();
    const record = emulator.track({ userId: 'u1', event: 'Signed Up' });
    await emulator.drain();
    const get = async (path: string) => {
      const res = await fetch(`${intake!.url}${path}`);
      expect(res.status).toBe(200);
      return (await res.json()) as Record<string, unknown>;
    };
    return {
      urlA,
      shownB,
      record,
      detail: await get(`/_hookgate/ui/api/deliveries/${record.id}`),
      list: await get('/_hookgate/ui/api/deliveries'),
      raw: await get('/_hookgate/deliveries'),
    };
  }

  it('B failed after A accepted: its attempt and its status say "not retried — endpoint 1 accepted"', async () => {
    const { urlA, shownB, record, detail, list, raw } = await run('after');
    expect(detail.state).toBe('delivered');
    expect(detail.lastStatus).toBe(500); // the last attempt is B's
    expect(detail.lastStatusNote).toBe('not retried — endpoint 1 accepted');
    expect(detail.endpointStatuses).toEqual([
      { endpoint: urlA, outcome: 'delivered', lastStatus: 200, words: 'delivered' },
      { endpoint: shownB, outcome: 'not-retried', lastStatus: 500, words: 'not retried — endpoint 1 accepted' },
    ] satisfies EndpointStatus[]);
    expect((detail.attemptList as Array<Record<string, unknown>>).at(-1)).toMatchObject({
      endpoint: shownB,
      status: 500,
      outcome: 'not-retried',
      notRetriedBecause: 'endpoint 1 accepted',
    });
    // The list's row says what its "Last status 500" means beside "delivered".
    const row = (list.items as Array<Record<string, unknown>>).find((r) => r.id === record.id);
    expect(row).toMatchObject({
      state: 'delivered',
      lastStatus: 500,
      lastStatusNote: 'not retried — endpoint 1 accepted',
    });
    // The deliveries JSON view: the record's fields, the endpoint's password masked.
    const item = (raw.deliveries as Array<Record<string, unknown>>).find((r) => r.id === record.id);
    expect(item).toMatchObject({ deliveredBy: 1, cancelled: [] });
    expect((item!.attempts as Array<Record<string, unknown>>).at(-1)).toMatchObject({
      outcome: 'not-retried',
      notRetriedBecause: 'endpoint 1 accepted',
    });
    expect(JSON.stringify([detail, list, raw])).not.toContain(PASSWORD);
  });

  it('B failed before A accepted: its status reads "not retried — endpoint 1 accepted" too, its retry cancelled', async () => {
    const { urlA, shownB, record, detail, list, raw } = await run('before');
    expect(detail.state).toBe('delivered');
    expect(detail.lastStatus).toBe(200); // the last attempt is A's
    expect(detail.lastStatusNote).toBeUndefined();
    expect(detail.endpointStatuses).toEqual([
      { endpoint: shownB, outcome: 'not-retried', lastStatus: 500, words: 'not retried — endpoint 1 accepted' },
      { endpoint: urlA, outcome: 'delivered', lastStatus: 200, words: 'delivered' },
    ] satisfies EndpointStatus[]);
    const row = (list.items as Array<Record<string, unknown>>).find((r) => r.id === record.id);
    expect(row?.lastStatusNote).toBeUndefined();
    const item = (raw.deliveries as Array<Record<string, unknown>>).find((r) => r.id === record.id);
    expect(item?.cancelled).toEqual([
      expect.objectContaining({
        endpoint: shownB,
        round: 2,
        reason: expect.stringMatching(/^endpoint 1 \(/) as unknown,
      }),
    ]);
    // The cancelled retry's endpoint is masked like attempt endpoints (it was the raw URL).
    expect(JSON.stringify([detail, list, raw])).not.toContain(PASSWORD);
  });
});
