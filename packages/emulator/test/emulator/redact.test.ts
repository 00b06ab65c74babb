// The one redaction rule (src/redact.ts): what of a URL, a header or a signature may be shown.
import { describe, expect, it } from 'vitest';
import {
  isSecretHeader,
  redactHeaderValue,
  redactHeaders,
  redactSignature,
  redactText,
  redactUrl,
} from '../../src/redact.js';

describe('redactUrl', () => {
  it('masks the password and every query value, keeps user name, host, path and query keys', () => {
    expect(redactUrl('http://user:s3cretpw@127.0.0.1:9/hook?token=tok123&x=1')).toBe(
      'http://user:***@127.0.0.1:9/hook?token=***&x=***',
    );
    expect(redactUrl(new URL('https://u:p@h.example/a?b=c'))).toBe('https://u:***@h.example/a?b=***');
  });

  it('masks neighbours: a user name alone, a bare query token, an empty value, a fragment, encoded credentials', () => {
    expect(redactUrl('https://tok_live_1@h.example/in')).toBe('https://***@h.example/in');
    expect(redactUrl('https://h.example/in?tok123')).toBe('https://h.example/in?***');
    expect(redactUrl('https://h.example/in?a=&b')).toBe('https://h.example/in?a=***&***');
    expect(redactUrl('https://h.example/in#access_token=tok123')).toBe('https://h.example/in#***');
    const encoded = redactUrl('https://u:p%40ss%3Aword@h.example/?k=v%26tok123');
    expect(encoded).not.toMatch(/p%40ss|word|tok123/);
    expect(redactUrl('https://:onlypw@h.example/')).toBe('https://:***@h.example/');
  });

  it('masks path parameters’ values (a servlet session id), and a token segment that carries parameters', () => {
    expect(redactUrl('https://h.example/in;jsessionid=1A2B3C4D5E6F/x')).toBe('https://h.example/in;jsessionid=***/x');
    expect(redactUrl(new URL('https://h.example/a;b;c=d'))).toBe('https://h.example/a;***;c=***');
    expect(redactUrl('https://h.example/hooks/a1B2c3D4e5F6g7H8i9J0;v=1')).toBe('https://h.example/hooks/***;v=***');
    expect(redactUrl('https://h.example/plain/path')).toBe('https://h.example/plain/path');
  });

  it('masks path segments that read as tokens (capability URLs), keeps ordinary path words', () => {
    const SLACK = 'a1B2c3D4e5F6g7H8i9J0k1L2';
    expect(redactUrl(`https://hooks.slack.com/services/T0AB12CD3/B0EF45GH6/${SLACK}`)).toBe(
      'https://hooks.slack.com/services/T0AB12CD3/B0EF45GH6/***',
    );
    expect(redactUrl('https://discord.com/api/webhooks/1234567890123456789/AbC-dEf_123456789xyzXYZ')).toBe(
      'https://discord.com/api/webhooks/1234567890123456789/***',
    ); // the id is all digits: shown
    expect(redactUrl(new URL('https://webhook.site/550e8400-e29b-41d4-a716-446655440000'))).toBe(
      'https://webhook.site/***',
    );
    expect(redactUrl(`http://u:pw@[bad/x/${SLACK}?t=1`)).toBe('http://u:***@[bad/x/***?t=***');
    expect(redactText(`POST https://hooks.slack.com/services/T0/B0/${SLACK} failed`)).toBe(
      'POST https://hooks.slack.com/services/T0/B0/*** failed',
    );
    // Neighbours that are not tokens: short ids, words without digits, versions.
    expect(redactUrl('https://api.example.com/v1/integrations/segment-webhook-receiver/42')).toBe(
      'https://api.example.com/v1/integrations/segment-webhook-receiver/42',
    );
    expect(redactUrl('http://127.0.0.1:3000/webhooks/order-123')).toBe('http://127.0.0.1:3000/webhooks/order-123');
  });

  it('gives back a URL with nothing to hide exactly as written', () => {
    expect(redactUrl('http://127.0.0.1:3000')).toBe('http://127.0.0.1:3000');
    expect(redactUrl('https://hooks.example.com/in/path')).toBe('https://hooks.example.com/in/path');
  });

  it('masks by pattern what does not parse as a URL', () => {
    const out = redactUrl('htp://user:s3cretpw@[bad/hook?token=tok123');
    expect(out).not.toMatch(/s3cretpw|tok123/);
    expect(redactUrl('http://user:s3c?ret#pw@[bad/hook?token=tok123')).toBe('http://user:***@[bad/hook?token=***');
  });
});

