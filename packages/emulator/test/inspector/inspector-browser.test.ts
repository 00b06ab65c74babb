// The web inspector in a real browser (Debian's chromium through playwright-core), against a real
// emulator, intake and receiver on 127.0.0.1.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { createEmulator, type Emulator, type IntakeServer } from '@hookgate/emulator';
import { startCaptureReceiver, type CaptureReceiver } from '../helpers/capture-receiver.js';
import { launchChromium, type RunningBrowser } from './chromium.js';

const SECRET = 'whsec-browser-secret-7f3a9c';
const PASSWORD = 'url-pa55word-91b2';
const QUERY_TOKEN = 'query-token-5d8e0a';
const WRITE_KEY = 'wk_browser';

let chrome: RunningBrowser;
let receiver: CaptureReceiver;
let emulator: Emulator;
let intake: IntakeServer;
let context: BrowserContext;
let page: Page;
let flakyFailures = 0;
let focusFailures = 0;

async function track(body: Record<string, unknown>, type = 'track'): Promise<void> {
  const res = await fetch(`${intake.url}/v1/${type}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      authorization: `Basic ${Buffer.from(`${WRITE_KEY}:`).toString('base64')}`,
    },
    body: JSON.stringify(body),
  });
  expect(res.status).toBe(200);
}

function receivedWith(pred: (json: Record<string, unknown>) => boolean): number {
  return receiver.received.filter((r) => pred(r.json)).length;
}

async function until(check: () => boolean | Promise<boolean>, what: string, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`timed out waiting for ${what}`);
}

async function openInspector(): Promise<void> {
  await page.goto(`${intake.url}/`);
  await page.locator('#live[data-state="open"]').waitFor();
}

beforeAll(async () => {
  chrome = await launchChromium();
  receiver = await startCaptureReceiver((req) => {
    if (req.json.event === 'Flaky Checkout' && flakyFailures === 0) {
      flakyFailures++;
      return { status: 500, body: 'receiver down for a moment' };
    }
    if (req.json.event === 'Focus Kept' && focusFailures < 2) {
      focusFailures++;
      return { status: 500, body: 'not yet' };
    }
    return { status: 200, body: '{"ok":true}' };
  });
  const endpoint = `http://hook:${PASSWORD}@127.0.0.1:${receiver.port}/hook?token=${QUERY_TOKEN}`;
  emulator = createEmulator({
    sources: [
      {
        writeKey: WRITE_KEY,
        name: 'web app',
        webhooks: { enabled: true, endpoints: [{ url: endpoint }], sharedSecret: SECRET },
      },
    ],
    retry: { initialDelayMs: 200, jitter: 'none' },
  });
  intake = await emulator.listen();
});

afterAll(async () => {
  await intake?.close();
  await emulator?.close();
  await receiver?.close();
  await chrome?.close();
});

