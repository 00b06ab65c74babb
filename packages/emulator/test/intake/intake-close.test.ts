// `intake.close()` with a page of the inspector open: its live event stream is ended, and the
// keep-alive connection that carried it must not hold the close for the server's keep-alive time
// (30 s by default). Over real HTTP, a keep-alive agent standing in for the browser.
import http from 'node:http';
import { describe, expect, it } from 'vitest';
import { createEmulator } from '../../src/index.js';

describe('intake.close() with a live event stream open', () => {
  it('resolves promptly: the connection the stream leaves behind is not kept alive', async () => {
    const emulator = createEmulator({ sources: [{ writeKey: 'wk_close' }] });
    const intake = await emulator.listen({ port: 0, host: '127.0.0.1' });
    const agent = new http.Agent({ keepAlive: true });
    try {
      let listening!: () => void;
      const firstEvent = new Promise<void>((resolve) => (listening = resolve));
      const streamEnded = new Promise<void>((resolve, reject) => {
        const req = http.get(`${intake.url}/_hookgate/events`, { agent }, (res) => {
          expect(res.headers['content-type']).toMatch(/^text\/event-stream/);
          res.once('data', () => listening());
          res.on('end', resolve);
          res.resume();
        });
        req.on('error', reject);
      });
      await firstEvent; // the stream's first event arrived: a page is listening
      const started = performance.now();
      await intake.close();
      await streamEnded;
      expect(performance.now() - started).toBeLessThan(5_000);
    } finally {
      agent.destroy();
      await emulator.close();
    }
  }, 40_000);
});
