import { createHash } from 'node:crypto';
import type http from 'node:http';
import { isIP } from 'node:net';
import { constantTimeEqual } from '@hookgate/core/internal';
import { isLoopbackHost } from './inspector-options.js';
import type { CsrfHeaderName } from './wire-types.js';

/** The custom header every inspector action must carry: a cross-site form or image cannot send it. */
export const CSRF_HEADER: CsrfHeaderName = 'x-hookgate-inspector';

/**
 * Headers of every JSON view of the local servers (`/_hookgate/*` of `serve` and `listen`, answers and
 * refusals): no MIME sniffing, readable only by pages of the same origin (no `<script src>` or `<img>`
 * from another site can load them), never cached.
 *
 * @example
 * res.writeHead(200, { ...JSON_VIEW_HEADERS, 'content-type': 'application/json; charset=utf-8' });
 */
export const JSON_VIEW_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'x-content-type-options': 'nosniff',
  'cross-origin-resource-policy': 'same-origin',
  'cache-control': 'no-store',
});

/** The cookie the page's token travels in, once `/?token=…` has been opened. */
export const TOKEN_COOKIE = 'hookgate_ui';

/** Why a request to the inspector is refused: the HTTP status and a message naming the fix. */
export interface Refusal {
  status: 400 | 401 | 403;
  message: string;
}

/** A `Host` header's name, without its port (an IPv6 literal keeps its brackets); `''` when unparsable. */
function hostName(hostHeader: string | undefined): string {
  if (!hostHeader) return '';
  const m = /^(\[[^\]]+\]|[^:]+)(?::\d+)?$/.exec(hostHeader.trim());
  return m ? (m[1] as string).toLowerCase() : '';
}

