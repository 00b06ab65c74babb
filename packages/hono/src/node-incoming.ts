import {
  readNodeStreamWithin,
  type NodeBodyRefusal,
  type UnreadBodyRequest,
  type UnreadBodyResponse,
} from '@hookgate/core/adapter';

/**
 * The parts of Node's `IncomingMessage` the middleware reads on `@hono/node-server`, which passes
 * `{ incoming, outgoing }` as Hono's `c.env`.
 *
 * @example
 * const incoming: NodeIncoming | undefined = nodeIncomingOf(c.env);
 */
export interface NodeIncoming extends UnreadBodyRequest {
  headers: Record<string, string | string[] | undefined>;
  rawHeaders: string[];
  readableDidRead?: boolean;
  readableFlowing?: boolean | null;
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
  return (
    incoming.readableDidRead === false && (incoming.readableFlowing ?? null) === null && incoming.readableEnded !== true
  );
}

/**
 * The Node response behind a Hono context on `@hono/node-server` (its `c.env.outgoing`), or `undefined`.
 *
 * @example
 * const outgoing = nodeOutgoingOf(c.env);
 */
export function nodeOutgoingOf(env: unknown): UnreadBodyResponse | undefined {
  const outgoing = (env as { outgoing?: unknown } | undefined | null)?.outgoing as
    Partial<UnreadBodyResponse> | undefined;
  return typeof outgoing === 'object' && outgoing !== null && typeof outgoing.once === 'function'
    ? (outgoing as UnreadBodyResponse)
    : undefined;
}

/**
 * Reads a Node request body straight off the `IncomingMessage` (no Fetch `Request`, web stream or
 * `AbortSignal` made for it): core's `readNodeStreamWithin` — the bytes, or why it stopped (over
 * `limit`, or still arriving at `deadlineAt`).
 *
 * @example
 * const read = await readIncoming(incoming, receiver.maxBodyBytes, receivedAt + receiver.deadlineMs);
 */
export const readIncoming: (
  incoming: NodeIncoming,
  limit: number,
  deadlineAt: number,
) => Promise<Uint8Array | NodeBodyRefusal> = readNodeStreamWithin;
