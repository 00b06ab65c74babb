// The `telemetry` option is checked where it is given: something that is not a Telemetry is refused at
// creation, naming the option, what it lacks and the fix.
import { createReceiver } from '@hookgate/core';
import { createWorker } from '@hookgate/bullmq';
import { createEmulator } from '@hookgate/emulator';
import { expect, it } from 'vitest';
import type { Telemetry } from '@hookgate/core';

const notTelemetry = { receive: () => undefined } as unknown as Telemetry;

it('createReceiver, createWorker and createEmulator refuse a telemetry that is not one', () => {
  expect(() => createReceiver({ secret: 's', onMessage() {}, telemetry: notTelemetry })).toThrow(
    /createReceiver: telemetry must implement Telemetry .*openTelemetry\(\) from @hookgate\/otel; missing process, deliver/,
  );
  expect(() =>
    createWorker('q', { connection: { host: '127.0.0.1', port: 1 }, onMessage() {}, telemetry: notTelemetry }),
  ).toThrow(/createWorker: telemetry must implement Telemetry/);
  expect(() => createEmulator({ telemetry: null as unknown as Telemetry })).toThrow(
    /createEmulator: telemetry must implement Telemetry .*missing receive, process, deliver/,
  );
});