function cookieValue(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/** Compares two tokens in constant time, over their SHA-256 digests (so their lengths leak nothing either). */
function sameToken(given: string, expected: string): boolean {
  const digest = (t: string) => createHash('sha256').update(t).digest();
  return constantTimeEqual(digest(given), digest(expected));
}

/**
 * How a local server (`serve`'s intake and inspector, `listen`) is guarded: the token its
 * `/_hookgate/*` routes and page require (none: loopback only), and the interface it was bound to.
 *
 * @example
 * const guard = new LocalServerGuard({ token: process.env.HOOKGATE_UI_TOKEN, host: '0.0.0.0' });
 */
export interface LocalGuardOptions {
  /** The token every request must carry; without one, only loopback sockets are answered. */
  token?: string | undefined;
  /** The interface the server was bound to: a name there is accepted as `Host` too. */
  host?: string | undefined;
}

/**
 * The one guard of every `/_hookgate/*` route and inspector page that hookgate's own servers answer.
 *
 * - `Host` must name the loopback interface (127.0.0.1, localhost, [::1]) or the host the server was
 *   bound to; with a token set, an IP address is accepted too. A DNS-rebinding page sends its own
 *   name, so it is refused whatever the socket.
 * - Without a token, a request that arrived on a non-loopback socket is refused.
 * - With a token, every request must carry it: `Authorization: Bearer`, `X-Hookgate-Token`, the
 *   `hookgate_ui` cookie (set by opening `/?token=…`), or `?token=` on a GET. Compared in constant time.
 *
 * @example
 * const guard = new LocalServerGuard({ token: 'a-token-of-16-chars+' });
 * const refusal = guard.check(req, new URL(req.url ?? '/', 'http://x'));
 * if (refusal) res.writeHead(refusal.status).end(refusal.message);
 */
export class LocalServerGuard {
  readonly token: string | undefined;
  readonly #boundHost: string | undefined;

  constructor(options: LocalGuardOptions = {}) {
    this.token = options.token === '' ? undefined : options.token;
    const bound = options.host?.toLowerCase().replace(/^\[|\]$/g, '');
    this.#boundHost = bound === undefined || bound === '0.0.0.0' || bound === '::' || bound === '' ? undefined : bound;
  }

  /** Why this request may not be answered (403 wrong host or socket, 401 no token), or `undefined`. */
  check(req: http.IncomingMessage, url?: URL): Refusal | undefined {
    if (this.token === undefined) {
      const local = req.socket.localAddress;
      if (local !== undefined && !isLoopbackHost(local)) {
        return {
          status: 403,
          message:
            'This server answers only on the loopback interface unless a token is set (--ui-token or HOOKGATE_UI_TOKEN).',
        };
      }
    }
    const name = hostName(req.headers.host);
    const bare = name.replace(/^\[|\]$/g, '');
    const hostOk =
      isLoopbackHost(bare) ||
      (this.#boundHost !== undefined && bare === this.#boundHost) ||
      (this.token !== undefined && isIP(bare) !== 0);
    if (!hostOk) {
      return {
        status: 403,
        message: `This server answers only to Host 127.0.0.1, localhost or [::1]${this.token !== undefined ? ', an IP address' : ''}${this.#boundHost ? ` or ${this.#boundHost}` : ''} (got ${JSON.stringify(req.headers.host ?? '')}); this guards against DNS rebinding. Open it at http://127.0.0.1:PORT/.`,
      };
    }
    if (this.token === undefined) return undefined;
    const token = this.token;
    if (this.#givenTokens(req, url).some((given) => sameToken(given, token))) return undefined;
    return {
      status: 401,
      message:
        'This server needs its token: open /?token=YOUR_TOKEN once in the browser (it sets a cookie), or send Authorization: Bearer YOUR_TOKEN (or X-Hookgate-Token).',
    };
  }

  /** Every token the request carries (a stale cookie must not hide a fresh `?token=`). */
  #givenTokens(req: http.IncomingMessage, url: URL | undefined): string[] {
    const out: string[] = [];
    const auth = req.headers.authorization;
    // The auth scheme is case-insensitive (RFC 9110 section 11.1): `bearer` and `BEARER` are `Bearer`.
    const bearer = typeof auth === 'string' ? /^bearer[ \t]+(.*)$/i.exec(auth) : null;
    if (bearer) out.push((bearer[1] as string).trim());
    const header = req.headers['x-hookgate-token'];
    if (typeof header === 'string') out.push(header);
    const cookie = cookieValue(req.headers.cookie, TOKEN_COOKIE);
    if (cookie !== undefined) {
      try {
        out.push(decodeURIComponent(cookie));
      } catch {
        // not a token
      }
    }
    const method = req.method ?? 'GET';
    const query = url !== undefined && (method === 'GET' || method === 'HEAD') ? url.searchParams.get('token') : null;
    if (query !== null) out.push(query);
    return out;
  }
}

/**
 * Who may reach a local server's views, by `LocalServerGuard`'s rules for a server bound to loopback
 * with this token (or none).
 *
 * @example
 * const refusal = checkAccess(req, undefined);
 * if (refusal) return refuse(res, refusal);
 */
export function checkAccess(req: http.IncomingMessage, token: string | undefined): Refusal | undefined {
  return new LocalServerGuard({ token }).check(req);
}

/**
 * Whether a `?token=` in the URL is the right one (the page's way in; it is then moved to a cookie).
 *
 * @example
 * if (tokenInQuery(url, token)) setCookieAndRedirect();
 */
export function tokenInQuery(url: URL, token: string | undefined): boolean {
  const given = url.searchParams.get('token');
  return token !== undefined && given !== null && constantTimeEqual(Buffer.from(given), Buffer.from(token));
}

/**
 * The cross-site request forgery defence of every action (POST): the custom header `X-Hookgate-Inspector`
 * (which a cross-site form cannot send, and which a cross-site `fetch` can only send after a CORS
 * preflight the inspector never grants), and, when the browser says where the request comes from, an
 * `Origin` equal to this server's.
 *
 * @example
 * const refusal = checkCsrf(req);
 */
export function checkCsrf(req: http.IncomingMessage): Refusal | undefined {
  if (req.headers[CSRF_HEADER] !== '1') {
    return {
      status: 403,
      message: `Inspector actions need the header ${CSRF_HEADER}: 1 (it proves the request does not come from another site).`,
    };
  }
  const origin = req.headers.origin;
  if (origin !== undefined && origin !== 'null') {
    let host: string;
    try {
      host = new URL(origin).host;
    } catch {
      return { status: 403, message: `Origin ${JSON.stringify(origin)} is not a URL.` };
    }
    if (host !== req.headers.host)
      return {
        status: 403,
        message: `Origin ${origin} is not this inspector (${req.headers.host ?? 'no Host'}): cross-site actions are refused.`,
      };
  } else if (origin === 'null') {
    return { status: 403, message: 'Origin null (a sandboxed or file page) may not act on the inspector.' };
  }
  return undefined;
}
