// Finding one's way in the inspector, in a real browser (Debian's chromium through playwright-core)
// against a real emulator, intake and receiver on 127.0.0.1: replays as links with the new row marked,
// filters kept in the address across a reload, the keys (j/k, arrows, Enter, Escape), the empty log's
// help (whose copied curl command is run for real), the banner when the server is gone (and gone away
// when it is back), and the curl command's guard when HOOKGATE_SECRET is unset (run in bash).
import { execFile } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { sign } from '@hookgate/core';
import { createEmulator, startListener, type Emulator, type IntakeServer } from '@hookgate/emulator';
import { startCaptureReceiver, type CaptureReceiver } from '../helpers/capture-receiver.js';
import { launchChromium, type RunningBrowser } from './chromium.js';

const SECRET = 'whsec-nav-secret-19ad04';
const WRITE_KEY = 'wk_navigation_3b8e7f21c4';

let chrome: RunningBrowser;
let receiver: CaptureReceiver;

function bash(
  script: string,
  env: Record<string, string | undefined>,
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      'bash',
      ['-c', script],
      { env: { PATH: process.env.PATH, ...env }, timeout: 15_000 },
      (error, stdout, stderr) =>
        resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

async function until(check: () => boolean | Promise<boolean>, what: string, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`timed out waiting for ${what}`);
}

async function start(): Promise<{ emulator: Emulator; intake: IntakeServer }> {
  const emulator = createEmulator({
    sources: [
      {
        writeKey: WRITE_KEY,
        name: 'web app',
        webhooks: { enabled: true, endpoints: [{ url: `${receiver.url}/hook` }], sharedSecret: SECRET },
      },
    ],
    retry: { initialDelayMs: 100, jitter: 'none' },
  });
  return { emulator, intake: await emulator.listen() };
}

async function open(url: string, width = 1280): Promise<Page> {
  const context = await chrome.browser.newContext({ viewport: { width, height: 900 } });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(url).origin });
  const page = await context.newPage();
  await page.goto(url);
  await page.locator('#live[data-state="open"]').waitFor();
  return page;
}

const focusedRow = (page: Page) =>
  page.evaluate(() => document.activeElement?.closest('tr')?.getAttribute('data-id') ?? null);

beforeAll(async () => {
  chrome = await launchChromium();
  receiver = await startCaptureReceiver(() => 200);
});

afterAll(async () => {
  await receiver?.close();
  await chrome?.close();
});

