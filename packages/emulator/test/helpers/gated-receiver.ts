// A real HTTP receiver on 127.0.0.1 that holds every answer until the test opens its gate: it makes
// the order of two endpoints' answers certain (one answers only after the emulator logged the other's).
import { startHttpServer, type RunningServer } from '../../../../test/helpers/servers.js';

export interface GatedReceiver {
  server: RunningServer;
  /** Lets every request, held or to come, be answered. */
  open(): void;
  /** Requests received so far. */
  requests(): number;
}

/** Starts a receiver that reads each body, waits for `open()`, then answers `status`. */
export async function startGatedReceiver(status: number): Promise<GatedReceiver> {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  let requests = 0;
  const server = await startHttpServer(async (req, res) => {
    requests++;
    for await (const _ of req) void _;
    await opened;
    res.writeHead(status).end(status < 300 ? '{}' : '{"error":"down"}');
  });
  return { server, open, requests: () => requests };
}
