// The inspector's layout and navigation in a real browser (Debian's chromium through playwright-core),
// against a real emulator, intake and receiver on 127.0.0.1: at 400 px (cards) and 1280 px (a table),
// every value inside the viewport and no word broken across lines; screenshots are saved (their folder
// is printed) to be looked at. Then what the list and detail say: filtered deliveries, the empty log,
// replays, filters in the address, keys, no 404 on load, the banner when the server is gone.
import { mkdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { sign } from '@hookgate/core';
import { createEmulator, startListener, type Emulator, type IntakeServer } from '@hookgate/emulator';
import { startCaptureReceiver, type CaptureReceiver } from '../helpers/capture-receiver.js';
import { launchChromium, type RunningBrowser } from './chromium.js';

const SECRET = 'whsec-layout-secret-0c41d7';
const WRITE_KEY = 'wk_layout_web_5f1c2a9e';
const SHOTS = process.env.HOOKGATE_SCREENSHOTS_DIR ?? path.join(os.tmpdir(), 'hookgate-inspector-layout');
const LONG_EVENT = 'Subscription Renewal Payment Authorization Requested By The Billing Service';

let chrome: RunningBrowser;
let receiver: CaptureReceiver;
let emulator: Emulator;
let intake: IntakeServer;

async function post(url: string, type: string, body: Record<string, unknown>, writeKey = WRITE_KEY): Promise<Response> {
  return fetch(`${url}/v1/${type}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      authorization: `Basic ${Buffer.from(`${writeKey}:`).toString('base64')}`,
    },
    body: JSON.stringify(body),
  });
}

/** Opens a page at `width` and records every answer of 400 or more it gets. */
async function openAt(width: number, url: string): Promise<{ page: Page; bad: string[]; errors: string[] }> {
  const page = await chrome.browser.newPage({ viewport: { width, height: 900 } });
  const bad: string[] = [];
  const errors: string[] = [];
  page.on('response', (r) => {
    if (r.status() >= 400) bad.push(`${r.status()} ${new URL(r.url()).pathname}`);
  });
  page.on('requestfailed', (r) => {
    // The live stream is cut when a test closes the server; anything else failing is a fault.
    if (!r.url().endsWith('/_hookgate/events')) bad.push(`failed ${new URL(r.url()).pathname}`);
  });
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(url);
  await page.locator('#live[data-state="open"]').waitFor();
  return { page, bad, errors };
}

interface Geometry {
  viewport: number;
  scrollWidth: number;
  outside: string[];
  broken: string[];
  wrapped: string[];
}

/**
 * Measures the page: elements (cells, detail items) that reach outside the viewport, or boxes whose
 * content spills past their border; badges and buttons wider than their text needs; words split
 * across two lines (a word here: text between spaces, or a URL part ending in `/`, `?` or `&`); short
 * values (states, statuses, ids, times, counts) that take more than one line.
 */
function measure(page: Page): Promise<Geometry> {
  return page.evaluate(() => {
    const vw = document.documentElement.clientWidth;
    const name = (el: Element) =>
      `${el.tagName.toLowerCase()}.${Array.from(el.classList).join('.')} "${(el.textContent ?? '').trim().slice(0, 40)}"`;
    const shown = (el: Element) => {
      const r = el.getBoundingClientRect();
      return r.width > 0 && r.height > 0 && getComputedStyle(el).visibility !== 'hidden';
    };
    const lines = (range: Range) => {
      const tops = new Set<number>();
      for (const r of Array.from(range.getClientRects())) if (r.width > 0.5) tops.add(Math.round(r.top + r.height / 2));
      // Two rects whose middles are less than half a line apart are on the same line.
      const sorted = [...tops].sort((a, b) => a - b);
      return sorted.filter((t, i) => i === 0 || t - (sorted[i - 1] as number) > 6).length;
    };
    const outside: string[] = [];
    for (const el of Array.from(
      document.querySelectorAll('header *, .filters *, td, th, tr.row, .detail, .detail *, .empty *, .banner'),
    )) {
      if (!shown(el) || el.closest('pre, details:not([open]) > :not(summary)')) continue;
      const r = el.getBoundingClientRect();
      if (r.left < -0.5 || r.right > vw + 0.5)
        outside.push(`${name(el)} [${Math.round(r.left)}, ${Math.round(r.right)}]`);
    }
    // A box whose content spills out of it (past its border) is as bad as one off screen.
    for (const el of Array.from(document.querySelectorAll('tr.row, .list, .detail, .empty, .filters, header'))) {
      if (shown(el) && el.scrollWidth > el.clientWidth + 1)
        outside.push(`${name(el)} holds content ${el.scrollWidth - el.clientWidth} px wider than itself`);
    }
    const broken: string[] = [];
    const scope = document.querySelectorAll(
      'td, th, .detail h2, .detail h3, .detail h4, .detail dd, .detail dt, .detail li, .detail p, .detail caption, .detail table.headers td, .empty p, .empty li, .empty dd',
    );
    for (const el of Array.from(scope)) {
      if (!shown(el)) continue;
      const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const text = node.textContent ?? '';
        for (const m of text.matchAll(/[^\s/?&]+[/?&]?/g)) {
          const range = document.createRange();
          range.setStart(node, m.index ?? 0);
          range.setEnd(node, (m.index ?? 0) + m[0].length);
          if (lines(range) > 1) broken.push(`${JSON.stringify(m[0])} in ${name(el)}`);
        }
      }
    }
    const wrapped: string[] = [];
    const short =
      '.state, td.type, td.source, td.attempts, td.last, td.time time, td.time .id, li.attempt .round, li.attempt time, li.attempt .took, li.attempt.none .status, .filters label, .new-mark, nav .tab, .live';
    for (const el of Array.from(document.querySelectorAll(short))) {
      if (!shown(el)) continue;
      const range = document.createRange();
      range.selectNodeContents(el);
      if (lines(range) > 1) wrapped.push(name(el));
    }
    // Badges and buttons as wide as their text (and padding), not stretched across their cell or card.
    for (const el of Array.from(
      document.querySelectorAll('.state, .new-mark, .actions button, .filters .button, .empty .copy'),
    )) {
      if (!shown(el)) continue;
      const range = document.createRange();
      range.selectNodeContents(el);
      const style = getComputedStyle(el);
      const needs =
        range.getBoundingClientRect().width +
        parseFloat(style.paddingLeft) +
        parseFloat(style.paddingRight) +
        parseFloat(style.borderLeftWidth) +
        parseFloat(style.borderRightWidth);
      if (el.getBoundingClientRect().width > needs + 2)
        wrapped.push(
          `${name(el)} is ${Math.round(el.getBoundingClientRect().width - needs)} px wider than its text needs`,
        );
    }
    return { viewport: vw, scrollWidth: document.documentElement.scrollWidth, outside, broken, wrapped };
  });
}

async function expectFits(page: Page, what: string): Promise<void> {
  const g = await measure(page);
  expect({ what, scrollWidth: g.scrollWidth, outside: g.outside, broken: g.broken, wrapped: g.wrapped }).toEqual({
    what,
    scrollWidth: g.viewport,
    outside: [],
    broken: [],
    wrapped: [],
  });
}

async function shot(page: Page, file: string): Promise<void> {
  await page.screenshot({ path: path.join(SHOTS, file), fullPage: true });
}

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  chrome = await launchChromium();
  let failedOnce = false;
  receiver = await startCaptureReceiver((req) => {
    if (req.json.event === 'Invalid Coupon') return { status: 422, body: '{"error":"coupon field missing"}' };
    if (req.json.event === 'Checkout Started' && !failedOnce) {
      failedOnce = true;
      return { status: 500, body: 'database is restarting, try again' };
    }
    return { status: 200, body: '{"ok":true}' };
  });
  emulator = createEmulator({
    sources: [
      {
        writeKey: WRITE_KEY,
        name: 'web app',
        webhooks: {
          enabled: true,
          endpoints: [
            { url: `${receiver.url}/webhooks/segment/destination-events/production-eu-west-1?token=hidden-token-4411` },
          ],
          sharedSecret: SECRET,
        },
      },
      { writeKey: 'wk_layout_ios_77b0e3d1', name: 'iOS app', webhooks: { enabled: false, endpoints: [] } },
      {
        writeKey: 'wk_layout_actions_0a9d3c5e',
        name: 'billing',
        webhooksActions: {
          sharedSecret: SECRET,
          subscriptions: [
            {
              subscribe:
                'type = "track" and event = "Subscription Renewal Payment Authorization Requested By The Billing Service"',
              partnerAction: 'send',
              name: 'Renewals to the billing service',
              mapping: {
                url: `${receiver.url}/billing/renewals/authorization-requests`,
                method: 'PATCH',
                data: { id: { '@path': '$.userId' } },
              },
            },
          ],
        },
      },
    ],
    retry: { initialDelayMs: 150, jitter: 'none' },
  });
  intake = await emulator.listen();
  expect(
    (await post(intake.url, 'identify', { userId: 'user_1001', traits: { email: 'ada@example.com', plan: 'pro' } }))
      .status,
  ).toBe(200);
  expect(
    (await post(intake.url, 'track', { userId: 'user_1001', event: 'Checkout Started', properties: { total: 129.9 } }))
      .status,
  ).toBe(200);
  expect((await post(intake.url, 'track', { userId: 'user_1002', event: 'Invalid Coupon' })).status).toBe(200);
  expect((await post(intake.url, 'track', { userId: 'user_1003', event: LONG_EVENT })).status).toBe(200);
  expect(
    (await post(intake.url, 'track', { userId: 'user_2001', event: 'Screen Viewed' }, 'wk_layout_ios_77b0e3d1')).status,
  ).toBe(200);
  expect(
    (await post(intake.url, 'track', { userId: 'user_3001', event: LONG_EVENT }, 'wk_layout_actions_0a9d3c5e')).status,
  ).toBe(200);
  // Neither userId nor anonymousId: the intake refuses the call, and the log records it filtered, with no message.
  expect((await post(intake.url, 'track', { event: 'Anonymous Tap' })).status).toBe(400);
  await emulator.drain();
  expect(emulator.deliveries.filter((r) => r.state === 'filtered')).toHaveLength(2);
});

afterAll(async () => {
  await intake?.close();
  await emulator?.close();
  await receiver?.close();
  await chrome?.close();
  console.log(`inspector layout screenshots: ${SHOTS}`);
});

describe('the inspector fits the screen, from 400 px to 1280 px', () => {
  for (const width of [400, 1280]) {
    it(`at ${width} px: the list and a failed delivery's detail fit, with no word broken and no 404`, async () => {
      const { page, bad, errors } = await openAt(width, `${intake.url}/`);
      try {
        await page.locator('tr.row').nth(5).waitFor();
        // Cards on a narrow screen, a table on a wide one.
        expect(await page.locator('table.deliveries thead').isVisible()).toBe(width > 720);
        await expectFits(page, `list at ${width}`);
        await shot(page, `list-${width}.png`);
        const failed = emulator.deliveries.find((r) => r.body.includes('Invalid Coupon'));
        await page.locator(`tr.row[data-id="${failed?.id}"] a.event-link`).click();
        await page.locator('#detail li.attempt').first().waitFor();
        await expectFits(page, `failed detail at ${width}`);
        await shot(page, `detail-failed-${width}.png`);
        const retried = emulator.deliveries.find((r) => r.body.includes('Checkout Started'));
        await page.locator(`tr.row[data-id="${retried?.id}"] a.event-link`).click();
        await expect.poll(() => page.locator('#detail li.attempt').count()).toBe(2);
        await expectFits(page, `retried detail at ${width}`);
        // A Webhooks (Actions) delivery: method, subscription and condition in the row and the detail.
        const actions = emulator.deliveries.find((r) => r.actions !== undefined);
        await page.locator(`tr.row[data-id="${actions?.id}"] a.event-link`).click();
        await page.locator('#detail dd', { hasText: 'Renewals to the billing service' }).waitFor();
        await expectFits(page, `actions detail at ${width}`);
        await shot(page, `detail-actions-${width}.png`);
        expect(bad).toEqual([]);
        expect(errors).toEqual([]);
      } finally {
        await page.close();
      }
    });
  }

  it('at 360 px (the narrowest phone) and in between (760, 1000, 1920 px), the list and a detail still fit', async () => {
    for (const width of [360, 760, 1000, 1920]) {
      const { page } = await openAt(width, `${intake.url}/`);
      try {
        await page.locator('tr.row').nth(5).waitFor();
        await expectFits(page, `list at ${width}`);
        const failed = emulator.deliveries.find((r) => r.body.includes('Invalid Coupon'));
        await page.locator(`tr.row[data-id="${failed?.id}"] a.event-link`).click();
        await page.locator('#detail li.attempt').first().waitFor();
        await expectFits(page, `failed detail at ${width}`);
      } finally {
        await page.close();
      }
    }
  });

  it('shows each row with its id, and a filtered delivery with why, in words, not as its event name', async () => {
    const { page } = await openAt(1280, `${intake.url}/`);
    try {
      const refused = emulator.deliveries.find((r) => r.state === 'filtered' && r.body === '');
      const disabled = emulator.deliveries.find((r) => r.state === 'filtered' && r.body.includes('Screen Viewed'));
      for (const r of emulator.deliveries)
        expect(await page.locator(`tr.row[data-id="${r.id}"] td.time .id`).textContent()).toBe(r.id);
      const row = page.locator(`tr.row[data-id="${refused?.id}"]`);
      // No message was built, so the row is named by the call as the client sent it, not by the reason.
      expect(await row.locator('a.event-link').textContent()).toBe('Anonymous Tap');
      expect(await row.locator('.filtered-because').textContent()).toMatch(
        /^Not sent, and no message could be built from the call: refused by the intake: .*userId/,
      );
      await row.locator('a.event-link').click();
      await page.locator('#filtered-title').waitFor();
      expect(await page.locator('#detail .filtered-why p').textContent()).toContain('refused by the intake');
      expect(await page.locator('#detail table.headers').count()).toBe(0);
      expect(await page.locator('#detail').textContent()).not.toContain('Exact bytes sent');
      expect(await page.locator('#detail .no-message').textContent()).toContain('No message could be built');
      // The call as the client sent it, exactly (the intake refused it, so it is what explains the refusal).
      expect(await page.locator('#detail details.raw-call summary').textContent()).toBe(
        'The call as the client sent it',
      );
      expect(await page.locator('#detail details.raw-call pre').textContent()).toBe('{"event":"Anonymous Tap"}');
      await shot(page, 'detail-refused-1280.png');
      await page.locator(`tr.row[data-id="${disabled?.id}"] a.event-link`).click();
      await page.locator('#detail .filtered-why p', { hasText: 'disabled' }).waitFor();
      expect(await page.locator('#detail .filtered-why p').textContent()).toBe(
        'Not sent: the Webhooks destination is disabled for this source (webhooks.enabled: false).',
      );
      expect(await page.locator('#detail h3', { hasText: 'would have sent' }).textContent()).toBe(
        'The message it would have sent (never sent)',
      );
      expect(await page.locator('#detail pre.body').textContent()).toContain('"event": "Screen Viewed"');
      expect(await page.locator('#detail details.raw-call pre').textContent()).toBe(
        '{"userId":"user_2001","event":"Screen Viewed"}',
      );
      await expectFits(page, 'filtered detail at 1280');
      await page.setViewportSize({ width: 400, height: 900 });
      await expectFits(page, 'filtered detail at 400');
      await shot(page, 'detail-filtered-400.png');
    } finally {
      await page.close();
    }
  });
});

