// The core conformance target: core's `fetch` handler per scenario, no framework at all.
import { createReceiver } from '@hookgate/core';
import { type Recorder, SCENARIO_NAMES, type ScenarioName } from '../conformance-scenarios.js';

/** A Fetch handler with `drain()`: waits for the handlers still running (acknowledge mode), e.g. in a Worker's `ctx.waitUntil`. */
export type CoreFetch = ((request: Request) => Promise<Response>) & { drain(): Promise<void> };

/** A Fetch handler routing `/webhooks/<scenario>` to core's `receiver.fetch` and `/_seen` to the recorder. */
export function buildCoreFetch(recorder: Recorder): CoreFetch {
  const receivers = new Map(
    SCENARIO_NAMES.map((s) => [s, createReceiver({ ...recorder.options(s), on: recorder.on(s) })] as const),
  );
  const fetch = async (request: Request): Promise<Response> => {
    const { pathname } = new URL(request.url);
    if (pathname === '/_seen') return Response.json(recorder.report());
    const receiver = receivers.get(pathname.replace(/^\/webhooks\//, '') as ScenarioName);
    return receiver ? receiver.fetch(request) : new Response('not found', { status: 404 });
  };
  return Object.assign(fetch, {
    drain: async () => void (await Promise.all([...receivers.values()].map((r) => r.drain()))),
  });
}
