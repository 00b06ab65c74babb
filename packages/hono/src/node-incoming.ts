import { readNodeStream } from '@hookgate/core';

/**
 * The parts of Node's `IncomingMessage` the middleware reads on `@hono/node-server`, which passes
 * `{ incoming, outgoing }` as Hono's `c.env`.
 *
 * @example
 * const incoming: NodeIncoming | undefined = nodeIncomingOf(c.env);
 */
export interface NodeIncoming {
  headers: Record<string, string | string[] | undefined>;
  rawHeaders: string[];
  readableDidRead?: boolean;
  readableFlowing?: boolean | null;
  readableEnded?: boolean;
  on(event: string, listener: (arg?: unknown) => void): unknown;
  removeListener(event: string, listener: (arg?: unknown) => void): unknown;
  resume(): unknown;
}

/**
 * The Node request behind a Hono context on `@hono/node-server` (its `c.env.incoming`), or
 * `undefined` on other runtimes (Bun, Deno, Workers) and behind other Node adapters.
 *
 * @example
 * const incoming = nodeIncomingOf(c.env);
 * const headers = incoming ? incoming.headers : c.req.raw.headers; // a plain object: no Fetch `Headers` built
 */
export function nodeIncomingOf(env: unknown): NodeIncoming | undefined {
  const incoming = (env as { incoming?: unknown } | undefined | null)?.incoming as Partial<NodeIncoming> | undefined;
  if (
    typeof incoming !== 'object' ||
    incoming === null ||
    typeof incoming.headers !== 'object' ||
    !Array.isArray(incoming.rawHeaders) ||
    typeof incoming.on !== 'function'
  ) {
    return undefined;
  }
  return incoming as NodeIncoming;
}

/** True when nothing has read or started to read the body stream (Hono's `Request` was not made from it). */
export function bodyUntouched(incoming: NodeIncoming): boolean {
  return incoming.readableDidRead === false && (incoming.readableFlowing ?? null) === null && incoming.readableEnded !== true;
}

/**
 * Reads a Node request body straight off the `IncomingMessage` (no Fetch `Request`, web stream or
 * `AbortSignal` made for it): core's `readNodeStream` — the bytes, or `undefined` past `limit`.
 *
 * @example
 * const bytes = await readIncoming(incoming, receiver.maxBodyBytes);
 */
export const readIncoming: (incoming: NodeIncoming, limit: number) => Promise<Uint8Array | undefined> = readNodeStream;
