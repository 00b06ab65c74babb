// `hookgate listen`'s web inspector (the "Inbound" tab) in a real browser (Debian's chromium through
// playwright-core): real requests over HTTP to a real listener, forwarded to a real local receiver
// (core's createReceiver, which checks the raw bytes), all on 127.0.0.1.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createReceiver, fixture, sign, toNodeListener } from '@hookgate/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { startListener, type Listener } from '../../src/index.js';
import { launchChromium, type RunningBrowser } from './chromium.js';

const SECRET = 'listen-browser-s3cret-4b7e';
const HOSTILE = '<img src=x onerror="window.__pwned=1">Bad </td><script>window.__pwned=2</script>';

let chrome: RunningBrowser;
let context: BrowserContext;
let page: Page;
let receiverServer: http.Server;
let listener: Listener;
const handled: Array<{ type: string; event?: string }> = [];
const errors: string[] = [];

async function post(body: string, signature: string, path = '/webhooks'): Promise<number> {
  const res = await fetch(`${listener.url}${path}`, {
    method: 'POST',
    body,
    headers: { 'content-type': 'application/json', 'user-agent': 'Segment.io/1.0', 'x-signature': signature },
  });
  await res.arrayBuffer();
  return res.status;
}

function track(event: string, properties: Record<string, unknown> = {}): string {
  return JSON.stringify(fixture('track', { event, messageId: `m-${event}-${Math.random()}`, properties } as never));
}

beforeAll(async () => {
  const receiver = createReceiver({
    secret: SECRET,
    onMessage: (m) => void handled.push({ type: m.type, event: (m as { event?: string }).event }),
    logger: { warn: () => {} },
  });
  receiverServer = http.createServer(toNodeListener(receiver) as http.RequestListener);
  await new Promise<void>((r) => receiverServer.listen(0, '127.0.0.1', r));
  const port = (receiverServer.address() as AddressInfo).port;
  listener = await startListener({ secret: SECRET, forwardTo: `http://127.0.0.1:${port}/webhooks` });
  chrome = await launchChromium();
  context = await chrome.browser.newContext();
  page = await context.newPage();
  page.on('pageerror', (e) => errors.push(e.message));
});

afterAll(async () => {
  await context?.close();
  await chrome?.close();
  await listener?.close();
  await new Promise<void>((r) => (receiverServer ? receiverServer.close(() => r()) : r()));
});

