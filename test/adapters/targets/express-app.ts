// The Express conformance target: every scenario at /webhooks/<scenario>, the recorder at /_seen.
import express from 'express';
import { hookgate, hookgateErrorHandler } from '@hookgate/express';
import { NEEDS_HANDLERS, type Recorder, SCENARIO_NAMES } from '../conformance-scenarios.js';

/** `on`: handlers given to the middleware. `next`: pass-through, the route reads `req.webhook`. */
export type ExpressMode = 'on' | 'next';

/** Builds the Express app of the conformance table. */
export function buildExpressApp(recorder: Recorder, mode: ExpressMode): express.Express {
  const app = express();
  app.get('/_seen', (_req, res) => {
    res.json(recorder.report());
  });
  for (const scenario of SCENARIO_NAMES) {
    const path = `/webhooks/${scenario}`;
    if (mode === 'on' || NEEDS_HANDLERS.has(scenario)) {
      app.all(path, hookgate({ ...recorder.options(scenario), on: recorder.on(scenario) }));
    } else {
      const handler = recorder.handler(scenario, 'route');
      app.all(path, hookgate(recorder.options(scenario)), async (req, res) => {
        await handler(req.webhook!, req.webhookContext!);
        res.json({ ok: true, route: true });
      });
    }
  }
  app.use(hookgateErrorHandler());
  return app;
}
