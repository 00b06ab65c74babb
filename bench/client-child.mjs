// One client of bench/client.ts in a process of its own, on plain node (no tsx, no TypeScript loader),
// importing the BUILT @hookgate/client (packages/client/dist, through the workspace's node_modules link)
// or @segment/analytics-node. Prints one JSON line: calls, ms, peak RSS, RSS after close, what it loaded.
//
//   node bench/client-child.mjs <hookgate|analytics-node> <intake url> <calls> <flushAt>
import { fileURLToPath } from 'node:url';

const [client, url, callsArg, flushAtArg] = process.argv.slice(2);
const calls = Number(callsArg);
const flushAt = Number(flushAtArg);
const WRITE_KEY = 'bench_write_key';
/** Yields to the event loop every so many calls, as a busy server does between requests. */
const CHUNK = 1000;
const yieldToLoop = () => new Promise((resolve) => setImmediate(resolve));

function trackParams(i) {
  return {
    userId: `user-${i % 5000}`,
    event: 'Order Completed',
    properties: { orderId: `order-${i}`, revenue: 19.99, currency: 'EUR', sku: 'SKU-123', quantity: 1 + (i % 3) },
  };
}

let ms;
let loaded;
if (client === 'hookgate') {
  loaded = fileURLToPath(import.meta.resolve('@hookgate/client'));
  const { Analytics } = await import('@hookgate/client');
  const analytics = new Analytics(WRITE_KEY, { endpoint: url, flushAt, onError: (e) => console.error(e.message) });
  const start = performance.now();
  for (let i = 0; i < calls; i++) {
    analytics.track(trackParams(i));
    if (i % CHUNK === CHUNK - 1) await yieldToLoop();
  }
  await analytics.close();
  ms = performance.now() - start;
} else if (client === 'analytics-node') {
  loaded = fileURLToPath(import.meta.resolve('@segment/analytics-node'));
  const { Analytics } = await import('@segment/analytics-node');
  const analytics = new Analytics({ writeKey: WRITE_KEY, host: url, flushAt, maxRetries: 3 });
  analytics.on('error', (e) => console.error(e));
  const start = performance.now();
  for (let i = 0; i < calls; i++) {
    analytics.track(trackParams(i));
    if (i % CHUNK === CHUNK - 1) await yieldToLoop();
  }
  await analytics.closeAndFlush({ timeout: 300_000 });
  ms = performance.now() - start;
} else {
  console.error(`unknown client "${client}": hookgate or analytics-node`);
  process.exit(2);
}
// Peak: the kernel's high-water mark for the whole run. After close: what is still resident once the
// client has flushed and closed (no forced GC), labelled as such in the report.
const result = {
  calls,
  ms,
  maxRssKb: process.resourceUsage().maxRSS,
  rssAfterCloseKb: Math.round(process.memoryUsage().rss / 1024),
  loaded,
};
process.stdout.write(`${JSON.stringify(result)}\n`);
