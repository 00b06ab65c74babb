// Webhooks observed with OpenTelemetry, by one command: `pnpm example:otel`.
// Starts a redis-server, the Node SDK with the Prometheus exporter, an Express receiver that stores
// each verified message in BullMQ, and a worker; sends four signed deliveries (valid, its retry, a
// forged one, one breaking the tracking plan); prints where /metrics is, the answers, the trace of the
// valid delivery (receiver → job → worker) and the hookgate metrics Prometheus would scrape.
// `--serve` keeps everything running. PORT (default 3000), METRICS_PORT (default 9464), WEBHOOK_SECRET.
import { parseArgs } from 'node:util';
import { startRedisServer } from '../../test/helpers/redis-server.js';
import { startApp } from './app.js';
import { sendDeliveries } from './deliveries.js';
import { startTelemetry } from './telemetry.js';
import { traceTree } from './trace-tree.js';

const { values: args } = parseArgs({ options: { serve: { type: 'boolean', default: false } } });
const secret = process.env.WEBHOOK_SECRET ?? 'example-shared-secret';

const redis = await startRedisServer();
const telemetry = await startTelemetry({ metricsPort: Number(process.env.METRICS_PORT ?? 9464) });
const app = await startApp({
  secret,
  redis: { host: redis.host, port: redis.port },
  port: Number(process.env.PORT ?? 3000),
});
console.log(`Receiver:   POST ${app.url}`);
console.log(`Prometheus: GET  ${telemetry.metricsUrl}`);

console.log('\nFour signed deliveries:');
for (const sent of await sendDeliveries(app.url, secret)) console.log(`  ${sent.name}: ${sent.status} ${sent.code}`);
await app.processed(2);

const receive = telemetry.spans
  .getFinishedSpans()
  .find((s) => s.name === 'hookgate.receive' && s.attributes['hookgate.answer.code'] === 'ok');
if (receive) {
  console.log('\nThe valid delivery’s trace:');
  for (const line of traceTree(telemetry.spans.getFinishedSpans(), receive.spanContext().traceId))
    console.log(`  ${line}`);
}
const metrics = await (await fetch(telemetry.metricsUrl)).text();
console.log(`\nFrom ${telemetry.metricsUrl}:`);
for (const line of metrics.split('\n'))
  if (/^hookgate_(receiver_answers|plan_violations)/.test(line)) console.log(`  ${line}`);

if (args.serve) {
  console.log('\nServing; Ctrl-C to stop.');
  await new Promise((resolve) => process.once('SIGINT', resolve));
}
await app.close();
await telemetry.shutdown();
await redis.stop();
