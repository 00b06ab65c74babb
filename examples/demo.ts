// `pnpm demo`: the whole path on one laptop. A client (@hookgate/client) sends one call of every
// type to the emulator's intake; the emulator delivers each, signed, to the Express example receiver
// (examples/express-receiver); one more message goes to a second endpoint that answers 500 first,
// and is retried. Prints a table and exits 0 when every row is as expected (1 otherwise), in seconds.
import { randomBytes } from 'node:crypto';
import { Analytics } from '@hookgate/client';
import { verify } from '@hookgate/core';
import { createEmulator, type DeliveryRecord } from '@hookgate/emulator';
import { formatDemoTable, rowOk, type DemoRow } from './demo/demo-table.js';
import { startFlakyReceiver } from './demo/flaky-receiver.js';
import { start as startExpressReceiver } from './express-receiver/server.js';

const started = Date.now();
const secret = randomBytes(16).toString('hex');
const receiver = await startExpressReceiver({ port: 0, secret });
const flaky = await startFlakyReceiver({ secret });

const emulator = createEmulator({
  sources: [
    {
      writeKey: 'demo_app',
      name: 'Demo app',
      webhooks: { enabled: true, endpoints: [{ url: receiver.url }], sharedSecret: secret },
    },
    {
      writeKey: 'demo_billing',
      name: 'Billing',
      webhooks: { enabled: true, endpoints: [{ url: flaky.url }], sharedSecret: secret },
    },
  ],
  includeIds: true, // messages carry the client's messageId, so each row can be matched to what the handler saw
  retry: { initialDelayMs: 250, jitter: 'none' }, // the 500-first endpoint gets its retry within a second
});
const intake = await emulator.listen();
console.log(`intake    ${intake.url}  (the emulator's tracking API)`);
console.log(`receiver  ${receiver.url}  (examples/express-receiver, Express 5 + @hookgate/express)`);
console.log(`flaky     ${flaky.url}  (answers 500 to each message's first delivery)\n`);

const app = new Analytics('demo_app', { endpoint: intake.url, flushAt: 20 });
const billing = new Analytics('demo_billing', { endpoint: intake.url, flushAt: 20 });
const userId = 'user_1001';
app.identify({ userId, traits: { email: 'ada@example.com', name: 'Ada Lovelace', plan: 'premium' } });
app.track({ userId, event: 'Order Completed', properties: { orderId: 'ord_77', revenue: 42.5, currency: 'EUR' } });
app.page({
  userId,
  name: 'Pricing',
  properties: { path: '/pricing', title: 'Pricing', url: 'https://app.example.com/pricing' },
});
app.screen({ userId, name: 'Home', context: { os: { name: 'iOS', version: '17.1' } } });
app.group({ userId, groupId: 'acme_inc', traits: { name: 'Acme Inc', employees: 120 } });
app.alias({ previousId: 'anon_5e1f', userId });
billing.track({ userId, event: 'Invoice Paid', properties: { invoiceId: 'inv_9', amount: 99 } });
await Promise.all([app.close(), billing.close()]);

const drained = await Promise.race([
  emulator.drain().then(() => true),
  new Promise<false>((resolve) => setTimeout(() => resolve(false), 20_000).unref()),
]);

const rows: DemoRow[] = emulator.deliveries.map((record: DeliveryRecord) => {
  const last = record.attempts.at(-1);
  const headers = last?.requestHeaders ?? {};
  const signature = Object.entries(headers).find(([k]) => k.toLowerCase() === 'x-signature')?.[1];
  const messageId = (record.message as { messageId?: string } | undefined)?.messageId;
  const toFlaky = record.writeKey === 'demo_billing';
  const seen = toFlaky ? flaky.seen : receiver.seen;
  return {
    type: record.type,
    endpoint: last?.endpoint ?? '(none)',
    attempts: record.attempts.length,
    finalStatus: last ? String(last.status ?? last.error?.code ?? 'error') : record.state,
    signatureVerified: last !== undefined && verify({ signature, secret, rawBody: last.body }).ok,
    handlerSaw: messageId !== undefined && seen.some((m) => (m as { messageId?: string }).messageId === messageId),
    expected: toFlaky ? { attempts: 2, finalStatus: '200' } : { attempts: 1, finalStatus: '200' },
  };
});

console.log(formatDemoTable(rows));
await intake.close();
await emulator.close();
await receiver.close();
await flaky.close();

const expectedTypes = ['identify', 'track', 'page', 'screen', 'group', 'alias', 'track'];
const allTypes = JSON.stringify(rows.map((r) => r.type).sort()) === JSON.stringify([...expectedTypes].sort());
const ok = drained && allTypes && rows.every(rowOk);
const seconds = ((Date.now() - started) / 1000).toFixed(1);
if (ok) {
  console.log(`\nEvery message delivered, signed and verified; the 500 was retried. Done in ${seconds} s.`);
} else {
  console.error(
    `\nThe demo did not go as expected${drained ? '' : ' (deliveries still pending after 20 s)'}: see the rows marked XX.`,
  );
}
process.exitCode = ok ? 0 : 1;