describe('the deliveries list in chromium', () => {
  let emulator: Emulator;
  let intake: IntakeServer;
  beforeAll(async () => {
    ({ emulator, intake } = await start());
    emulator.identify({ userId: 'nav-1', traits: { plan: 'pro' } }, { writeKey: WRITE_KEY });
    for (const event of ['First Event', 'Second Event', 'Third Event'])
      emulator.track({ userId: 'nav-1', event }, { writeKey: WRITE_KEY });
    await emulator.drain();
  });
  afterAll(async () => {
    await intake?.close();
    await emulator?.close();
  });

  it('links a replay both ways and marks its new row', async () => {
    const page = await open(`${intake.url}/`);
    try {
      const original = emulator.deliveries.find((r) => r.body.includes('Second Event'));
      await page.locator(`tr.row[data-id="${original?.id}"] a.event-link`).click();
      await page.getByRole('button', { name: 'Replay', exact: true }).click();
      const link = page.locator('#detail .action-result a.record-link');
      await link.waitFor();
      const replayId = (await link.textContent()) as string;
      expect(replayId).toMatch(/^dlv_\d+$/);
      expect(emulator.get(replayId)?.replayOf).toBe(original?.id);
      const row = page.locator(`tr.row[data-id="${replayId}"]`);
      await row.waitFor();
      expect(await row.getAttribute('class')).toContain('row-new');
      expect(await row.locator('.new-mark').textContent()).toBe('new');
      expect(await row.locator('a.replay-link').textContent()).toBe(original?.id);
      // The original's row is not marked.
      expect(await page.locator(`tr.row[data-id="${original?.id}"] .new-mark`).count()).toBe(0);
      await link.click();
      await page.locator('#detail-title', { hasText: `Delivery ${replayId}` }).waitFor();
      await page.locator('#detail dd a.record-link', { hasText: original?.id as string }).click();
      await page.locator('#detail-title', { hasText: `Delivery ${original?.id}` }).waitFor();
      expect(new URL(page.url()).hash).toBe(`#/deliveries/${original?.id}`);
    } finally {
      await page.context().close();
    }
  });

  it('keeps the filters in the address: a reload shows the same filtered list', async () => {
    const page = await open(`${intake.url}/`);
    try {
      await page.getByLabel('Type').selectOption('identify');
      await page.getByLabel('Search').fill('nav-1');
      await expect.poll(() => new URL(page.url()).search).toBe('?type=identify&q=nav-1');
      await expect.poll(() => page.locator('tr.row').count()).toBe(1);
      await page.reload();
      await page.locator('#live[data-state="open"]').waitFor();
      expect(await page.getByLabel('Type').inputValue()).toBe('identify');
      expect(await page.getByLabel('Search').inputValue()).toBe('nav-1');
      await expect.poll(() => page.locator('tr.row').count()).toBe(1);
      expect(await page.locator('tr.row td.type').textContent()).toBe('identify');
      // A link with filters and a delivery opens both.
      const third = emulator.deliveries.find((r) => r.body.includes('Third Event'));
      await page.goto(`${intake.url}/?type=track#/deliveries/${third?.id}`);
      await page.locator('#detail-title', { hasText: `Delivery ${third?.id}` }).waitFor();
      expect(await page.getByLabel('Type').inputValue()).toBe('track');
      await expect
        .poll(async () => (await page.locator('tr.row td.type').allTextContents()).every((t) => t === 'track'))
        .toBe(true);
      // Clearing a filter takes it out of the address, the open delivery stays.
      await page.getByLabel('Type').selectOption('');
      await expect.poll(() => page.url()).toBe(`${intake.url}/#/deliveries/${third?.id}`);
    } finally {
      await page.context().close();
    }
  });

  it('walks the list with j/k and the arrows, opens with Enter, closes with Escape', async () => {
    const page = await open(`${intake.url}/`);
    try {
      await page.locator('tr.row').nth(3).waitFor();
      const ids = await page.locator('tr.row').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-id')));
      await page.keyboard.press('j');
      expect(await focusedRow(page)).toBe(ids[0]);
      await page.keyboard.press('j');
      await page.keyboard.press('ArrowDown');
      expect(await focusedRow(page)).toBe(ids[2]);
      await page.keyboard.press('k');
      expect(await focusedRow(page)).toBe(ids[1]);
      await page.keyboard.press('ArrowUp');
      await page.keyboard.press('ArrowDown');
      expect(await focusedRow(page)).toBe(ids[1]);
      await page.keyboard.press('Enter');
      await page.locator('#detail-title', { hasText: `Delivery ${ids[1]}` }).waitFor();
      expect(new URL(page.url()).hash).toBe(`#/deliveries/${ids[1]}`);
      // From the open detail, j moves on to the next row.
      await page.keyboard.press('j');
      expect(await focusedRow(page)).toBe(ids[2]);
      await page.keyboard.press('Escape');
      await page.locator('#detail .placeholder').waitFor();
      expect(new URL(page.url()).hash).toBe('#/deliveries');
      expect(await focusedRow(page)).toBe(ids[1]);
      // Typing in the search box is typing, not walking.
      await page.getByLabel('Search').focus();
      await page.keyboard.type('jk');
      expect(await page.getByLabel('Search').inputValue()).toBe('jk');
    } finally {
      await page.context().close();
    }
  });
});

describe('an empty log in chromium', () => {
  it('shows the intake URL, the write key masked and a curl command that, copied and run, makes the first row', async () => {
    const { emulator, intake } = await start();
    const page = await open(`${intake.url}/`, 400);
    try {
      const empty = page.locator('section.empty');
      await empty.waitFor();
      expect(await page.locator('p.count').textContent()).toBe('The log is empty.');
      expect(await empty.locator('.intake-url').textContent()).toBe(`${intake.url}/v1/`);
      const shownKey = (await empty.locator('.write-key').textContent()) as string;
      expect(shownKey).not.toContain(WRITE_KEY.slice(6));
      expect(shownKey).toMatch(/…/);
      expect(await page.content()).not.toContain(WRITE_KEY);
      await empty.getByRole('button', { name: 'Copy curl' }).click();
      await empty.getByText(/^Copy curl: copied\./).waitFor();
      const command = await page.evaluate(() => navigator.clipboard.readText());
      expect(command).toContain(`${intake.url}/v1/track`);
      const run = await bash(command, { WRITE_KEY });
      expect(run.code).toBe(0);
      await page.locator('tr.row', { hasText: 'Hello from curl' }).waitFor();
      expect(await empty.isHidden()).toBe(true);
      expect(emulator.deliveries).toHaveLength(1);
      // A filter that hides every row is a filter miss, not an empty log.
      await page.getByLabel('State').selectOption('failed');
      await expect.poll(() => page.locator('p.count').textContent()).toBe('No delivery matches these filters.');
      expect(await empty.isHidden()).toBe(true);
    } finally {
      await page.context().close();
      await intake.close();
      await emulator.close();
    }
  });
});