describe('redactText', () => {
  it('redacts every URL inside a sentence, keeping its punctuation, and removes given secrets', () => {
    const text =
      'endpoints http://a:s3cretpw@127.0.0.1:1/h?token=tok123, https://h.example/x?k=tok123. Secret shh-123 used.';
    const out = redactText(text, ['shh-123', undefined]);
    expect(out).toBe('endpoints http://a:***@127.0.0.1:1/h?token=***, https://h.example/x?k=***. Secret *** used.');
    expect(redactText('"http://u:pw@h/"')).toBe('"http://u:***@h/"');
  });
});

describe('redactHeaders and redactSignature', () => {
  it("keeps the sender's own headers, masks endpoint header values, shortens X-Signature", () => {
    const sig = 'a'.repeat(6) + 'b'.repeat(34);
    expect(
      redactHeaders({
        'User-Agent': 'Segment.io/1.0',
        'Content-Type': 'application/json',
        Authorization: 'Bearer tok123',
        'X-Signature': sig,
      }),
    ).toEqual({
      'User-Agent': 'Segment.io/1.0',
      'Content-Type': 'application/json',
      Authorization: '***',
      'X-Signature': 'aaaaaa…(40 chars)',
    });
    expect(redactSignature(sig)).toBe('aaaaaa…(40 chars)');
    expect(redactSignature(redactSignature(sig))).toBe('aaaaaa…(40 chars)');
  });
});

describe('isSecretHeader and redactHeaderValue: which header values are shown, by name', () => {
  it('masks credentials by name, case-insensitively: the fixed names, the credential words, a key as a name part', () => {
    const secret = [
      'Authorization',
      'proxy-authorization',
      'Cookie',
      'SET-COOKIE',
      'X-Auth-Token',
      'X-CSRF-Token',
      'X-Webhook-Secret',
      'X-Password',
      'X-Passwd',
      'X-Session-Id',
      'X-Hub-Signature-256',
      'X-Api-Key',
      'Api-Key',
      'apikey',
      'X-ApiKey',
      'x-key',
      'X_API_KEY',
      'Ocp-Apim-Subscription-Key',
      'X-Access-Key',
      'X-Credentials',
    ];
    for (const name of secret) expect(isSecretHeader(name), name).toBe(true);
    for (const name of secret) expect(redactHeaderValue(name, 'sk_live_value-123'), name).toBe('***');
  });

  it('shows the rest as it is: a word that merely contains "key" is not a key', () => {
    for (const name of [
      'Keep-Alive',
      'Content-Type',
      'User-Agent',
      'Accept',
      'Content-Length',
      'X-Request-Id',
      'X-Monkey',
      'Keyboard-Layout',
      'Connection',
    ])
      expect(isSecretHeader(name), name).toBe(false);
    expect(redactHeaderValue('Keep-Alive', 'timeout=5')).toBe('timeout=5');
    expect(redactHeaderValue('User-Agent', 'Segment.io/1.0')).toBe('Segment.io/1.0');
  });

  it('keeps the shortened form of X-Signature', () => {
    expect(redactHeaderValue('x-signature', 'a'.repeat(6) + 'b'.repeat(34))).toBe('aaaaaa…(40 chars)');
  });
});
