// The shared conformance table against core's own `fetch` handler and `toNodeListener`, no framework.
import type { Server } from 'node:http';
import { createAdaptorServer } from '@hono/node-server';
import { createReceiver, toNodeListener } from '@hookgate/core';
import { listenOnLoopback, startHttpServer } from '../helpers/servers.js';
import { runConformance, type ConformanceTarget } from './conformance.js';
import { Recorder, SCENARIO_NAMES, type ScenarioName } from './conformance-scenarios.js';
import { buildCoreFetch } from './targets/core-fetch.js';

runConformance("core's receiver.fetch (served by @hono/node-server's Fetch adaptor)", (): Promise<ConformanceTarget> =>
  listenOnLoopback(createAdaptorServer({ fetch: buildCoreFetch(new Recorder()), hostname: '127.0.0.1' }) as Server),
);

runConformance("core's toNodeListener on node:http", async () => {
  const recorder = new Recorder();
  const listeners = new Map(
    SCENARIO_NAMES.map(
      (s) => [s, toNodeListener(createReceiver({ ...recorder.options(s), on: recorder.on(s) }))] as const,
    ),
  );
  return startHttpServer((req, res) => {
    if (req.url === '/_seen')
      return void res.setHeader('content-type', 'application/json').end(JSON.stringify(recorder.report()));
    const listener = listeners.get((req.url ?? '').replace(/^\/webhooks\//, '') as ScenarioName);
    if (!listener) return void res.writeHead(404).end();
    void listener(req, res);
  });
});