describe('inspector in chromium', () => {
  let dialogs: string[];
  let errors: string[];

  beforeAll(async () => {
    context = await chrome.browser.newContext();
  });
  afterAll(async () => {
    await context.close();
  });
  afterEach(async () => {
    await page?.close();
  });
  const newPage = async () => {
    page = await context.newPage();
    dialogs = [];
    errors = [];
    page.on('dialog', (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    page.on('pageerror', (e) => errors.push(e.message));
  };

  it('shows a row live, without a reload, for a call sent to the intake', async () => {
    await newPage();
    let navigations = 0;
    page.on('framenavigated', (f) => {
      if (f === page.mainFrame()) navigations++;
    });
    await openInspector();
    expect(await page.locator('tr.row', { hasText: 'Live Row Arrives' }).count()).toBe(0);
    await track({ userId: 'u-live', event: 'Live Row Arrives' });
    const row = page.locator('tr.row', { hasText: 'Live Row Arrives' });
    await row.waitFor({ timeout: 5000 });
    await expect.poll(() => row.locator('td.state-cell').textContent(), { timeout: 5000 }).toBe('delivered');
    expect(await row.locator('td.type').textContent()).toBe('track');
    expect(await row.locator('td.source').textContent()).toBe('web app');
    expect(await row.locator('td.last').textContent()).toBe('200');
    expect(navigations).toBe(1);
    expect(errors).toEqual([]);
  });

  it('shows two attempts, 500 then 200, for a receiver that fails once; no secret reaches the page', async () => {
    await newPage();
    await track({ userId: 'u-flaky', event: 'Flaky Checkout', properties: { total: 42 } });
    await until(() => receivedWith((j) => j.event === 'Flaky Checkout') === 2, 'the retry');
    await openInspector();
    await page.locator('tr.row', { hasText: 'Flaky Checkout' }).first().click();
    const attempts = page.locator('#detail li.attempt');
    await expect.poll(() => attempts.count(), { timeout: 5000 }).toBe(2);
    expect(await attempts.nth(0).getAttribute('data-status')).toBe('500');
    expect(await attempts.nth(1).getAttribute('data-status')).toBe('200');
    expect(await attempts.nth(0).textContent()).toContain('receiver down for a moment');
    const headers = await page.locator('#detail table.headers').textContent();
    const signature = emulator.deliveries.find((r) => r.body.includes('Flaky Checkout'))?.signature as string;
    expect(headers).toContain(`${signature.slice(0, 6)}…`);
    const html = await page.content();
    for (const secret of [SECRET, PASSWORD, QUERY_TOKEN, signature]) expect(html).not.toContain(secret);
    expect(html).toContain(`hook:***@127.0.0.1:${receiver.port}/hook?token=***`);
  });

  it('Replay makes the receiver get the message again', async () => {
    await newPage();
    await track({ userId: 'u-replay', event: 'Replay Me' });
    await until(() => receivedWith((j) => j.event === 'Replay Me') === 1, 'the first delivery');
    const original = emulator.deliveries.find((r) => r.body.includes('Replay Me'));
    await openInspector();
    await page.locator('tr.row', { hasText: 'Replay Me' }).locator('a.event-link').click();
    await page.getByRole('button', { name: 'Replay', exact: true }).click();
    await until(() => receivedWith((j) => j.event === 'Replay Me') === 2, 'the replayed delivery');
    const [first, second] = receiver.received.filter((r) => r.json.event === 'Replay Me');
    expect(second?.text).toBe(first?.text);
    await page.getByText(/Replay: sent as dlv_\d+/).waitFor();
    expect(emulator.deliveries.some((r) => r.replayOf === original?.id)).toBe(true);
  });

  it('Send test event delivers the edited fixture; a bad field is named by its path', async () => {
    await newPage();
    await openInspector();
    await page.getByRole('link', { name: 'Send test event' }).click();
    await page.getByLabel('Event type').selectOption('identify');
    const editor = page.getByLabel('Message (JSON)');
    const template = JSON.parse(await editor.inputValue()) as Record<string, unknown>;
    expect(template.type).toBe('identify');
    await editor.fill(JSON.stringify({ ...template, userId: 42 }));
    await page.getByRole('button', { name: 'Send' }).click();
    await page.locator('#test-issues li', { hasText: '$.userId' }).waitFor();
    await editor.fill(JSON.stringify({ ...template, userId: 'u-test-event' }));
    await page.getByRole('button', { name: 'Send' }).click();
    await until(
      () => receivedWith((j) => j.userId === 'u-test-event' && j.type === 'identify') === 1,
      'the test event',
    );
    const got = receiver.received.find((r) => r.json.userId === 'u-test-event');
    expect(got?.json.traits).toEqual(template.traits);
  });

  it('Copy as curl puts the command on the clipboard, with no secret and no full signature', async () => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: intake.url });
    await newPage();
    await track({ userId: 'u-curl', event: 'Copy Curl' });
    await until(() => receivedWith((j) => j.event === 'Copy Curl') === 1, 'the delivery');
    const record = emulator.deliveries.find((r) => r.body.includes('Copy Curl'));
    await openInspector();
    await page.locator('a.event-link', { hasText: 'Copy Curl' }).click();
    await page.getByRole('button', { name: 'Copy as curl' }).click();
    await page.getByText(/^Copied\. Set HOOKGATE_SECRET/).waitFor();
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    expect(copied).toContain(`BODY='${record?.body}'`);
    expect(copied).toContain('openssl dgst -sha1 -hmac "$HOOKGATE_SECRET"');
    for (const secret of [SECRET, PASSWORD, QUERY_TOKEN, record?.signature as string])
      expect(copied).not.toContain(secret);
  });

  it('shows a hostile event name as text and runs nothing', async () => {
    await newPage();
    const hostile = ['<img src=x onerror="window.__pwned=1;alert(1)">', '<script>window.__pwned=2;alert(2)</script>'];
    for (const event of hostile) await track({ userId: 'u-evil', event });
    // A payload parsed as HTML would try to run; the CSP would block it and report a violation.
    await page.addInitScript(() => {
      (window as { __violations?: string[] }).__violations = [];
      document.addEventListener('securitypolicyviolation', (e) =>
        (window as unknown as { __violations: string[] }).__violations.push(e.violatedDirective),
      );
    });
    await openInspector();
    for (const event of hostile) {
      const link = page.locator('a.event-link', { hasText: event });
      await link.first().waitFor();
      expect(await link.first().textContent()).toBe(event);
    }
    await page
      .locator('a.event-link', { hasText: hostile[0] as string })
      .first()
      .click();
    await page.locator('#detail strong.event-name').waitFor();
    expect(await page.locator('#detail strong.event-name').textContent()).toBe(hostile[0]);
    await page.waitForTimeout(300);
    expect(await page.evaluate(() => (window as { __pwned?: number }).__pwned)).toBeUndefined();
    expect(await page.locator('body img, body script').count()).toBe(0);
    expect(await page.evaluate(() => (window as { __violations?: string[] }).__violations)).toEqual([]);
    expect(dialogs).toEqual([]);
  });

  it('filters and the search narrow the list', async () => {
    await newPage();
    await track({ userId: 'u-filter-1', event: 'Filter Tracked' });
    await track({ userId: 'u-filter-2', traits: { plan: 'pro' } }, 'identify');
    await track({ userId: 'u-filter-3', groupId: 'g1' }, 'group');
    await until(() => receivedWith((j) => String(j.userId).startsWith('u-filter')) === 3, 'the filter fixtures');
    await openInspector();
    const rows = page.locator('tr.row');
    await expect.poll(() => rows.count()).toBeGreaterThan(3);
    const all = await rows.count();
    await page.getByLabel('Type').selectOption('identify');
    await expect
      .poll(async () => (await rows.locator('td.type').allTextContents()).every((t) => t === 'identify'))
      .toBe(true);
    expect(await rows.count()).toBeLessThan(all);
    await page.getByLabel('Type').selectOption('');
    await page.getByLabel('Search').fill('u-filter-3');
    await expect.poll(() => rows.count()).toBe(1);
    expect(await rows.first().locator('td.type').textContent()).toBe('group');
    await page.getByLabel('Search').fill('');
    await page.getByLabel('State').selectOption('failed');
    await expect.poll(() => page.locator('p.count').textContent()).toBe('No delivery matches these filters.');
  });

  it('keeps the keyboard focus on a row while the list updates live (the row in place, new rows above it)', async () => {
    await newPage();
    await openInspector();
    await track({ userId: 'u-focus', event: 'Focus Kept' });
    const link = page.locator('a.event-link', { hasText: 'Focus Kept' });
    await link.waitFor();
    await link.focus();
    const focused = () =>
      page.evaluate(() => {
        const el = document.activeElement as HTMLElement | null;
        return { text: el?.textContent ?? '', row: el?.closest('tr')?.getAttribute('data-state') ?? '' };
      });
    // Two failed attempts, then 200: the row is re-filled in place at each answer.
    await expect.poll(async () => (await focused()).row, { timeout: 10_000 }).toBe('delivered');
    expect(focusFailures).toBe(2);
    expect((await focused()).text).toBe('Focus Kept');
    // New rows: the whole list is reloaded; the focus stays on the same row's link.
    for (let i = 0; i < 3; i++) await track({ userId: 'u-focus', event: `After Focus ${i}` });
    await page.locator('a.event-link', { hasText: 'After Focus 2' }).waitFor();
    expect(await focused()).toEqual({ text: 'Focus Kept', row: 'delivered' });
    // And Enter still opens it.
    await page.keyboard.press('Enter');
    await page.locator('#detail-title').waitFor({ timeout: 10_000 });
    expect(await page.locator('#detail strong.event-name').textContent()).toBe('Focus Kept');
  });

  it('reaches every action by keyboard, and every button and link has a name', async () => {
    await newPage();
    await track({ userId: 'u-keys', event: 'Keyboard Only' });
    await until(() => receivedWith((j) => j.event === 'Keyboard Only') === 1, 'the delivery');
    // Let the emulator record the answer (and finish earlier tests' retries) first: a live update that
    // re-renders the list mid-walk replaces the focused link, and Enter would then open nothing.
    await emulator.drain();
    await openInspector();
    await page.locator('a.event-link', { hasText: 'Keyboard Only' }).waitFor();
    // Tab from the top of the page to the row's link, open it with Enter.
    let reached = false;
    for (let i = 0; i < 60 && !reached; i++) {
      await page.keyboard.press('Tab');
      reached = (await page.evaluate(() => document.activeElement?.textContent ?? '')) === 'Keyboard Only';
    }
    expect(reached).toBe(true);
    await page.keyboard.press('Enter');
    await page.locator('#detail-title').waitFor({ timeout: 10_000 });
    const names: string[] = [];
    for (let i = 0; i < 10; i++) {
      await page.keyboard.press('Tab');
      names.push(await page.evaluate(() => (document.activeElement as HTMLElement | null)?.textContent?.trim() ?? ''));
      if (names.at(-1) === 'Replay') break;
    }
    expect(names).toContain('Replay');
    await page.keyboard.press('Enter');
    await until(() => receivedWith((j) => j.event === 'Keyboard Only') === 2, 'the replay by keyboard');
    const unnamed = await page.evaluate(() =>
      Array.from(document.querySelectorAll('button, a[href], select, input, textarea'))
        .filter((el) => {
          const label = el.id ? document.querySelector(`label[for="${el.id}"]`) : null;
          return !(el.textContent?.trim() || el.getAttribute('aria-label') || label?.textContent?.trim());
        })
        .map((el) => el.outerHTML),
    );
    expect(unnamed).toEqual([]);
  });
});

