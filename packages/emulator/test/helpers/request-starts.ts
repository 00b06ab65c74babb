// Watches every delivery request of this process as it starts (the emulator's
// `REQUEST_START_CHANNEL` diagnostics channel, published when the request is handed to its socket, in
// the same tick as the engine sends it), so a test can order request starts against the emulator's
// events without asking the emulator.
import dc from 'node:diagnostics_channel';
import { REQUEST_START_CHANNEL } from '../../src/delivery/http-attempt.js';

/** One request start: where to and which message (its `X-Signature`, unique per body and secret). */
export interface RequestStart {
  /** The request's path (give each endpoint its own). */
  path: string;
  signature: string;
}

/** Calls `onStart` for every request start until the returned function is called. */
export function watchRequestStarts(onStart: (start: RequestStart) => void): () => void {
  const listener = (message: unknown) => {
    const { url, signature } = message as { url: URL; signature: string | undefined };
    onStart({ path: `${url.pathname}${url.search}`, signature: signature ?? '' });
  };
  dc.subscribe(REQUEST_START_CHANNEL, listener);
  return () => dc.unsubscribe(REQUEST_START_CHANNEL, listener);
}
