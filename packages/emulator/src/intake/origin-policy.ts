import type http from 'node:http';
import { isLoopbackHost } from '../inspector/inspector-options.js';

/**
 * Which web pages may call the tracking API: pages served from a loopback origin
 * (`http://localhost:3000`, `http://127.0.0.1:5173`, `http://[::1]:8000`) and the origins listed in
 * `allowOrigins`. A request without `Origin` (a server-side client: analytics-node, curl) is not a
 * page's, unless the browser marked it `Sec-Fetch-Site: cross-site`.
 *
 * @example
 * const policy = new OriginPolicy(['https://app.example.com']);
 * const verdict = policy.judge(req);
 * if (!verdict.ok) answer403(verdict.message);
 */
export class OriginPolicy {
  readonly #allowed: ReadonlySet<string>;

  constructor(allowOrigins: readonly string[] = []) {
    this.#allowed = new Set(allowOrigins.map((o, i) => normalizeOrigin(o, `allowOrigins[${i}]`)));
  }

  /** The origins allowed by name (normalized: scheme, host and port only). */
  get allowed(): readonly string[] {
    return [...this.#allowed];
  }

  /**
   * Whether this request may be served: `{ ok: true, origin }` (`origin` is the one to echo in CORS
   * answers, when the request had one), or `{ ok: false, message }` naming the origin and the fix.
   */
  judge(req: http.IncomingMessage): { ok: true; origin: string | undefined } | { ok: false; message: string } {
    const origin = req.headers.origin;
    if (origin === undefined) {
      if (req.headers['sec-fetch-site'] === 'cross-site') {
        return {
          ok: false,
          message:
            'A cross-site web page may not call the tracking API (Sec-Fetch-Site: cross-site and no Origin). Call it from a server, or from a page on a loopback origin.',
        };
      }
      return { ok: true, origin: undefined };
    }
    if (this.#allowed.has(origin.toLowerCase())) return { ok: true, origin };
    let host: string | undefined;
    let protocol: string | undefined;
    try {
      const url = new URL(origin);
      host = url.hostname;
      protocol = url.protocol;
    } catch {
      host = undefined;
    }
    if (host !== undefined && (protocol === 'http:' || protocol === 'https:') && isLoopbackHost(host))
      return { ok: true, origin };
    return {
      ok: false,
      message: `Web pages from ${JSON.stringify(origin)} may not call the tracking API: only pages served from this machine (http://localhost, 127.0.0.1, [::1]) may. To allow this origin, start hookgate serve with --allow-origin ${origin === 'null' ? 'ORIGIN' : origin} (or the intake option allowOrigins).`,
    };
  }
}

/**
 * An origin as browsers send it (`scheme://host[:port]`, lower case, default port dropped); throws a
 * `TypeError` naming `field` when `value` is not an http(s) origin.
 *
 * @example
 * normalizeOrigin('https://App.example.com:443', '--allow-origin'); // 'https://app.example.com'
 */
export function normalizeOrigin(value: unknown, field: string): string {
  let url: URL | undefined;
  try {
    url = typeof value === 'string' ? new URL(value) : undefined;
  } catch {
    url = undefined;
  }
  if (
    !url ||
    (url.protocol !== 'http:' && url.protocol !== 'https:') ||
    url.username ||
    url.password ||
    url.search ||
    url.hash ||
    (url.pathname !== '/' && url.pathname !== '')
  ) {
    throw new TypeError(
      `${field} must be a web origin such as https://app.example.com or http://localhost:3000 (scheme, host and port only; got ${JSON.stringify(value)}).`,
    );
  }
  return url.origin;
}

/**
 * The CORS headers of an answer to a page from `origin`: that exact origin echoed (never `*`), and
 * `Vary: Origin` so no cache serves one origin's answer to another. No credentials are allowed: the
 * write key travels in the request, not in a cookie.
 *
 * @example
 * res.writeHead(200, { ...corsHeaders('http://localhost:3000'), 'content-type': 'application/json' });
 */
export function corsHeaders(origin: string | undefined): Record<string, string> {
  return origin === undefined ? { vary: 'Origin' } : { 'access-control-allow-origin': origin, vary: 'Origin' };
}

/**
 * The answer to a CORS preflight (`OPTIONS` with `Access-Control-Request-Method`) from an allowed
 * origin: POST, the headers it asked for among those the tracking API reads, for 10 minutes.
 *
 * @example
 * res.writeHead(204, preflightHeaders('http://localhost:3000', req.headers['access-control-request-headers']));
 */
export function preflightHeaders(origin: string, requested: string | undefined): Record<string, string> {
  const wanted = (requested ?? '')
    .split(',')
    .map((h) => h.trim().toLowerCase())
    .filter((h) => PREFLIGHT_HEADERS.has(h));
  return {
    ...corsHeaders(origin),
    vary: 'Origin, Access-Control-Request-Headers',
    'access-control-allow-methods': 'POST',
    ...(wanted.length > 0 ? { 'access-control-allow-headers': wanted.join(', ') } : {}),
    'access-control-max-age': '600',
  };
}

/** The request headers a page may send to the tracking API. */
const PREFLIGHT_HEADERS = new Set(['authorization', 'content-type', 'content-encoding', 'x-retry-count']);
