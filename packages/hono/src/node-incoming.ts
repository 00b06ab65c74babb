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
 * `AbortSignal` made for it): the bytes, or `undefined` past `limit` bytes (the rest is then read and
 * dropped, so the client still gets the 413). Rejects when the request ends early or errors.
 *
 * @example
 * const bytes = await readIncoming(incoming, receiver.maxBodyBytes);
 * if (bytes === undefined) return toResponse(receiverResponse('payload_too_large', '…'));
 */
export function readIncoming(incoming: NodeIncoming, limit: number): Promise<Uint8Array | undefined> {
  return new Promise<Uint8Array | undefined>((resolve, reject) => {
    const chunks: Uint8Array[] = [];
    let size = 0;
    const cleanup = () => {
      incoming.removeListener('data', onData);
      incoming.removeListener('end', onEnd);
      incoming.removeListener('error', onError);
      incoming.removeListener('close', onClose);
    };
    const onData = (chunk: unknown) => {
      const bytes = typeof chunk === 'string' ? new TextEncoder().encode(chunk) : (chunk as Uint8Array);
      size += bytes.byteLength;
      if (size > limit) {
        cleanup();
        incoming.resume();
        resolve(undefined);
        return;
      }
      chunks.push(bytes);
    };
    const onEnd = () => {
      cleanup();
      resolve(chunks.length === 1 ? (chunks[0] as Uint8Array) : join(chunks, size));
    };
    const onError = (error: unknown) => {
      cleanup();
      reject(error);
    };
    const onClose = () => {
      cleanup();
      reject(new Error('The request closed before its body ended.'));
    };
    incoming.on('data', onData);
    incoming.on('end', onEnd);
    incoming.on('error', onError);
    incoming.on('close', onClose);
  });
}

function join(chunks: Uint8Array[], size: number): Uint8Array {
  const out = new Uint8Array(size);
  let offset = 0;
  for (const c of chunks) {
    out.set(c, offset);
    offset += c.byteLength;
  }
  return out;
}
