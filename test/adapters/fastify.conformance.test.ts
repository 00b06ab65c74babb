// The shared conformance table against @hookgate/fastify: the plugin's route and webhookRoute() on a route of our own.
import type { AddressInfo } from 'node:net';
import { runConformance, type ConformanceTarget } from './conformance.js';
import { Recorder } from './conformance-scenarios.js';
import { buildFastifyApp, type FastifyMode } from './targets/fastify-app.js';

async function start(mode: FastifyMode): Promise<ConformanceTarget> {
  const app = await buildFastifyApp(new Recorder(), mode);
  await app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = app.server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, close: () => app.close() };
}

runConformance('fastify, the plugin with `on`', () => start('plugin'));
runConformance('fastify, webhookRoute() preHandler on our own route (request.webhook)', () => start('route'), {
  passThrough: true,
});