describe('Retry now, in chromium', () => {
  it('shows the next retry and the time left in the 4 h window, and Retry now delivers at once', async () => {
    let calls = 0;
    const slow = await startCaptureReceiver(() => (calls++ === 0 ? 503 : 200));
    const em = createEmulator({
      sources: [
        {
          writeKey: 'wk_retry',
          webhooks: { enabled: true, endpoints: [{ url: `${slow.url}/hook` }], sharedSecret: SECRET },
        },
      ],
      retry: { initialDelayMs: 3_600_000, jitter: 'none' },
    });
    const server = await em.listen();
    const ctx = await chrome.browser.newContext();
    try {
      const record = em.track({ userId: 'u-retry', event: 'Retry Later' }, { writeKey: 'wk_retry' });
      await until(() => record.nextAttemptAt !== undefined, 'the retry to be scheduled');
      const p = await ctx.newPage();
      await p.goto(`${server.url}/#/deliveries/${record.id}`);
      const schedule = p.locator('#detail p.schedule');
      await schedule.waitFor();
      expect(await schedule.textContent()).toMatch(
        /^Next retry at 2\d{3}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3} UTC \(in (1 h|59 min \d+ s)\)\. The 4 h retry window closes at .* UTC \((4 h|3 h 59 min \d+ s) left\)\.$/,
      );
      await p.getByRole('button', { name: 'Retry now' }).click();
      await until(() => slow.received.length === 2, 'the retry now');
      await until(() => record.state === 'delivered', 'the delivery');
      await expect.poll(() => p.locator('#detail li.attempt').count(), { timeout: 5000 }).toBe(2);
      expect(await p.getByRole('button', { name: 'Retry now' }).count()).toBe(0);
    } finally {
      await ctx.close();
      await server.close();
      await em.close();
      await slow.close();
    }
  });
});
