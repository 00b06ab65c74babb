import type { AddressInfo } from 'node:net';
import { assertInspectorExposure } from '../inspector/index.js';
import { closeBoundedServer, createBoundedServer } from '../server-timeouts.js';
import type { IntakeEngine } from './intake-engine.js';
import type { IntakeListenOptions, IntakeServer } from './intake-options.js';
import { intakeListenerFor } from './intake-server.js';

/**
 * Starts the intake on `node:http` (127.0.0.1 and a free port by default) and resolves once it listens.
 *
 * @example
 * const intake = await listenIntake(emulator, { port: 8080 });
 * const analytics = new Analytics({ writeKey: 'wk_1', host: intake.url });
 * // ...
 * await intake.close();
 */
export async function listenIntake(engine: IntakeEngine, options: IntakeListenOptions = {}): Promise<IntakeServer> {
  const { port = 0, host = '127.0.0.1', ...intakeOptions } = options;
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new RangeError(
      `listen option port must be a whole number from 0 to 65535 (got ${JSON.stringify(port)}); 0 picks a free port.`,
    );
  }
  if (typeof host !== 'string' || host.length === 0) {
    throw new TypeError(
      `listen option host must be a hostname or IP address such as "127.0.0.1" (got ${JSON.stringify(host)}).`,
    );
  }
  assertInspectorExposure(host, intakeOptions.inspector);
  const { timeouts, ...rest } = intakeOptions;
  const { listener, inspector } = intakeListenerFor(engine, rest, host);
  const server = createBoundedServer(listener, timeouts);
  await new Promise<void>((resolve, reject) => {
    const onError = (error: Error) => reject(error);
    server.once('error', onError);
    server.listen(port, host, () => {
      server.off('error', onError);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  let closing: Promise<void> | undefined;
  return {
    url: `http://${shownHost}:${address.port}`,
    port: address.port,
    host: address.address,
    server,
    close() {
      closing ??= new Promise<void>((resolve, reject) => {
        inspector?.close();
        closeBoundedServer(server, (error) => (error ? reject(error) : resolve()));
      });
      return closing;
    },
  };
}
