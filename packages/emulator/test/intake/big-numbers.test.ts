// Big integers are not changed silently: an integer beyond 2^53 − 1 in a call's properties or traits
// becomes the nearest double when the intake parses it, so the message delivered carries other digits.
// The intake says so: a DEBUG line, a note on the record (JSON views, inspector detail), and the call's
// text exactly as sent, shown in the inspector (checked in a real chromium page).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCaptureReceiver, type CaptureReceiver } from '../helpers/capture-receiver.js';
import { launchChromium, type RunningBrowser } from '../inspector/chromium.js';
import { sign } from '@hookgate/core';
import { createEmulator, startListener, type Emulator } from '../../src/index.js';
import { listenIntake, type IntakeServer } from '../../src/intake/index.js';
import fc from 'fast-check';
import { hasDigitRun } from '@hookgate/core/internal';
import { rawCallText } from '../../src/intake/raw-call-text.js';

const KEY = 'wk_big_numbers_0123456789';
const basic = `Basic ${Buffer.from(`${KEY}:`).toString('base64')}`;

let receiver: CaptureReceiver;
let emulator: Emulator;
let intake: IntakeServer;
let chrome: RunningBrowser;
const debugLines: string[] = [];

beforeAll(async () => {
  receiver = await startCaptureReceiver();
  emulator = createEmulator({
    debug: (line) => debugLines.push(line),
    sources: [
      {
        writeKey: KEY,
        webhooks: { enabled: true, endpoints: [{ url: `${receiver.url}/webhooks` }], sharedSecret: 'big-secret' },
      },
    ],
  });
  intake = await listenIntake(emulator);
  chrome = await launchChromium();
});

afterAll(async () => {
  await chrome?.close();
  await intake.close();
  await emulator.close();
  await receiver.close();
});

