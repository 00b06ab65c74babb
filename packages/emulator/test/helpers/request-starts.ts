// Watches every outgoing node:http request of this process as it starts (Node's
// `http.client.request.start` diagnostics channel, published when the request gets its socket, in
// the same tick as the emulator's `http.request` call), so a test can order request starts against
// the emulator's events without asking the emulator.
import dc from 'node:diagnostics_channel';
import type http from 'node:http';

/** One request start: where to and which message (its `X-Signature`, unique per body and secret). */
export interface RequestStart {
  /** The request's path (give each endpoint its own). */
  path: string;
  signature: string;
}

/** Calls `onStart` for every request start until the returned function is called. */
export function watchRequestStarts(onStart: (start: RequestStart) => void): () => void {
  const listener = (message: unknown) => {
    const request = (message as { request: http.ClientRequest }).request;
    onStart({ path: request.path, signature: String(request.getHeader('x-signature') ?? '') });
  };
  dc.subscribe('http.client.request.start', listener);
  return () => dc.unsubscribe('http.client.request.start', listener);
}
