// Real servers on 127.0.0.1 with ephemeral ports, shared by the tests and the benchmarks.
import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** A running server: its base URL, port, and a closer that also ends keep-alive sockets. */
export interface RunningServer {
  url: string;
  port: number;
  server: http.Server;
  close(): Promise<void>;
}

/**
 * The origin of a port on 127.0.0.1 where nothing listens, so a connection is refused (ECONNREFUSED). Port 2 is
 * outside the ephemeral range, so no test server can take it, unlike the port of a server just closed (a test
 * running in parallel may be given that port), and it is not one of the ports `fetch` refuses to use.
 */
export const REFUSED_ORIGIN = 'http://127.0.0.1:2';

/** A request listener; an async one (e.g. `toNodeListener(receiver)`) may return its promise. */
export type TestListener = (req: http.IncomingMessage, res: http.ServerResponse) => unknown;

/** Starts a node:http server on 127.0.0.1 with an ephemeral port; see `reportingRejections` for an async listener. */
export async function startHttpServer(listener: TestListener): Promise<RunningServer> {
  return listenOnLoopback(http.createServer({ keepAliveTimeout: 30_000 }, reportingRejections(listener)));
}

/**
 * A node:http listener from one that may return a promise: a rejection ends the request (500, or the socket
 * when the head is out) and is thrown again outside the promise, so the test run reports it.
 */
export function reportingRejections(listener: TestListener): http.RequestListener {
  return (req, res) => {
    const pending = listener(req, res);
    if (!(pending instanceof Promise)) return;
    pending.catch((error: unknown) => {
      if (res.headersSent) res.destroy();
      else res.writeHead(500).end();
      setImmediate(() => {
        throw error;
      });
    });
  };
}

/** Listens with an existing server (e.g. @hono/node-server's) on 127.0.0.1 with an ephemeral port. */
export async function listenOnLoopback(server: http.Server): Promise<RunningServer> {
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Reads a Node request body as bytes. */
export async function readAll(req: http.IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
