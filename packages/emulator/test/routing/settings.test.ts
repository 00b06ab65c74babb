import { afterEach, describe, expect, it } from 'vitest';
import {
  createEmulator,
  SettingsError,
  UnknownWriteKeyError,
  type Emulator,
  type SourceSettings,
} from '@hookgate/emulator';
import { startCaptureReceiver, type CaptureReceiver } from '../helpers/capture-receiver.js';

const url = 'http://127.0.0.1:9/hook';
const source = (webhooks: Record<string, unknown>): SourceSettings[] =>
  [{ writeKey: 'wk', webhooks: { enabled: true, endpoints: [{ url }], ...webhooks } }] as SourceSettings[];

function settingError(fn: () => unknown): SettingsError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(SettingsError);
    return e as SettingsError;
  }
  throw new Error('expected a SettingsError');
}

describe('settings validation (seed §2.1, §8)', () => {
  it('rejects more than 5 endpoints, naming the setting', () => {
    const endpoints = Array.from({ length: 6 }, (_, i) => ({ url: `http://127.0.0.1:9/${i}` }));
    const e = settingError(() => createEmulator({ sources: source({ endpoints }) }));
    expect(e.setting).toBe('sources[0].webhooks.endpoints');
    expect(e.message).toMatch(/6 endpoints; a source's Webhooks destination has at most 5/);
    // Exactly 5 is fine.
    expect(() => createEmulator({ sources: source({ endpoints: endpoints.slice(0, 5) }) })).not.toThrow();
  });

  it('rejects more than 5 static headers on one endpoint', () => {
    const headers = Object.fromEntries(Array.from({ length: 6 }, (_, i) => [`X-H${i}`, 'v']));
    const e = settingError(() => createEmulator({ sources: source({ endpoints: [{ url, headers }] }) }));
    expect(e.setting).toBe('sources[0].webhooks.endpoints[0].headers');
    expect(e.message).toMatch(/6 headers; an endpoint has at most 5 static headers/);
  });

  it.each([
    ['example.com/hook', /not a full URL|must start with http/],
    ['ftp://example.com/hook', /http or https scheme \(got "ftp"\)/],
    ['//example.com/hook', /not a full URL/],
    ['127.0.0.1:3000/hook', /http or https scheme|not a full URL/],
  ])('rejects the URL %j without an http/https scheme', (bad, message) => {
    const e = settingError(() => createEmulator({ sources: source({ endpoints: [{ url: bad }] }) }));
    expect(e.setting).toBe('sources[0].webhooks.endpoints[0].url');
    expect(e.message).toMatch(message);
  });

  it('rejects a header with CR or LF in its value or name', () => {
    for (const headers of [{ 'X-Token': 'a\r\nX-Evil: 1' }, { 'X-Token': 'a\nb' }, { 'X-A\r\nB': 'v' }]) {
      const e = settingError(() => createEmulator({ sources: source({ endpoints: [{ url, headers }] }) }));
      expect(e.setting).toMatch(/^sources\[0\]\.webhooks\.endpoints\[0\]\.headers\[".*"\]$/s);
      expect(e.message).toMatch(/contains (CR \(U\+000D\)|LF \(U\+000A\)) at index \d/);
    }
  });

  it('rejects URL credentials with a malformed %-escape (they could not be sent), masking the password; a literal %25 is fine', () => {
    for (const bad of [
      'http://us%zzer:pw-s3cret@127.0.0.1:9/h',
      'http://user:pw%zz-s3cret@127.0.0.1:9/h',
      'http://user:pw%E0%A4-s3cret@127.0.0.1:9/h',
    ]) {
      const e = settingError(() => createEmulator({ sources: source({ endpoints: [{ url: bad }] }) }));
      expect(e.setting).toBe('sources[0].webhooks.endpoints[0].url');
      expect(e.message).toMatch(/malformed %-escape/);
      expect(e.message).not.toContain('s3cret');
    }
    expect(() =>
      createEmulator({ sources: source({ endpoints: [{ url: 'http://user:100%25-sure@127.0.0.1:9/h' }] }) }).close(),
    ).not.toThrow();
  });

  it.each(['Content-Type', 'content-type', 'X-Signature', 'x-SIGNATURE', 'User-Agent', 'Content-Length', 'Host'])(
    'rejects a static header that would replace %s',
    (name) => {
      const e = settingError(() =>
        createEmulator({ sources: source({ endpoints: [{ url, headers: { [name]: 'v' } }] }) }),
      );
      expect(e.setting).toBe(`sources[0].webhooks.endpoints[0].headers[${JSON.stringify(name)}]`);
      expect(e.message).toMatch(new RegExp(`would replace the ${name} header`));
    },
  );

  it('rejects duplicate write keys, an empty secret, a non-boolean toggle and unknown keys with a hint', () => {
    expect(settingError(() => createEmulator({ sources: [{ writeKey: 'a' }, { writeKey: 'a' }] })).setting).toBe(
      'sources[1].writeKey',
    );
    expect(settingError(() => createEmulator({ sources: source({ sharedSecret: '' }) })).setting).toBe(
      'sources[0].webhooks.sharedSecret',
    );
    expect(settingError(() => createEmulator({ sources: source({ enabled: 'yes' }) })).setting).toBe(
      'sources[0].webhooks.enabled',
    );
    const typo = settingError(() =>
      createEmulator({ sources: [{ writeKey: 'k', webhooks: { enabled: true, endpoint: [] } }] as never }),
    );
    expect(typo.setting).toBe('sources[0].webhooks.endpoint');
    expect(typo.message).toMatch(/did you mean "endpoints"/);
    expect(settingError(() => createEmulator({ timeout: 5 } as never)).message).toMatch(/did you mean "timeoutMs"/);
  });

  it('rejects bad options, naming them', () => {
    expect(settingError(() => createEmulator({ timeoutMs: 0 })).setting).toBe('timeoutMs');
    expect(settingError(() => createEmulator({ retry: { windowMs: -1 } })).setting).toBe('retry.windowMs');
    expect(settingError(() => createEmulator({ retry: { jitter: 'some' as never } })).setting).toBe('retry.jitter');
    expect(settingError(() => createEmulator({ serialization: 'pretty' as never })).setting).toBe('serialization');
    expect(settingError(() => createEmulator({ responsePolicy: { clientErrors: 'drop' as never } })).setting).toBe(
      'responsePolicy.clientErrors',
    );
    expect(settingError(() => createEmulator({ anonymousCalls: 'keep' as never })).setting).toBe('anonymousCalls');
    expect(settingError(() => createEmulator({ userAgent: 'a\r\nb' })).setting).toBe('userAgent');
  });
});

describe('sources at run time', () => {
  let emulator: Emulator | undefined;
  let receiver: CaptureReceiver | undefined;
  afterEach(async () => {
    await emulator?.close();
    await receiver?.close();
  });

  it('delivers to a valid endpoint with static headers, adds and updates sources, and names unknown write keys', async () => {
    receiver = await startCaptureReceiver();
    emulator = createEmulator({
      sources: [
        {
          writeKey: 'wk_a',
          name: 'A',
          webhooks: { enabled: true, endpoints: [{ url: `${receiver.url}/a`, headers: { 'X-Team': 'core' } }] },
        },
      ],
    });
    expect(emulator.sources).toEqual([
      {
        writeKey: 'wk_a',
        name: 'A',
        webhooks: { enabled: true, endpoints: [{ url: `${receiver.url}/a`, headerNames: ['X-Team'] }], signed: false },
        blockedEvents: [],
      },
    ]);
    emulator.addSource({
      writeKey: 'wk_b',
      webhooks: { enabled: true, endpoints: [{ url: `${receiver.url}/b` }], sharedSecret: 'sb' },
    });
    expect(emulator.hasSource('wk_b')).toBe(true);
    expect(emulator.hasSource('wk_c')).toBe(false);
    expect(emulator.sources[1]?.webhooks?.signed).toBe(true);
    expect(JSON.stringify(emulator.sources)).not.toContain('sb');
    emulator.track({ userId: 'u1', event: 'A' });
    emulator.track({ userId: 'u1', event: 'B' }, { writeKey: 'wk_b' });
    await emulator.drain();
    expect(receiver.received.map((r) => [r.url, r.headers['x-team']])).toEqual(
      expect.arrayContaining([
        ['/a', 'core'],
        ['/b', undefined],
      ]),
    );
    emulator.updateSource('wk_b', { webhooks: { enabled: true, endpoints: [{ url: `${receiver.url}/b2` }] } });
    emulator.track({ userId: 'u1', event: 'C' }, { writeKey: 'wk_b' });
    await emulator.drain();
    expect(receiver.received.at(-1)?.url).toBe('/b2');
    expect(receiver.received.at(-1)?.headers['x-signature']).toBeUndefined();
    expect(() => emulator!.updateSource('wk_b', { webhooks: { enabled: true, endpoints: [{ url: 'nope' }] } })).toThrow(
      SettingsError,
    );
    expect(() => emulator!.track({ userId: 'u1', event: 'D' }, { writeKey: 'wk_unknown_key' })).toThrow(
      UnknownWriteKeyError,
    );
    expect(() => emulator!.track({ userId: 'u1', event: 'D' }, { writeKey: 'wk_unknown_key' })).toThrow(
      /Unknown write key "wk_unk…".*"wk_a", "wk_b"/,
    );
  });
});