describe('the empty log and the test-event form fit a phone', () => {
  it('at 360 and 400 px: the empty log help and Send test event stay inside the screen', async () => {
    const empty = createEmulator({
      sources: [
        {
          writeKey: 'wk_layout_empty_6d2a90b1',
          name: 'a source with a rather long name for a phone',
          webhooks: { enabled: true, endpoints: [{ url: `${receiver.url}/hook` }] },
        },
      ],
    });
    const server = await empty.listen();
    try {
      for (const width of [360, 400]) {
        const { page, bad } = await openAt(width, `${server.url}/`);
        try {
          await page.locator('section.empty').waitFor();
          await expectFits(page, `empty log at ${width}`);
          await shot(page, `empty-${width}.png`);
          await page.getByRole('link', { name: 'Send test event' }).click();
          await page.locator('#send-test-title').waitFor();
          await expectFits(page, `send test event at ${width}`);
          const editor = await page.getByLabel('Message (JSON)').boundingBox();
          expect(editor && editor.x >= 0 && editor.x + editor.width <= width).toBe(true);
          expect(bad).toEqual([]);
        } finally {
          await page.close();
        }
      }
    } finally {
      await server.close();
      await empty.close();
    }
  });
});

describe('calls the intake did not deliver: their text as sent', () => {
  it("keeps its own text from a batch (the other calls' text is not kept), shown in the detail", async () => {
    const refusedText = '{"type":"track","event":"Batch Anonymous","properties":{"n":1.0}}';
    const body = `{"batch":[{"type":"track","userId":"batch-1","event":"Batch Good"},${refusedText}]}`;
    const res = await fetch(`${intake.url}/v1/batch`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `Basic ${Buffer.from(`${WRITE_KEY}:`).toString('base64')}`,
      },
      body,
    });
    expect(res.status).toBe(200);
    const { refused } = (await res.json()) as { refused: Array<{ recordId: string }> };
    const record = emulator.get(refused[0]?.recordId as string);
    expect(record?.state).toBe('filtered');
    expect(record?.rawCall).toBe(refusedText);
    const good = emulator.deliveries.find((r) => r.body.includes('Batch Good'));
    expect(good?.rawCall).toBeUndefined();
    const { page } = await openAt(400, `${intake.url}/#/deliveries/${record?.id}`);
    try {
      await page.locator('#detail details.raw-call pre').waitFor();
      expect(await page.locator('#detail details.raw-call pre').textContent()).toBe(refusedText);
      await expectFits(page, 'refused detail at 400');
    } finally {
      await page.close();
    }
  });

  it('a filtered call shows its text as sent, kept with its record, with the write key in it masked', async () => {
    const iosKey = 'wk_layout_ios_77b0e3d1';
    const text = `{"writeKey":"${iosKey}","userId":"user_2002","event":"Tab Opened","properties":{"price":1.0}}`;
    const res = await fetch(`${intake.url}/v1/track`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: text,
    });
    expect(res.status).toBe(200);
    const record = emulator.deliveries.find((r) => r.state === 'filtered' && r.body.includes('Tab Opened'));
    expect(record?.rawCall).toBe(text.replace(iosKey, 'wk_l…(22 chars)'));
    // Kept on the record: in its JSON too.
    expect(JSON.parse(JSON.stringify(record)).rawCall).toBe(record?.rawCall);
    const detail = (await (await fetch(`${intake.url}/_hookgate/ui/api/deliveries/${record?.id}`)).json()) as {
      rawCall?: string;
    };
    expect(detail.rawCall).toContain('"price":1.0');
    expect(detail.rawCall).not.toContain(iosKey);
  });
});

