// The local servers' JSON views over real HTTP: `?token=` works on every GET the docs name (serve's
// /_hookgate/deliveries and /_hookgate/health included), the Bearer scheme is case-insensitive, every
// JSON view says `X-Content-Type-Options: nosniff` and `Cross-Origin-Resource-Policy: same-origin`,
// and `listen` masks every header named like a credential by one pattern.
import { afterEach, describe, expect, it } from 'vitest';
import { createEmulator, listenIntake, startListener } from '../../src/index.js';
import { isSecretHeader } from '../../src/redact.js';

const TOKEN = 'ui-token-0123456789abcdef';
const open: Array<{ close(): Promise<unknown> }> = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()));
});

async function intakeWithToken(): Promise<string> {
  const emulator = createEmulator({
    sources: [{ writeKey: 'wk_views', webhooks: { enabled: true, endpoints: [{ url: 'http://127.0.0.1:9/hook' }] } }],
  });
  open.push({ close: () => emulator.close() });
  const intake = await listenIntake(emulator, { inspector: { token: TOKEN } });
  open.push(intake);
  return intake.url;
}

describe('serve: ?token= and Bearer on the JSON views', () => {
  it('?token= opens /_hookgate/deliveries (with its filters) and /_hookgate/health; a wrong one is 401', async () => {
    const url = await intakeWithToken();
    for (const path of [
      '/_hookgate/deliveries',
      '/_hookgate/deliveries?state=pending&limit=5',
      '/_hookgate/health',
      '/_hookgate/ui/api/meta',
    ]) {
      const sep = path.includes('?') ? '&' : '?';
      const res = await fetch(`${url}${path}${sep}token=${TOKEN}`);
      expect(res.status, path).toBe(200);
      expect((await fetch(`${url}${path}${sep}token=wrong-${TOKEN}`)).status, path).toBe(401);
    }
    // An unknown filter is still named.
    const bad = await fetch(`${url}/_hookgate/deliveries?token=${TOKEN}&sate=pending`);
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { message: string }).message).toContain('sate');
  });

  it('the Bearer scheme is case-insensitive (RFC 9110 §11.1), on serve and listen', async () => {
    const url = await intakeWithToken();
    const listener = await startListener({ secret: 's3cret', uiToken: TOKEN });
    open.push(listener);
    for (const scheme of ['Bearer', 'bearer', 'BEARER']) {
      const authorization = `${scheme} ${TOKEN}`;
      expect((await fetch(`${url}/_hookgate/health`, { headers: { authorization } })).status, scheme).toBe(200);
      expect((await fetch(`${listener.url}/_hookgate/inbound`, { headers: { authorization } })).status, scheme).toBe(
        200,
      );
    }
    expect((await fetch(`${url}/_hookgate/health`, { headers: { authorization: `Basic ${TOKEN}` } })).status).toBe(401);
  });
});

describe('JSON views: nosniff and same-origin resources', () => {
  it('every JSON view of serve and listen, answers and refusals alike', async () => {
    const url = await intakeWithToken();
    const listener = await startListener({ secret: 's3cret', uiToken: TOKEN });
    open.push(listener);
    const auth = { authorization: `Bearer ${TOKEN}` };
    const views: Array<[string, Record<string, string>]> = [
      [`${url}/_hookgate/deliveries`, auth],
      [`${url}/_hookgate/health`, auth],
      [`${url}/_hookgate/health`, {}], // refused: 401
      [`${url}/_hookgate/ui/api/meta`, auth],
      [`${listener.url}/_hookgate/inbound`, auth],
      [`${listener.url}/_hookgate/health`, auth],
      [`${listener.url}/_hookgate/inbound`, {}], // refused: 401
      [`${listener.url}/_hookgate/ui/api/meta`, auth],
    ];
    for (const [view, headers] of views) {
      const res = await fetch(view, { headers });
      await res.arrayBuffer();
      expect(res.headers.get('content-type'), view).toMatch(/^application\/json/);
      expect(res.headers.get('x-content-type-options'), view).toBe('nosniff');
      expect(res.headers.get('cross-origin-resource-policy'), view).toBe('same-origin');
    }
  });
});

describe('listen masks headers named like credentials', () => {
  const credentials = [
    'X-JWT',
    'X-Jwt-Assertion',
    'X-Bearer',
    'X-Sig',
    'X-Hub-Sig-256',
    'X-Pwd',
    'X-Pass',
    'X-Passcode',
    'X-Access',
    'X-Access-Id',
    'X-Auth-Token',
    'X-Api-Key',
  ];
  const plain = ['Content-Type', 'X-Env', 'Keep-Alive', 'X-Design-Id', 'Access-Control-Request-Method'];

  it('by one pattern (isSecretHeader): jwt, bearer, sig, pwd, pass and access too', () => {
    for (const name of credentials) expect(isSecretHeader(name), name).toBe(true);
    for (const name of plain) expect(isSecretHeader(name), name).toBe(false);
  });

  it('in the record and the views', async () => {
    const listener = await startListener({ secret: 's3cret' });
    open.push(listener);
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    for (const name of credentials) headers[name] = `real-value-of-${name}`;
    for (const name of plain.slice(1, 2)) headers[name] = 'dev';
    await (await fetch(`${listener.url}/hook`, { method: 'POST', headers, body: '{}' })).arrayBuffer();
    const text = await (await fetch(`${listener.url}/_hookgate/inbound`)).text();
    expect(text).not.toContain('real-value-of-');
    const [record] = listener.log.records;
    const shown = new Map(record!.headers.map(([n, v]) => [n.toLowerCase(), v]));
    for (const name of credentials) expect(shown.get(name.toLowerCase()), name).toBe('***');
    expect(shown.get('x-env')).toBe('dev');
  });
});