describe('hookgate listen: the inbound view in chromium', () => {
  it('serves the page at GET / (not recorded), with the Inbound tab and no Deliveries tab', async () => {
    expect(listener.inspectorUrl).toBe(`${listener.url}/`);
    await page.goto(listener.inspectorUrl);
    await page.locator('#live[data-state="open"]').waitFor();
    expect(await page.locator('nav .tab').allTextContents()).toEqual(['Inbound']);
    await page.locator('.count', { hasText: 'No request yet' }).waitFor();
    expect(listener.log.records).toHaveLength(0);
  });

  it('shows forged requests as refused with their explanation and a good one verified and forwarded, live', async () => {
    // A marker on the loaded page: it survives only if the rows arrive without a reload.
    await page.evaluate(() => ((window as { __sameDocument?: boolean }).__sameDocument = true));
    // 1. Signed with the wrong secret.
    const wrong = track('Wrong Secret Order');
    expect(await post(wrong, sign(wrong, 'not-the-secret'))).toBe(401);
    // 2. Signed over {"price":1}, sent as {"price":1.0}: re-encoded after signing.
    const signedText = track('Reencoded Order', { price: 1 });
    const sentText = signedText.replace('"price":1', '"price":1.0');
    expect(sentText).not.toBe(signedText);
    expect(await post(sentText, sign(signedText, SECRET))).toBe(401);
    // 3. A good one, with a hostile event name.
    const good = track(HOSTILE);
    expect(await post(good, sign(good, SECRET))).toBe(200);

    const rows = page.locator('tr.inbound-row');
    await expect.poll(() => rows.count(), { timeout: 5000 }).toBe(3);
    // Newest first.
    expect(await page.evaluate(() => (window as { __sameDocument?: boolean }).__sameDocument)).toBe(true);
    const ids = await rows.evaluateAll((trs) => trs.map((tr) => (tr as HTMLElement).dataset.id));
    expect(ids).toEqual(['in_3', 'in_2', 'in_1']);

    const wrongRow = page.locator('tr.inbound-row', { hasText: 'Wrong Secret Order' });
    expect(await wrongRow.locator('td.verdict-cell').textContent()).toBe('refused: mismatch');
    expect(await wrongRow.locator('td.receiver').textContent()).toMatch(/^401 in \d+ ms$/);

    const goodRow = page.locator('tr.inbound-row[data-id="in_3"]');
    expect(await goodRow.locator('td.verdict-cell').textContent()).toBe('verified');
    expect(await goodRow.locator('td.receiver').textContent()).toMatch(/^200 in \d+ ms$/);
    expect(await goodRow.locator('td.method').textContent()).toBe('POST');
    expect(await goodRow.locator('td.path').textContent()).toBe('/webhooks');
    // The hostile name is text, not markup.
    expect(await goodRow.locator('td.event').textContent()).toContain(HOSTILE);
    expect(await goodRow.locator('img').count()).toBe(0);
    expect(await page.evaluate(() => (window as { __pwned?: number }).__pwned)).toBeUndefined();

    // The receiver got the good one only (it checks the raw bytes too).
    expect(handled).toEqual([{ type: 'track', event: HOSTILE }]);

    // The re-encoded one: its detail names the finding and says the bytes were re-encoded after signing.
    await page.locator('tr.inbound-row[data-id="in_2"] a.event-link').click();
    await page.locator('#detail-title', { hasText: 'Request in_2' }).waitFor();
    const detail = page.locator('#inbound-detail');
    expect(await detail.locator('#verdict-title').textContent()).toBe('Refused: mismatch');
    expect(await detail.locator('.verdict-message').textContent()).toContain('re-encoded after signing');
    expect(await detail.locator('.matches-form').textContent()).toContain('Signed form: JSON.stringify.');
    // The exact text is open (the pretty form would hide 1.0); the pretty form is folded.
    expect(await detail.locator('pre.raw').isVisible()).toBe(true);
    expect(await detail.locator('pre.body').isVisible()).toBe(false);
    const finding = detail.locator('li.finding', { hasText: '$.properties.price' });
    expect(await finding.locator('.finding-path').textContent()).toBe('$.properties.price');
    expect(await finding.locator('.finding-cause').textContent()).toBe('number-format');
    expect(await finding.locator('.finding-message').textContent()).not.toBe('');
    expect(await detail.locator('pre.raw').textContent()).toBe(sentText);
    expect(await detail.locator('.forward').textContent()).toContain('401');
    // The focus moved to the detail's heading (keyboard users land on what they opened).
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('detail-title');

    // The wrong-secret one: no re-serialized form matches; the message says so.
    await page.goto(`${listener.inspectorUrl}#/inbound/in_1`);
    await page.locator('#detail-title', { hasText: 'Request in_1' }).waitFor();
    expect(await detail.locator('.verdict-message').textContent()).toContain(
      'does not match these bytes under any configured secret',
    );
    expect(await detail.locator('.matches-form').count()).toBe(0);

    // The good one: verified, the receiver's 200 and the start of its answer; the signature shortened.
    await page.locator('tr.inbound-row[data-id="in_3"]').click();
    await page.locator('#detail-title', { hasText: 'Request in_3' }).waitFor();
    expect(await detail.locator('#verdict-title').textContent()).toBe('Verified');
    expect(await detail.locator('.forward dd').allTextContents()).toContain('200');
    expect(await detail.locator('.event-name').textContent()).toContain(HOSTILE);
    const headerText = await detail.locator('table.headers').textContent();
    expect(headerText).toContain('x-signature');
    expect(headerText).not.toContain(sign(good, SECRET));
    expect(await page.content()).not.toContain(SECRET);
    expect(await page.locator('img, script:not([src])').count()).toBe(0);
    expect(errors).toEqual([]);
    expect(listener.log.records).toHaveLength(3); // the page's own requests were not recorded
  });

  it("is keyboard reachable: Tab reaches a row's link, Enter opens it and moves the focus to its heading", async () => {
    await page.goto(listener.inspectorUrl);
    await page.locator('tr.inbound-row').nth(2).waitFor();
    expect(await page.getByRole('table', { name: 'Inbound requests, newest first' }).count()).toBe(1);
    expect(await page.getByRole('link', { name: 'Inbound' }).count()).toBe(1);
    let onLink = false;
    for (let i = 0; i < 10 && !onLink; i++) {
      await page.keyboard.press('Tab');
      onLink = await page.evaluate(() => document.activeElement?.classList.contains('event-link') === true);
    }
    expect(onLink).toBe(true);
    const id = await page.evaluate(() => document.activeElement?.closest('tr')?.dataset.id);
    await page.keyboard.press('Enter');
    await page.locator('#detail-title', { hasText: `Request ${id}` }).waitFor();
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('detail-title');
  });

  it('the page and its API keep the inspector guard: a foreign Host is refused, a POST to / is a webhook', async () => {
    const foreign = await new Promise<number>((resolve, reject) => {
      const req = http.get(
        {
          host: '127.0.0.1',
          port: listener.port,
          path: '/_hookgate/ui/api/inbound',
          headers: { host: 'evil.example:80' },
        },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on('error', reject);
    });
    expect(foreign).toBe(403);
    const before = listener.log.records.length;
    const body = track('Posted To Root');
    expect(await post(body, sign(body, SECRET), '/')).toBe(200);
    expect(listener.log.records.length).toBe(before + 1);
    expect(listener.log.records.at(-1)?.path).toBe('/');
  });
});

describe('hookgate listen: the receiver column', () => {
  it('flags a receiver slower than the sender\'s 5 s, and says "not forwarded" without --forward-to', async () => {
    const slow = http.createServer((req, res) => {
      req.resume();
      setTimeout(() => res.writeHead(200, { 'content-type': 'text/plain' }).end('late but fine'), 5200);
    });
    await new Promise<void>((r) => slow.listen(0, '127.0.0.1', r));
    const slowListener = await startListener({
      secret: SECRET,
      forwardTo: `http://127.0.0.1:${(slow.address() as AddressInfo).port}/`,
    });
    const plain = await startListener({ secret: SECRET });
    const ctx = await chrome.browser.newContext();
    try {
      const p = await ctx.newPage();
      await p.goto(slowListener.inspectorUrl);
      await p.locator('#live[data-state="open"]').waitFor();
      const body = track('Slow Receiver Order');
      const res = await fetch(`${slowListener.url}/hook`, {
        method: 'POST',
        body,
        headers: { 'content-type': 'application/json', 'x-signature': sign(body, SECRET) },
      });
      expect(res.status).toBe(200);
      const cell = p.locator('tr.inbound-row[data-id="in_1"] td.receiver');
      await cell.waitFor({ timeout: 5000 });
      expect(await cell.textContent()).toMatch(/^200 in 5(\.\d)? s ⚠ past 5 s$/);
      await p.locator('tr.inbound-row[data-id="in_1"]').click();
      await p.locator('#inbound-detail .slow').waitFor();
      expect(await p.locator('#inbound-detail pre.response').textContent()).toBe('late but fine');

      await p.goto(plain.inspectorUrl);
      await p.locator('#live[data-state="open"]').waitFor();
      const other = track('Not Forwarded Order');
      const direct = await fetch(`${plain.url}/hook`, {
        method: 'POST',
        body: other,
        headers: { 'content-type': 'application/json', 'x-signature': sign(other, SECRET) },
      });
      expect(direct.status).toBe(200);
      const plainCell = p.locator('tr.inbound-row[data-id="in_1"] td.receiver');
      await plainCell.waitFor({ timeout: 5000 });
      expect(await plainCell.textContent()).toBe('not forwarded');
    } finally {
      await ctx.close();
      await slowListener.close();
      await plain.close();
      await new Promise<void>((r) => slow.close(() => r()));
    }
  }, 20_000);
});

describe('hookgate listen with uiToken: the page needs the token', () => {
  it('refuses the page without it; /?token= sets the cookie and the page loads', async () => {
    const token = 'listen-ui-token-0123456789';
    const l = await startListener({ secret: SECRET, uiToken: token });
    try {
      expect((await fetch(`${l.url}/`)).status).toBe(401);
      expect((await fetch(`${l.url}/_hookgate/ui/api/inbound`)).status).toBe(401);
      const ctx = await chrome.browser.newContext();
      try {
        const p = await ctx.newPage();
        await p.goto(`${l.url}/?token=${token}`);
        await p.locator('#live[data-state="open"]').waitFor();
        expect(p.url()).toBe(`${l.url}/`);
        expect(await p.locator('nav .tab').allTextContents()).toEqual(['Inbound']);
      } finally {
        await ctx.close();
      }
      expect(l.log.records).toHaveLength(0);
    } finally {
      await l.close();
    }
  });
});