async function post(path: string, text: string): Promise<number> {
  const res = await fetch(`${intake.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: basic },
    body: text,
  });
  await res.arrayBuffer();
  return res.status;
}

// Written by hand, as a client that serializes 64-bit integers would send them.
const BIG_CALL =
  '{"type":"track","userId":"u1","event":"Order Completed","messageId":"m-big-1","properties":{"orderId":12345678901234567890,"safe":9007199254740991,"items":[{"sku":-9223372036854775808}],"note":"12345678901234567890 in a string is kept"}}';
const PLAIN_CALL =
  '{"type":"identify","userId":"u2","messageId":"m-plain-1","traits":{"logins":5,"id":"90071992547409930000"}}';

describe('integers beyond 2^53', () => {
  it('are flagged on the record, in DEBUG and in the JSON views; the raw call keeps the digits sent', async () => {
    expect(await post('/v1/batch', `{"batch":[${PLAIN_CALL},${BIG_CALL}],"writeKey":"${KEY}"}`)).toBe(200);
    await emulator.drain();
    const [plain, big] = emulator.deliveries.slice(-2);

    // What JSON parsing does to them: the delivered message carries the parsed doubles.
    const sent = receiver.received.find((r) => r.json.event === 'Order Completed');
    expect(sent?.text).toContain('"orderId":12345678901234567000');
    expect(sent?.text).not.toContain('12345678901234567890,');

    expect(plain?.notes).toBeUndefined(); // a digit string and small integers: nothing to say
    expect(plain?.rawCall).toBeUndefined();
    expect(big?.notes).toEqual([
      expect.stringMatching(
        /^\$\.batch\[1\]\.properties\.orderId is an integer beyond 2\^53 − 1: JSON parsing changed it \(it is now 12345678901234567000;.*Send it as a string/,
      ),
      expect.stringMatching(
        /^\$\.batch\[1\]\.properties\.items\[0\]\.sku is an integer beyond 2\^53 − 1: JSON parsing changed it \(it is now -9223372036854776000;/,
      ),
    ]);
    expect(big?.rawCall).toBe(BIG_CALL);

    expect(
      debugLines.some(
        (l) => l.includes(big!.id) && l.includes('$.batch[1].properties.orderId is an integer beyond 2^53'),
      ),
    ).toBe(true);

    const view = (await (await fetch(`${intake.url}/_hookgate/deliveries?limit=1`)).json()) as {
      deliveries: Array<{ id: string; notes?: string[]; rawCall?: string }>;
    };
    expect(view.deliveries[0]).toMatchObject({ id: big!.id, rawCall: BIG_CALL });
    expect(view.deliveries[0]?.notes).toHaveLength(2);
    const detail = (await (await fetch(`${intake.url}/_hookgate/ui/api/deliveries/${big!.id}`)).json()) as {
      notes?: string[];
      rawCall?: string;
    };
    expect(detail.rawCall).toBe(BIG_CALL);
    expect(detail.notes?.[0]).toContain('properties.orderId');
  });

  it('on a single-call route the raw call is the body as sent, its write key masked', async () => {
    const body = `{"userId":"u3","event":"Single","writeKey":"${KEY}","properties":{"id":18446744073709551615}}`;
    expect(await post('/v1/track', body)).toBe(200);
    const record = emulator.deliveries.at(-1)!;
    expect(record.notes?.[0]).toMatch(/^\$\.properties\.id is an integer beyond 2\^53/);
    expect(record.rawCall).toContain('18446744073709551615');
    expect(record.rawCall).not.toContain(KEY);
    expect(record.rawCall).toContain('"writeKey":"wk_b…(25 chars)"');
  });

  it('the inspector page shows the note and the call as sent', async () => {
    const big = emulator.deliveries.find((r) => r.rawCall === BIG_CALL)!;
    const page = await chrome.browser.newPage();
    try {
      await page.goto(`${intake.url}/#/deliveries/${big.id}`);
      await page.locator('#detail-title', { hasText: `Delivery ${big.id}` }).waitFor({ timeout: 15_000 });
      const notes = page.locator('section.intake-notes li');
      await notes.first().waitFor();
      expect(await notes.count()).toBe(2);
      expect(await notes.first().textContent()).toContain('properties.orderId is an integer beyond 2^53');
      expect(await page.locator('details.raw-call pre').textContent()).toBe(BIG_CALL);
    } finally {
      await page.close();
    }
  }, 60_000);

  it('the raw call is found by a scan that skips strings, escapes and nesting', () => {
    const body =
      ' { "context" : {"batch":[0]}, "s":"]\\"[", "batch" : [ {"a":"},\\"{"} , [1,[2]] ,\n {"n":12345678901234567890} ] } ';
    expect(JSON.parse(body).batch).toHaveLength(3);
    expect(rawCallText(body, { kind: 'batch' }, 0)).toBe('{"a":"},\\"{"}');
    expect(rawCallText(body, { kind: 'batch' }, 1)).toBe('[1,[2]]');
    expect(rawCallText(body, { kind: 'batch' }, 2)).toBe('{"n":12345678901234567890}');
    expect(rawCallText(body, { kind: 'batch' }, 3)).toBeUndefined();
    // JSON.parse keeps the last of duplicate keys; so does the scan.
    expect(rawCallText('{"batch":[{"x":1}],"batch":[{"y":2}]}', { kind: 'batch' }, 0)).toBe('{"y":2}');
  });

  it('hookgate listen: the inbound detail says the pretty view changes big integers, and opens the exact text', async () => {
    const secret = 'listen-big-numbers';
    const listener = await startListener({ secret });
    const page = await chrome.browser.newPage();
    try {
      const body =
        '{"version":1,"type":"track","userId":"u1","event":"Big","timestamp":"2026-11-25T10:00:00.000Z","properties":{"orderId":12345678901234567890}}';
      const plain =
        '{"version":1,"type":"track","userId":"u1","event":"Plain","timestamp":"2026-11-25T10:00:00.000Z","properties":{"orderId":"12345678901234567890"}}';
      for (const b of [body, plain]) {
        const res = await fetch(`${listener.url}/webhooks`, {
          method: 'POST',
          body: b,
          headers: { 'content-type': 'application/json', 'x-signature': sign(b, secret) },
        });
        await res.arrayBuffer();
      }
      await page.goto(`${listener.inspectorUrl}#/inbound/in_1`);
      await page.locator('#detail-title', { hasText: 'Request in_1' }).waitFor({ timeout: 15_000 });
      expect(await page.locator('#inbound-detail p.big-integers').textContent()).toMatch(
        /^An integer beyond 2\^53 − 1: JSON parsing .* changes it/,
      );
      expect(await page.locator('#inbound-detail details:has(pre.raw)').getAttribute('open')).not.toBeNull();
      expect(await page.locator('#inbound-detail pre.raw').textContent()).toBe(body);
      await page.goto(`${listener.inspectorUrl}#/inbound/in_2`);
      await page.locator('#detail-title', { hasText: 'Request in_2' }).waitFor({ timeout: 15_000 });
      expect(await page.locator('#inbound-detail p.big-integers').count()).toBe(0); // digits in a string are kept
    } finally {
      await page.close();
      await listener.close();
    }
  }, 60_000);

  it('the quick look for 16 digits in a row agrees with a regular expression (property)', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(fc.constantFrom('0', '9', '5', 'a', ' ', ',', '"', '/', ':'), fc.stringMatching(/^\d{1,20}$/)),
          { maxLength: 60 },
        ),
        fc.integer({ min: 1, max: 20 }),
        (parts, n) => {
          const text = parts.join('');
          expect(hasDigitRun(text, n)).toBe(new RegExp(`\\d{${n}}`).test(text));
        },
      ),
      { numRuns: 2000 },
    );
  });
});
