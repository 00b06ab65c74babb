// The client README's example, runnable against `hookgate serve`: a few calls sent through
// @hookgate/client to the intake at INTAKE_URL (default http://127.0.0.1:8080) with the write key
// WRITE_KEY (default hookgate-dev, the key `hookgate serve` accepts by default).
// Exits 0 when every batch was accepted; otherwise prints each whole error and exits 1.
//
//   npx hookgate serve --endpoint http://127.0.0.1:3000/webhooks --secret s3cret   # in one terminal
//   node --import tsx examples/client-quickstart.ts                                 # in another
import { Analytics, type DeliveryError } from '@hookgate/client';

const failures: DeliveryError[] = [];
const analytics = new Analytics(process.env.WRITE_KEY ?? 'hookgate-dev', {
  endpoint: process.env.INTAKE_URL ?? 'http://127.0.0.1:8080', // posts to <endpoint>/v1/batch
  onError: (error) => {
    failures.push(error);
    console.error(`${error.name}: ${error.message}`);
    console.error(
      `  ${error.messages.length} message(s) not delivered: ${error.messages.map((m) => m.messageId).join(', ')}`,
    );
  },
});

analytics.identify({ userId: 'u1', traits: { email: 'ada@example.com', plan: 'pro' } });
analytics.track({ userId: 'u1', event: 'Order Completed', properties: { revenue: 42 } });
analytics.page({ userId: 'u1', name: 'Pricing', properties: { url: 'https://example.com/pricing' } });
analytics.group({ userId: 'u1', groupId: 'acme', traits: { employees: 42 } });
analytics.alias({ previousId: 'a1', userId: 'u1' });

await analytics.close(); // sends what is queued and waits for the answers

if (failures.length > 0) {
  console.error(`${failures.length} batch(es) failed.`);
  process.exitCode = 1;
} else {
  console.log('5 calls accepted by the intake.');
}