describe("hookgate listen's Inbound tab fits the screen too", () => {
  for (const width of [400, 1280]) {
    it(`at ${width} px: the requests and a refused one's detail fit, with no word broken and no 404`, async () => {
      const listener = await startListener({ secret: SECRET, forwardTo: `${receiver.url}/webhooks` });
      const { page, bad, errors } = await openAt(width, listener.inspectorUrl);
      try {
        const send = async (path: string, body: string, signature: string) => {
          const res = await fetch(`${listener.url}${path}`, {
            method: 'POST',
            body,
            headers: { 'content-type': 'application/json', 'user-agent': 'Segment.io/1.0', 'x-signature': signature },
          });
          await res.arrayBuffer();
        };
        const good = JSON.stringify({
          version: 1,
          type: 'track',
          userId: 'user_1003',
          event: LONG_EVENT,
          timestamp: '2026-11-25T10:00:00.000Z',
        });
        await send('/webhooks/segment/destination-events/production-eu-west-1', good, sign(good, SECRET));
        const forged = JSON.stringify({
          version: 1,
          type: 'track',
          userId: 'user_1001',
          event: 'Refund Issued',
          timestamp: '2026-11-25T10:00:01.000Z',
        });
        await send('/webhooks', forged, sign(forged, 'not-the-secret'));
        await page.locator('tr.inbound-row').nth(1).waitFor();
        await expectFits(page, `inbound list at ${width}`);
        await shot(page, `inbound-list-${width}.png`);
        await page.locator('tr.inbound-row[data-verdict="refused"] a.event-link').click();
        await page.locator('#inbound-detail #verdict-title').waitFor();
        await expectFits(page, `inbound detail at ${width}`);
        await shot(page, `inbound-detail-${width}.png`);
        expect(bad).toEqual([]);
        expect(errors).toEqual([]);
      } finally {
        await page.close();
        await listener.close();
      }
    });
  }
});