describe('a stopped server in chromium', () => {
  it('shows a banner while the server is gone, and drops it when the server is back on its port', async () => {
    const first = await start();
    first.emulator.track({ userId: 'gone-1', event: 'Before The Stop' }, { writeKey: WRITE_KEY });
    const page = await open(`${first.intake.url}/`, 400);
    const port = Number(new URL(first.intake.url).port);
    let second: Awaited<ReturnType<typeof start>> | undefined;
    try {
      await page.locator('tr.row', { hasText: 'Before The Stop' }).waitFor();
      const banner = page.locator('#server-gone');
      expect(await banner.isHidden()).toBe(true);
      await first.intake.close();
      await banner.waitFor({ state: 'visible', timeout: 10_000 });
      expect(await banner.getAttribute('role')).toBe('alert');
      expect(await banner.textContent()).toMatch(/^The hookgate server is not answering/);
      expect(await page.locator('#live').textContent()).toBe('server gone');
      // What was shown stays, marked stale.
      expect(await page.locator('tr.row', { hasText: 'Before The Stop' }).count()).toBe(1);
      expect(await page.evaluate(() => document.body.classList.contains('stale'))).toBe(true);
      const bannerBox = await banner.boundingBox();
      expect(bannerBox && bannerBox.x >= 0 && bannerBox.x + bannerBox.width <= 400).toBe(true);
      await page.screenshot({
        path: `${process.env.HOOKGATE_SCREENSHOTS_DIR ?? '/tmp/hookgate-inspector-layout'}/server-gone-400.png`,
      });
      // Back on the same port: the page reconnects by itself and reloads the (new) log.
      const emulator = createEmulator({
        sources: [{ writeKey: WRITE_KEY, webhooks: { enabled: true, endpoints: [{ url: `${receiver.url}/hook` }] } }],
      });
      second = { emulator, intake: await emulator.listen({ port }) };
      await banner.waitFor({ state: 'hidden', timeout: 15_000 });
      expect(await page.locator('#live').textContent()).toBe('live');
      await page.locator('section.empty').waitFor();
    } finally {
      await page.context().close();
      await first.intake.close().catch(() => {});
      await first.emulator.close();
      await second?.intake.close();
      await second?.emulator.close();
    }
    // Its own waits bound it (10 s for the banner, 15 s to reconnect); the rest is a browser on a loaded machine.
  }, 60_000);
});

describe('the curl command of a signed delivery, run in bash', () => {
  it('stops with a message and sends nothing when HOOKGATE_SECRET is unset; with it, the receiver verifies the signature', async () => {
    const { emulator, intake } = await start();
    try {
      const record = emulator.track({ userId: 'curl-1', event: 'Curl Guard' }, { writeKey: WRITE_KEY });
      await emulator.drain();
      await until(() => receiver.received.some((r) => r.json.event === 'Curl Guard'), 'the delivery');
      const res = await fetch(`${intake.url}/_hookgate/ui/api/deliveries/${record.id}`);
      const { curl } = (await res.json()) as { curl: string };
      const before = receiver.received.length;
      const without = await bash(curl, {});
      expect(without.code).not.toBe(0);
      expect(without.stderr).toContain(
        'set HOOKGATE_SECRET to the shared secret of the source first (nothing was sent)',
      );
      const empty = await bash(curl, { HOOKGATE_SECRET: '' });
      expect(empty.code).not.toBe(0);
      await new Promise((r) => setTimeout(r, 200));
      expect(receiver.received.length).toBe(before);
      const withSecret = await bash(curl, { HOOKGATE_SECRET: SECRET });
      expect(withSecret.code).toBe(0);
      await until(() => receiver.received.length === before + 1, 'the curl request');
      const got = receiver.received.at(-1);
      expect(got?.text).toBe(record.body);
      expect(got?.headers['x-signature']).toBe(sign(got?.body as Buffer, SECRET));
    } finally {
      await intake.close();
      await emulator.close();
    }
  });
});

