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

/** Starts a node:http server on 127.0.0.1 with an ephemeral port. */
export async function startHttpServer(listener: http.RequestListener): Promise<RunningServer> {
  return listenOnLoopback(http.createServer({ keepAliveTimeout: 30_000 }, listener));
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
