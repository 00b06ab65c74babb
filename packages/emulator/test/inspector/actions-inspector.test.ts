// The inspector's API shows a Webhooks (Actions) delivery's method, subscription and batch size, and
// its curl command resends with the delivery's own method and URL (over real HTTP).
import { execFile } from 'node:child_process';
import http from 'node:http';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEmulator, type Emulator, type IntakeServer } from '../../src/index.js';
import { startCaptureReceiver, type CaptureReceiver } from '../helpers/capture-receiver.js';

let receiver: CaptureReceiver;
let emulator: Emulator;
let intake: IntakeServer;
beforeAll(async () => {
  receiver = await startCaptureReceiver();
  emulator = createEmulator({
    sources: [
      {
        writeKey: 'wk',
        webhooksActions: {
          sharedSecret: 'inspector-s3cret',
          subscriptions: [
            {
              subscribe: 'type = "track"',
              partnerAction: 'send',
              name: 'Orders',
              mapping: { url: `${receiver.url}/orders`, method: 'PATCH', data: { id: { '@path': '$.properties.id' } } },
            },
            {
              subscribe: 'type = "identify"',
              partnerAction: 'send',
              mapping: {
                url: `${receiver.url}/people`,
                method: 'PUT',
                data: { '@path': '$.traits' },
                enable_batching: true,
                batch_size: 2,
              },
            },
          ],
        },
      },
    ],
  });
  intake = await emulator.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  await intake.close();
  await emulator.close();
  await receiver.close();
});

interface Row {
  id: string;
  summary: string;
  actions?: { subscription: number; name?: string; method: string; batchSize: number; batch: boolean };
}

describe('the inspector and Webhooks (Actions) deliveries', () => {
  it('lists and details method, subscription and batch size', async () => {
    const single = emulator.track({ userId: 'u1', event: 'Order Completed', properties: { id: 'o-1' } });
    emulator.identify({ userId: 'u1', traits: { plan: 'pro' } });
    emulator.identify({ userId: 'u2', traits: { plan: 'free' } });
    await emulator.drain();
    const list = (await (await fetch(`${intake.url}/_hookgate/ui/api/deliveries`)).json()) as
      { items?: Row[]; rows?: Row[] } | Row[];
    const rows: Row[] = Array.isArray(list) ? list : (list.items ?? list.rows ?? []);
    const batch = rows.find((r) => r.actions?.batch)!;
    expect(batch.actions).toMatchObject({ subscription: 2, method: 'PUT', batchSize: 2, batch: true });
    expect(batch.summary).toBe('PUT batch of 2 (subscription 2)');
    const detail = (await (await fetch(`${intake.url}/_hookgate/ui/api/deliveries/${single.id}`)).json()) as Row & {
      curl: string;
      headers: Record<string, string>;
    };
    expect(detail.actions).toMatchObject({
      subscription: 1,
      name: 'Orders',
      method: 'PATCH',
      batchSize: 1,
      batch: false,
    });
    expect(detail.summary).toBe('PATCH mapped payload: id');
    expect(detail.curl).toContain('curl -sS -X PATCH');
    expect(detail.curl).toContain(`${receiver.url}/orders`);
    expect(detail.headers['user-agent']).toBe('Segment (Actions)');
  });

  it("copy as curl asks for Segment's Accept-Encoding and decodes a gzip answer (--compressed)", async () => {
    const record = emulator.track({ userId: 'u9', event: 'Order Completed', properties: { id: 'o-9' } });
    await emulator.drain();
    const detail = (await (await fetch(`${intake.url}/_hookgate/ui/api/deliveries/${record.id}`)).json()) as {
      curl: string;
    };
    expect(detail.curl).toContain(`-H 'Accept-Encoding: gzip,deflate'`);
    expect(detail.curl).toContain(`-H 'Accept: */*'`);
    // A receiver that compresses its answer when the request allows it, as many frameworks do.
    let acceptEncoding: string | undefined;
    const server = http.createServer((req, res) => {
      acceptEncoding = req.headers['accept-encoding'];
      req.resume();
      res.writeHead(200, { 'content-type': 'text/plain', 'content-encoding': 'gzip' });
      res.end(gzipSync('accepted order o-9'));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    const command = detail.curl.replace(`${receiver.url}/orders`, `http://127.0.0.1:${port}/orders`);
    const stdout = await new Promise<string>((resolve, reject) =>
      execFile(
        'bash',
        ['-c', command],
        { encoding: 'utf8', env: { ...process.env, HOOKGATE_SECRET: 'inspector-s3cret' } },
        (error, out) =>
          // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- execFile's error is an ExecFileException, an Error
          error ? reject(error) : resolve(out),
      ),
    );
    server.close();
    expect(acceptEncoding).toBe('gzip,deflate');
    expect(stdout).toBe('accepted order o-9');
  });
});
