// The inspector's page in a real browser (Debian's chromium through playwright-core): a message
// endpoint 1 delivered while endpoint 2 answered 500 afterwards reads "delivered" with endpoint 2's
// status "not retried — endpoint 1 accepted" beside its last status 500, in the list and the detail.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEmulator, type Emulator, type IntakeServer } from '@hookgate/emulator';
import type { RunningServer } from '../../../../test/helpers/servers.js';
import { startGatedReceiver } from '../helpers/gated-receiver.js';
import { launchChromium, type RunningBrowser } from './chromium.js';

let chrome: RunningBrowser;
let emulator: Emulator;
let intake: IntakeServer;
const servers: RunningServer[] = [];
let urlB: string;

beforeAll(async () => {
  chrome = await launchChromium();
  const a = await startGatedReceiver(200);
  const b = await startGatedReceiver(500);
  servers.push(a.server, b.server);
  const urlA = `${a.server.url}/a`;
  urlB = `${b.server.url}/b`;
  emulator = createEmulator({
    retry: { initialDelayMs: 20, jitter: 'none', windowMs: 60_000 },
    sources: [
      { writeKey: 'wk', name: 'two endpoints', webhooks: { enabled: true, endpoints: [{ url: urlA }, { url: urlB }] } },
    ],
  });
  // B answers only once A's 200 is logged: B fails after A accepted.
  emulator.on('attempt', (attempt) => attempt.endpoint === urlA && b.open());
  a.open();
  intake = await emulator.listen();
});

afterAll(async () => {
  await intake?.close();
  await emulator?.close();
  for (const s of servers) await s.close();
  await chrome?.close();
});

describe('inspector page: an endpoint not retried because another accepted', () => {
  it('shows "not retried — endpoint 1 accepted" beside the last status 500 of a delivered message', async () => {
    const record = emulator.track({ userId: 'u1', event: 'Accepted Once' });
    await emulator.drain();
    expect(record.state).toBe('delivered');
    const context = await chrome.browser.newContext();
    try {
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));
      await page.goto(`${intake.url}/#/deliveries/${record.id}`);

      // The list's row: delivered, last status 500, and what that 500 means.
      const row = page.locator('tr.row', { hasText: 'Accepted Once' });
      await row.waitFor({ timeout: 10_000 });
      expect(await row.locator('td.state-cell').textContent()).toBe('delivered');
      expect(await row.locator('td.last').textContent()).toBe('500not retried — endpoint 1 accepted');
      expect(await row.locator('td.last .last-note').isVisible()).toBe(true);

      // The detail: each endpoint's status under its name, above its attempts.
      const statuses = page.locator('#detail p.endpoint-status');
      await expect.poll(() => statuses.count(), { timeout: 10_000 }).toBe(2);
      expect(await statuses.allTextContents()).toEqual([
        'Last status 200 · delivered',
        'Last status 500 · not retried — endpoint 1 accepted',
      ]);
      const heading = page.locator('#detail h4.endpoint').nth(1);
      expect((await heading.textContent())?.replace(/\u200b/g, '')).toBe(urlB);
      const attemptB = page.locator('#detail li.attempt.outcome-not-retried');
      expect(await attemptB.count()).toBe(1);
      expect(await attemptB.getAttribute('data-status')).toBe('500');
      expect(await attemptB.locator('.status').textContent()).toMatch(/· not retried: endpoint 1 accepted$/);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
