// The test client that streams a body in chunks (helpers/receiver-server.ts, used against Bun, Deno and
// core's node listener) against a server that answers before the body's end and resets the connection
// a little later, while the client is still writing: as Bun and Deno do with a 413. On a pooled
// keep-alive socket the next write met no listener: an uncaught `write ECONNRESET` that failed the file
// sharing the process (seen once in the quick suite beside two CPU hogs).
import net, { type AddressInfo } from 'node:net';
import { afterEach, expect, it } from 'vitest';
import { sendChunks } from './helpers/receiver-server.js';

let server: net.Server | undefined;
afterEach(async () => {
  await new Promise((resolve) => server?.close(resolve));
});

it('gets the early answer, then writes nothing to the connection its server reset', async () => {
  server = net.createServer((socket) => {
    socket.on('error', () => undefined);
    socket.once('data', () => {
      socket.write('HTTP/1.1 413 Payload Too Large\r\nContent-Length: 2\r\n\r\n{}');
      setTimeout(() => socket.resetAndDestroy(), 30);
    });
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  const chunks = Array.from({ length: 4 }, () => 'x'.repeat(16 * 1024));
  for (let round = 0; round < 10; round++) {
    expect((await sendChunks(url, chunks, { 'content-type': 'application/json' })).status).toBe(413);
  }
  // Past every reset: an uncaught error would have failed the file by now.
  await new Promise((resolve) => setTimeout(resolve, 100));
});
