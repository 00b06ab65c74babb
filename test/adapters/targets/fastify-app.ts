// The Fastify conformance target: every scenario at /webhooks/<scenario>, the recorder at /_seen.
import Fastify, { type FastifyInstance } from 'fastify';
import { hookgate, hookgateRawBody, webhookRoute } from '@hookgate/fastify';
import { NEEDS_HANDLERS, type Recorder, SCENARIO_NAMES } from '../conformance-scenarios.js';

/** `plugin`: the plugin's own route with `on` handlers. `route`: `webhookRoute()` on routes of our own. */
export type FastifyMode = 'plugin' | 'route';

/** Builds the Fastify app of the conformance table (not yet listening). */
export async function buildFastifyApp(recorder: Recorder, mode: FastifyMode): Promise<FastifyInstance> {
  const app = Fastify();
  app.get('/_seen', async () => recorder.report());
  for (const scenario of SCENARIO_NAMES) {
    const path = `/webhooks/${scenario}`;
    if (mode === 'plugin' || NEEDS_HANDLERS.has(scenario)) {
      await app.register(hookgate, { ...recorder.options(scenario), path, on: recorder.on(scenario) });
    } else {
      const handler = recorder.handler(scenario, 'route');
      await app.register(async (scope) => {
        await scope.register(hookgateRawBody);
        scope.all(path, webhookRoute(recorder.options(scenario)), async (request) => {
          await handler(request.webhook!, request.webhookContext!);
          return { ok: true, route: true };
        });
      });
    }
  }
  return app;
}
