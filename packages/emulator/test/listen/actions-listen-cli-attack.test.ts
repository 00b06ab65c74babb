// Attacks on `hookgate listen` and `hookgate serve --actions`: forged Webhooks (Actions) batches sent to
// listen over real HTTP (a captured signature with elements appended, a changed first element, a batch
// of one or two), and bad subscription files handed to serve as a real process (exit 2, the field named,
// no secret printed).
import { createHmac } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startListener, type Listener } from '../../src/index.js';
import { startCliFromSources } from '../helpers/local-http.js';

const SECRET = 'listen-attack-s3cret';
let listener: Listener;
const dir = mkdtempSync(path.join(tmpdir(), 'hookgate-actions-attack-'));
beforeAll(async () => {
  listener = await startListener({ secret: SECRET, port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  await listener.close();
  rmSync(dir, { recursive: true, force: true });
});

const sign = (text: string) => createHmac('sha1', SECRET).update(text).digest('hex');

async function send(body: string, signature: string | undefined) {
  const res = await fetch(`${listener.url}/hook`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'user-agent': 'Segment (Actions)',
      ...(signature ? { 'x-signature': signature } : {}),
    },
    body,
  });
  await res.arrayBuffer();
  return { status: res.status, record: listener.log.records.at(-1)! };
}

describe('listen and forged Webhooks (Actions) batches', () => {
  const captured = {
    type: 'track',
    event: 'Order Completed',
    userId: 'u1',
    messageId: 'm1',
    properties: { total: 10 },
  };
  const capturedSig = sign(JSON.stringify(captured));

  it('a captured signature with forged elements appended: refused, the forged ones named as not covered', async () => {
    const forged = [
      captured,
      { ...captured, messageId: 'evil-1', properties: { total: 1e6 } },
      { type: 'identify', userId: 'admin' },
    ];
    const { status, record } = await send(JSON.stringify(forged), capturedSig);
    expect(status).toBe(401);
    expect(record.verdict.ok).toBe(false);
    expect(record.verdict.message).toMatch(/matches only the first element/);
    expect(record.verdict.message).toMatch(/elements 2–3 are not covered/);
  });

  it('a batch of two names element 2; a batch of one says its element is covered and nothing after it would be', async () => {
    const two = await send(JSON.stringify([captured, { evil: true }]), capturedSig);
    expect(two.record.verdict.message).toMatch(/element 2 is not covered/);
    expect(two.record.verdict.message).not.toMatch(/elements 2–2/);
    const one = await send(JSON.stringify([captured]), capturedSig);
    expect(one.status).toBe(401);
    expect(one.record.verdict.message).toMatch(/its one element is covered/);
    expect(one.record.verdict.message).not.toMatch(/2–1/);
  });

  it('a changed first element matches nothing: an ordinary mismatch, never "matches the first element"', async () => {
    const { status, record } = await send(
      JSON.stringify([{ ...captured, properties: { total: 9999 } }, captured]),
      capturedSig,
    );
    expect(status).toBe(401);
    expect(record.verdict.message).not.toMatch(/matches only the first element/);
    expect(record.verdict.message).toMatch(/does not match/);
  });

  it('non-object elements and an empty array do not break it', async () => {
    expect((await send('[1,"x",null]', sign('1'))).status).toBe(401);
    expect((await send('[]', capturedSig)).status).toBe(401);
    const unsigned = await send('[{"a":1},{"a":2}]', undefined);
    expect(unsigned.record.verdict.message).toMatch(/without X-Signature.*nothing in it is authenticated/);
    // Its one-line summary does not claim a signature it does not have.
    expect(unsigned.record.summary).toBe('Webhooks (Actions) POST: a batch of 2, unsigned');
  });
});

describe('serve --actions with a bad file', () => {
  function file(name: string, value: unknown): string {
    const p = path.join(dir, name);
    writeFileSync(p, typeof value === 'string' ? value : JSON.stringify(value, null, 2));
    return p;
  }
  const mapping = { url: 'http://127.0.0.1:9/x', method: 'PUT' };
  const cases: Array<[string, unknown, RegExp]> = [
    [
      'fql-eos.json',
      [{ subscribe: 'type = ', partnerAction: 'send', mapping }],
      /subscriptions\[0\]\.subscribe.*not valid FQL/,
    ],
    [
      'fql-broken.json',
      [{ subscribe: 'event = "open', partnerAction: 'send', mapping }],
      /subscriptions\[0\]\.subscribe.*not valid FQL/,
    ],
    [
      'size.json',
      [
        {
          subscribe: 'type = "track"',
          partnerAction: 'send',
          mapping: { ...mapping, enable_batching: true, batch_size: 5000 },
        },
      ],
      /subscriptions\[0\]\.mapping\.batch_size/,
    ],
    [
      'six.json',
      Array.from({ length: 6 }, () => ({ subscribe: 'type = "track"', partnerAction: 'send', mapping })),
      /subscriptions.*limit is 5/,
    ],
    [
      'secret-url.json',
      {
        sharedSecret: 'file-s3cret',
        subscriptions: [
          {
            subscribe: 'type = "track"',
            partnerAction: 'send',
            mapping: { url: 'ftp://u:fi1e-pa55@h.test/?token=fi1e-t0ken' },
          },
        ],
      },
      /subscriptions\[0\]\.mapping\.url/,
    ],
    ['empty.json', '', /not JSON/],
    ['wrong-shape.json', { subscription: [] }, /--actions/],
  ];
  it.each(cases)(
    '%s: exit 2, the field named, nothing secret printed',
    async (name, value, message) => {
      const run = startCliFromSources(['serve', '--port', '0', '--actions', file(name, value)]);
      expect(await run.exited).toBe(2);
      const text = run.err() + run.out();
      expect(text).toMatch(message);
      for (const secret of ['file-s3cret', 'fi1e-pa55', 'fi1e-t0ken']) expect(text).not.toContain(secret);
    },
    60_000,
  );

  it('a missing file: exit 2 naming it', async () => {
    const run = startCliFromSources(['serve', '--port', '0', '--actions', path.join(dir, 'nope.json')]);
    expect(await run.exited).toBe(2);
    expect(run.err()).toMatch(/--actions .*nope\.json/);
  }, 60_000);
});
