// Screenshots of the web inspector for the READMEs: the list, and one delivery with a failed then a
// successful attempt. Runs a real emulator, intake and receiver on 127.0.0.1 and Debian's chromium.
//
//   pnpm screenshots        (writes docs/images/inspector-list.png, inspector-delivery.png, inspector-narrow.png (400 px),
//                            and docs/images/inspector-inbound.png: hookgate listen's Inbound tab)
//   pnpm screenshots inbound   (only the last one)
import { mkdirSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { chromium, type Page } from 'playwright-core';
import { createReceiver, fixture, sign, toNodeListener } from '@hookgate/core';
import { createEmulator, startListener } from '@hookgate/emulator';

const only = process.argv[2];

const OUT = fileURLToPath(new URL('../docs/images/', import.meta.url));
mkdirSync(OUT, { recursive: true });

let failedOnce = false;
const receiver = http.createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const body = Buffer.concat(chunks).toString();
    if (body.includes('Checkout Started') && !failedOnce) {
      failedOnce = true;
      res.writeHead(500, { 'content-type': 'text/plain' }).end('database is restarting, try again');
    } else if (body.includes('Invalid Coupon')) {
      res.writeHead(422, { 'content-type': 'application/json' }).end('{"error":"coupon field missing"}');
    } else res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
  });
});
await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
const port = (receiver.address() as AddressInfo).port;

const emulator = createEmulator({
  sources: [
    {
      writeKey: 'wk_web',
      name: 'web app',
      webhooks: {
        enabled: true,
        endpoints: [{ url: `http://127.0.0.1:${port}/webhooks?token=hidden-in-the-page` }],
        sharedSecret: 'screenshot-secret',
      },
    },
    { writeKey: 'wk_ios', name: 'iOS app', webhooks: { enabled: false, endpoints: [] } },
  ],
  retry: { initialDelayMs: 400, jitter: 'none' },
});
const intake = await emulator.listen();
emulator.identify({ userId: 'user_1001', traits: { email: 'ada@example.com', plan: 'pro' } });
emulator.page({ userId: 'user_1001', properties: { title: 'Pricing', path: '/pricing' } });
emulator.track({ userId: 'user_1001', event: 'Checkout Started', properties: { total: 129.9, currency: 'EUR' } });
emulator.track({ userId: 'user_1002', event: 'Invalid Coupon', properties: { code: 'WINTER' } });
emulator.group({ userId: 'user_1002', groupId: 'acme-inc', traits: { seats: 25 } });
emulator.track({ userId: 'user_2001', event: 'Screen Viewed' }, { writeKey: 'wk_ios' });
emulator.alias({ previousId: 'anon_77', userId: 'user_1003' });
emulator.track({ userId: 'user_1003', event: 'Order Completed', properties: { orderId: 'ord_981', revenue: 42.5 } });
await emulator.drain();
const flaky = emulator.deliveries.find((r) => r.body.includes('Checkout Started'));

const browser = await chromium.launch({
  executablePath: process.env.HOOKGATE_CHROMIUM ?? '/usr/bin/chromium',
  headless: true,
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
});
try {
  const page = await browser.newPage({ viewport: { width: 1400, height: 820 }, deviceScaleFactor: 1 });
  if (only !== 'inbound') await deliveryShots(page);
  await inboundShot(page);
  console.log(`screenshots written to ${OUT}`);
} finally {
  await browser.close();
  await intake.close();
  await emulator.close();
  receiver.close();
}

async function deliveryShots(page: Page): Promise<void> {
  await page.goto(`${intake.url}/`);
  await page.locator('#live[data-state="open"]').waitFor();
  await page.locator('tr.row').nth(7).waitFor();
  await page.screenshot({ path: `${OUT}inspector-list.png` });
  await page.goto(`${intake.url}/#/deliveries/${flaky?.id}`);
  await page.locator('#detail li.attempt').nth(1).waitFor();
  await page.locator('#detail-title').blur();
  await page.screenshot({ path: `${OUT}inspector-delivery.png`, fullPage: true });
  // A phone: one card per delivery.
  await page.setViewportSize({ width: 400, height: 820 });
  await page.goto(`${intake.url}/`);
  await page.locator('tr.row').nth(7).waitFor();
  await page.screenshot({ path: `${OUT}inspector-narrow.png` });
  await page.setViewportSize({ width: 1400, height: 820 });
}

/** hookgate listen in front of a real receiver: a good request, a wrong secret, a re-encoded body, a slow-free 200. */
async function inboundShot(page: Page): Promise<void> {
  const secret = 'screenshot-listen-secret';
  const rx = http.createServer(
    toNodeListener(createReceiver({ secret, onMessage: () => {}, logger: { warn: () => {} } })) as http.RequestListener,
  );
  await new Promise<void>((r) => rx.listen(0, '127.0.0.1', r));
  const listener = await startListener({
    secret,
    forwardTo: `http://127.0.0.1:${(rx.address() as AddressInfo).port}/webhooks`,
  });
  try {
    await page.goto(listener.inspectorUrl);
    await page.locator('#live[data-state="open"]').waitFor();
    const send = async (body: string, signature: string) => {
      const res = await fetch(`${listener.url}/webhooks`, {
        method: 'POST',
        body,
        headers: { 'content-type': 'application/json', 'user-agent': 'Segment.io/1.0', 'x-signature': signature },
      });
      await res.arrayBuffer();
    };
    const msg = (event: string, properties: Record<string, unknown>, userId: string) =>
      JSON.stringify(
        fixture('track', { event, userId, properties, messageId: `m-${event.replace(/ /g, '-')}` } as never),
      );
    const good = msg('Order Completed', { orderId: 'ord_981', revenue: 42.5 }, 'user_1003');
    await send(good, sign(good, secret));
    const forged = msg('Refund Issued', { amount: 500 }, 'user_1001');
    await send(forged, sign(forged, 'not-the-secret'));
    const signed = msg('Checkout Started', { price: 1, currency: 'EUR' }, 'user_1002');
    await send(signed.replace('"price":1', '"price":1.0'), sign(signed, secret));
    const signup = msg('Signed Up', { plan: 'pro' }, 'user_1004');
    await send(signup, sign(signup, secret));
    await page.locator('tr.inbound-row').nth(3).waitFor();
    await page.locator('tr.inbound-row[data-id="in_3"] a.event-link').click();
    await page.locator('#inbound-detail li.finding').first().waitFor();
    await page.locator('#detail-title').blur();
    await page.screenshot({ path: `${OUT}inspector-inbound.png`, fullPage: true });
  } finally {
    await listener.close();
    rx.close();
  }
}
