// emulator.sources is documented as free of secrets: endpoint URL passwords and query tokens are
// masked in it (added, updated and initial sources alike), while requests still carry them.
import { afterEach, describe, expect, it } from 'vitest';
import { createEmulator, type Emulator } from '../../src/index.js';
import { startCaptureReceiver, type CaptureReceiver } from '../helpers/capture-receiver.js';

const PASSWORD = 'pw-Zx81-hunter2';
const TOKEN = 'tok_9f8e7d6c5b4a';
const OTHER_PASSWORD = 'second-pass-77Q';
const OTHER_TOKEN = 'sig_0a1b2c3d';

describe('emulator.sources', () => {
  let emulator: Emulator | undefined;
  let receiver: CaptureReceiver | undefined;
  afterEach(async () => {
    await emulator?.close();
    await receiver?.close();
    emulator = receiver = undefined;
  });

  it('shows no URL password or query token, for initial, added and updated sources, yet requests carry them', async () => {
    receiver = await startCaptureReceiver();
    const host = receiver.url.replace('http://', '');
    emulator = createEmulator({
      sources: [
        {
          writeKey: 'wk_a',
          webhooks: { enabled: true, endpoints: [{ url: `http://hook:${PASSWORD}@${host}/a?token=${TOKEN}&v=2` }] },
        },
      ],
    });
    emulator.addSource({
      writeKey: 'wk_b',
      webhooks: { enabled: true, endpoints: [{ url: `http://${host}/b?key=${OTHER_TOKEN}` }] },
    });
    emulator.addSource({ writeKey: 'wk_c' });
    emulator.updateSource('wk_c', {
      webhooks: { enabled: true, endpoints: [{ url: `http://u:${OTHER_PASSWORD}@${host}/c` }] },
    });

    const shown = JSON.stringify(emulator.sources);
    for (const secret of [PASSWORD, TOKEN, OTHER_PASSWORD, OTHER_TOKEN, encodeURIComponent(PASSWORD)])
      expect(shown).not.toContain(secret);
    // Masked, not dropped: each endpoint is still recognizable by host and path (redactUrl's format).
    const urls = emulator.sources.map((s) => s.webhooks?.endpoints[0]?.url ?? '');
    expect(urls.map((u) => new URL(u.replace(/\?.*$/, '')).pathname)).toEqual(['/a', '/b', '/c']);
    for (const u of urls) expect(u).toContain(host);

    // The masking is the view's only: deliveries go to the real URLs with their credentials.
    emulator.track({ userId: 'u1', event: 'A' }, { writeKey: 'wk_a' });
    emulator.track({ userId: 'u1', event: 'B' }, { writeKey: 'wk_b' });
    emulator.track({ userId: 'u1', event: 'C' }, { writeKey: 'wk_c' });
    await emulator.drain();
    const byPath = new Map(receiver.received.map((r) => [r.url.split('?')[0], r]));
    expect(byPath.get('/a')?.url).toBe(`/a?token=${TOKEN}&v=2`);
    expect(byPath.get('/a')?.headers.authorization).toBe(`Basic ${Buffer.from(`hook:${PASSWORD}`).toString('base64')}`);
    expect(byPath.get('/b')?.url).toBe(`/b?key=${OTHER_TOKEN}`);
    expect(byPath.get('/c')?.headers.authorization).toBe(
      `Basic ${Buffer.from(`u:${OTHER_PASSWORD}`).toString('base64')}`,
    );
  });

  it('returns masked views from addSource and updateSource too', () => {
    emulator = createEmulator();
    const added = emulator.addSource({
      writeKey: 'wk',
      webhooks: { enabled: true, endpoints: [{ url: `https://x:${PASSWORD}@hooks.example.com/in?t=${TOKEN}` }] },
    });
    const updated = emulator.updateSource('wk', { name: 'Renamed' });
    for (const view of [added, updated]) {
      expect(JSON.stringify(view)).not.toContain(PASSWORD);
      expect(JSON.stringify(view)).not.toContain(TOKEN);
    }
  });
});
