// The shared conformance table against @hookgate/express, both ways of mounting it.
import { startHttpServer } from '../helpers/servers.js';
import { runConformance } from './conformance.js';
import { Recorder } from './conformance-scenarios.js';
import { buildExpressApp } from './targets/express-app.js';

runConformance('express, handlers in `on`', async () => startHttpServer(buildExpressApp(new Recorder(), 'on')));
runConformance(
  'express, pass-through to the route (req.webhook)',
  async () => startHttpServer(buildExpressApp(new Recorder(), 'next')),
  {
    passThrough: true,
  },
);
