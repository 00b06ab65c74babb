import type http from 'node:http';
import { constantTimeEqual } from '@hookgate/core';
import { isLoopbackHost } from './inspector-options.js';

/** The custom header every inspector action must carry: a cross-site form or image cannot send it. */
export const CSRF_HEADER = 'x-hookgate-inspector';

/** The cookie the page's token travels in, once `/?token=…` has been opened. */
export const TOKEN_COOKIE = 'hookgate_ui';

/** Why a request to the inspector is refused: the HTTP status and a message naming the fix. */
export interface Refusal {
  status: 400 | 401 | 403;
  message: string;
}

function hostName(hostHeader: string | undefined): string {
  if (!hostHeader) return '';
  const m = /^(\[[^\]]+\]|[^:]+)(?::\d+)?$/.exec(hostHeader.trim());
  return m ? (m[1] as string) : '';
}

function cookieValue(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/**
 * Who may reach the inspector. Without a token: only requests whose `Host` names the loopback
 * interface (so a web page cannot reach it through DNS rebinding) arriving on a loopback socket. With a
 * token: requests carrying it (cookie or bearer), compared in constant time.
 *
 * @example
 * const refusal = checkAccess(req, undefined);
 * if (refusal) return refuse(res, refusal);
 */
export function checkAccess(req: http.IncomingMessage, token: string | undefined): Refusal | undefined {
  if (token === undefined) {
    const local = req.socket.localAddress;
    if (local !== undefined && !isLoopbackHost(local)) {
      return { status: 403, message: 'The inspector answers only on the loopback interface unless a token is set (--ui-token or HOOKGATE_UI_TOKEN).' };
    }
    if (!isLoopbackHost(hostName(req.headers.host))) {
      return { status: 403, message: 'The inspector answers only to Host 127.0.0.1, localhost or [::1] (this guards against DNS rebinding); open it at http://127.0.0.1:PORT/.' };
    }
    return undefined;
  }
  const auth = req.headers.authorization;
  const cookie = cookieValue(req.headers.cookie, TOKEN_COOKIE);
  let given = auth?.startsWith('Bearer ') ? auth.slice(7).trim() : undefined;
  if (given === undefined && cookie !== undefined) {
    try {
      given = decodeURIComponent(cookie);
    } catch {
      given = undefined;
    }
  }
  if (given !== undefined && constantTimeEqual(Buffer.from(given), Buffer.from(token))) return undefined;
  return { status: 401, message: 'The inspector needs its token: open /?token=YOUR_TOKEN once (it sets a cookie), or send Authorization: Bearer YOUR_TOKEN.' };
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
    return { status: 403, message: `Inspector actions need the header ${CSRF_HEADER}: 1 (it proves the request does not come from another site).` };
  }
  const origin = req.headers.origin;
  if (origin !== undefined && origin !== 'null') {
    let host: string;
    try {
      host = new URL(origin).host;
    } catch {
      return { status: 403, message: `Origin ${JSON.stringify(origin)} is not a URL.` };
    }
    if (host !== req.headers.host) return { status: 403, message: `Origin ${origin} is not this inspector (${req.headers.host ?? 'no Host'}): cross-site actions are refused.` };
  } else if (origin === 'null') {
    return { status: 403, message: 'Origin null (a sandboxed or file page) may not act on the inspector.' };
  }
  return undefined;
}
