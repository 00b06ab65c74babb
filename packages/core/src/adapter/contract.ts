import type { FrameworkAdapter } from '../receiver/adapter-contract.js';
import type { Receiver } from '../receiver/receiver.js';

export type { AdapterBody, AdapterLimits, FrameworkAdapter } from '../receiver/adapter-contract.js';

/**
 * Runs a receiver over a framework through its adapter (`receiver.serve`): precheck (405, 415, 413
 * before reading), the body read, then either the receiver's handlers and its answer, or
 * (`passThrough`) the verified message handed to the framework's next handler under the deadline,
 * the receiver answering only when that did not (at the deadline, or 500 when it failed).
 *
 * @example
 * const handle = createAdapterHandler(receiver, expressAdapter, isPassThrough(options));
 * app.use((req, res, next) => void handle({ req, res, next }));
 */
export function createAdapterHandler<Call, Result, TExtra>(
  receiver: Receiver<TExtra>,
  adapter: FrameworkAdapter<Call, Result, TExtra>,
  passThrough: boolean,
): (call: Call) => Promise<Result> {
  return receiver.serve(adapter, passThrough);
}
