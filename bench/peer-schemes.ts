// The five webhook schemes of bench/peers.ts: each library's secret, the headers its sender signs a body
// with, and the hand-written check of the same scheme (node:crypto HMAC, compared in constant time) that
// its library is measured against.
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

export const LIBRARIES = ['hookgate', 'octokit', 'standardwebhooks', 'svix', 'stripe'] as const;
export type Library = (typeof LIBRARIES)[number];
export const SECRET = 'whsec_bench_peers_45';
/** standardwebhooks and svix take a base64 key after `whsec_`. */
export const SW_SECRET = `whsec_${Buffer.from('bench-peers-45-key-0123456789ab').toString('base64')}`;
const SW_KEY = Buffer.from(SW_SECRET.slice('whsec_'.length), 'base64');
export const STRIPE_SECRET = 'whsec_bench_peers_stripe_45';
const MESSAGE_ID = 'msg_2Vx1Wq8ZpQm7Lr4Tn9Yk3Hs6Jd0';

// ---- the signed headers of each scheme (fresh timestamps per run: three schemes refuse old ones) ----

const hex = (algorithm: string, key: string | Buffer, data: string) =>
  createHmac(algorithm, key).update(data).digest('hex');

/**
 * The headers a sender of `library`'s scheme sends with `body`, signed now (or with a wrong key: `forged`).
 *
 * @example
 * const headers = signedHeaders('stripe', body, false); // { 'stripe-signature': 't=…,v1=…', … }
 */
export function signedHeaders(library: Library, body: string, forged: boolean): Record<string, string> {
  const key = (k: string) => (forged ? `${k}-forged` : k);
  const now = Math.floor(Date.now() / 1000);
  const json = { 'content-type': 'application/json' };
  switch (library) {
    case 'hookgate':
      return { ...json, 'user-agent': 'Segment.io/1.0', 'x-signature': hex('sha1', key(SECRET), body) };
    case 'octokit':
      return {
        ...json,
        'x-github-event': 'push',
        'x-github-delivery': '72d3162e-cc78-11e3-81ab-4c9367dc0958',
        'x-hub-signature-256': `sha256=${hex('sha256', key(SECRET), body)}`,
      };
    case 'standardwebhooks':
    case 'svix': {
      const prefix = library === 'svix' ? 'svix' : 'webhook';
      const mac = createHmac('sha256', forged ? Buffer.from('forged') : SW_KEY)
        .update(`${MESSAGE_ID}.${now}.${body}`)
        .digest('base64');
      return {
        ...json,
        [`${prefix}-id`]: MESSAGE_ID,
        [`${prefix}-timestamp`]: String(now),
        [`${prefix}-signature`]: `v1,${mac}`,
      };
    }
    case 'stripe':
      return { ...json, 'stripe-signature': `t=${now},v1=${hex('sha256', key(STRIPE_SECRET), `${now}.${body}`)}` };
  }
}

const safeEqual = (a: Buffer, b: Buffer) => a.length === b.length && timingSafeEqual(a, b);
/**
 * One request header as a string (`''` when absent or repeated).
 *
 * @example
 * const signature = header(req, 'x-signature');
 */
export const header = (req: IncomingMessage, name: string) => {
  const v = req.headers[name];
  return typeof v === 'string' ? v : '';
};

/**
 * The hand-written check of each scheme: the same HMAC over the same bytes, node:crypto, constant-time compare.
 *
 * @example
 * if (!handVerified('hookgate', req, raw)) return json(res, 401, '{"ok":false}');
 */
export function handVerified(library: Library, req: IncomingMessage, raw: Buffer): boolean {
  switch (library) {
    case 'hookgate':
      return safeEqual(createHmac('sha1', SECRET).update(raw).digest(), Buffer.from(header(req, 'x-signature'), 'hex'));
    case 'octokit': {
      const given = header(req, 'x-hub-signature-256');
      if (!given.startsWith('sha256=')) return false;
      return safeEqual(createHmac('sha256', SECRET).update(raw).digest(), Buffer.from(given.slice(7), 'hex'));
    }
    case 'standardwebhooks':
    case 'svix': {
      const prefix = library === 'svix' ? 'svix' : 'webhook';
      const id = header(req, `${prefix}-id`);
      const timestamp = header(req, `${prefix}-timestamp`);
      if (Math.abs(Date.now() / 1000 - Number(timestamp)) > 300) return false;
      const mac = createHmac('sha256', SW_KEY).update(`${id}.${timestamp}.`).update(raw).digest();
      return header(req, `${prefix}-signature`)
        .split(' ')
        .some((s) => s.startsWith('v1,') && safeEqual(mac, Buffer.from(s.slice(3), 'base64')));
    }
    case 'stripe': {
      const parts = Object.fromEntries(
        header(req, 'stripe-signature')
          .split(',')
          .map((p) => p.split('=', 2)),
      );
      const t = String(parts.t);
      if (Math.abs(Date.now() / 1000 - Number(t)) > 300) return false;
      const mac = createHmac('sha256', STRIPE_SECRET).update(`${t}.`).update(raw).digest();
      return safeEqual(mac, Buffer.from(String(parts.v1), 'hex'));
    }
  }
}