describe('Copy as curl in chromium, when the secret is unknown', () => {
  it('copies nothing and says why, visibly, for a signed delivery whose source no longer has a secret', async () => {
    const { emulator, intake } = await start();
    const page = await open(`${intake.url}/`);
    try {
      const record = emulator.track({ userId: 'curl-2', event: 'Secret Removed' }, { writeKey: WRITE_KEY });
      await emulator.drain();
      expect(record.signature).toBeDefined();
      emulator.updateSource(WRITE_KEY, { webhooks: { enabled: true, endpoints: [{ url: `${receiver.url}/hook` }] } });
      expect(emulator.sources[0]?.webhooks?.signed).toBe(false);
      await page.bringToFront();
      await page.evaluate(() => navigator.clipboard.writeText('clipboard before'));
      await page.goto(`${intake.url}/#/deliveries/${record.id}`);
      await page.locator('#detail-title', { hasText: `Delivery ${record.id}` }).waitFor({ timeout: 10_000 });
      await page.getByRole('button', { name: 'Copy as curl' }).click({ timeout: 10_000 });
      const alert = page.getByRole('alert').filter({ hasText: 'Not copied' });
      await alert.waitFor({ timeout: 10_000 });
      expect(await alert.textContent()).toBe(
        `Not copied: ${record.id} was signed, but its source no longer has a shared secret (removed after this delivery), so there is no secret to put in HOOKGATE_SECRET and the command could not sign. Give the source its sharedSecret again to copy it.`,
      );
      expect(await alert.isVisible()).toBe(true);
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe('clipboard before');
      // A live re-render of the pane (here a burst of 250 changes: the stream says reset) keeps the message.
      await page.evaluate(
        () => ((window as unknown as { oldTitle: Element | null }).oldTitle = document.querySelector('#detail-title')),
      );
      for (let i = 0; i < 250; i++) emulator.track({ userId: 'burst', event: `Burst ${i}` }, { writeKey: WRITE_KEY });
      await expect
        .poll(
          () =>
            page.evaluate(
              () =>
                document.querySelector('#detail-title') !==
                (window as unknown as { oldTitle: Element | null }).oldTitle,
            ),
          { timeout: 15_000 },
        )
        .toBe(true);
      expect(await alert.textContent()).toContain(`Not copied: ${record.id} was signed`);
      await emulator.drain();
      // With a secret again, the same button copies.
      emulator.updateSource(WRITE_KEY, {
        webhooks: { enabled: true, endpoints: [{ url: `${receiver.url}/hook` }], sharedSecret: SECRET },
      });
      await page.reload();
      await page.locator('#detail-title', { hasText: `Delivery ${record.id}` }).waitFor({ timeout: 10_000 });
      await page.getByRole('button', { name: 'Copy as curl' }).click({ timeout: 10_000 });
      await page.getByText(/^Copied\. Set HOOKGATE_SECRET/).waitFor({ timeout: 10_000 });
      expect(await page.evaluate(() => navigator.clipboard.readText())).toContain('HOOKGATE_SECRET:?');
    } finally {
      await page.context().close();
      await intake.close();
      await emulator.close();
    }
  });
});

describe("hookgate listen's Inbound tab in chromium", () => {
  it('walks the requests with the same keys', async () => {
    const listener = await startListener({ secret: SECRET, forwardTo: `${receiver.url}/hook` });
    const page = await open(listener.inspectorUrl);
    try {
      for (const event of ['Inbound One', 'Inbound Two']) {
        const body = JSON.stringify({
          version: 1,
          type: 'track',
          userId: 'in-1',
          event,
          timestamp: '2026-11-25T10:00:00.000Z',
        });
        const res = await fetch(`${listener.url}/webhooks`, {
          method: 'POST',
          body,
          headers: { 'content-type': 'application/json', 'x-signature': sign(body, SECRET) },
        });
        await res.arrayBuffer();
      }
      await page.locator('tr.inbound-row').nth(1).waitFor();
      const ids = await page
        .locator('tr.inbound-row')
        .evaluateAll((rows) => rows.map((r) => r.getAttribute('data-id')));
      await page.keyboard.press('j');
      await page.keyboard.press('ArrowDown');
      expect(await focusedRow(page)).toBe(ids[1]);
      await page.keyboard.press('k');
      expect(await focusedRow(page)).toBe(ids[0]);
      await page.keyboard.press('Enter');
      await page.locator('#detail-title', { hasText: `Request ${ids[0]}` }).waitFor();
      await page.keyboard.press('Escape');
      await page.locator('#inbound-detail .placeholder').waitFor();
      expect(new URL(page.url()).hash).toBe('#/inbound');
      expect(await focusedRow(page)).toBe(ids[0]);
    } finally {
      await page.context().close();
      await listener.close();
    }
  });
});
