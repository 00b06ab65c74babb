// The one redaction rule of the emulator: what of an endpoint URL, a signature or a piece of text may
// be shown in a log line, an HTTP view, a record, CLI output or an error. The request itself always
// uses the real URL; only what is shown goes through here.
import { redact } from '@hookgate/core/internal';

/** What replaces a hidden value. */
export const MASK = '***';

const cache = new Map<string, string>();
const CACHE_MAX = 256;

/** Every query value masked, keys kept; a part without `=` (a bare token) masked whole. */
function maskQuery(search: string): string {
  if (search === '' || search === '?') return search;
  return `?${search
    .slice(1)
    .split('&')
    .map((part) => {
      const eq = part.indexOf('=');
      return eq === -1 ? (part === '' ? '' : MASK) : `${part.slice(0, eq)}=${MASK}`;
    })
    .join('&')}`;
}

/**
 * A path segment that reads as a token: 16 characters or more of letters, digits, `-`, `_`, `.`,
 * `~` or `%`, with at least one letter and one digit. Capability URLs carry their secret there
 * (Slack's `/services/T…/B…/<token>`, Discord's `/api/webhooks/<id>/<token>`, a UUID).
 */
const TOKEN_SEGMENT = /^(?=[^/]*\d)(?=[^/]*[a-z])[\w.~%-]{16,}$/i;

/**
 * A path segment fit to be shown: masked whole when it reads as a token, and each of its parameters'
 * values (`;jsessionid=…`, RFC 3986, section 3.3: servlet containers put the session there) masked, names kept.
 */
function maskSegment(segment: string): string {
  const semi = segment.indexOf(';');
  const head = semi === -1 ? segment : segment.slice(0, semi);
  const shown = TOKEN_SEGMENT.test(head) ? MASK : head;
  if (semi === -1) return shown;
  const parameters = segment
    .slice(semi + 1)
    .split(';')
    .map((part) => {
      const eq = part.indexOf('=');
      return eq === -1 ? (part === '' ? '' : MASK) : `${part.slice(0, eq)}=${MASK}`;
    });
  return `${shown};${parameters.join(';')}`;
}

/** Every token-like path segment and every path parameter's value masked; the rest of the path as it is. */
function maskPath(pathname: string): string {
  if (!hasMaskedPathPart(pathname)) return pathname;
  return pathname.split('/').map(maskSegment).join('/');
}

function hasMaskedPathPart(pathname: string): boolean {
  if (pathname.includes(';')) return true;
  return pathname.length >= 17 && pathname.split('/').some((segment) => TOKEN_SEGMENT.test(segment));
}

function fromParsed(url: URL): string {
  // A user name alone is masked too: `https://TOKEN@host` and Basic auth with an empty password
  // (the write key's own scheme) carry the credential in the user name.
  const auth = url.username ? `${url.password ? `${url.username}:${MASK}` : MASK}@` : url.password ? `:${MASK}@` : '';
  return `${url.protocol}//${auth}${url.host}${maskPath(url.pathname)}${maskQuery(url.search)}${url.hash ? `#${MASK}` : ''}`;
}

/**
 * For text that is not a parseable URL: the same rule, by pattern, erring on the side of hiding.
 * Everything up to the last `@` after the scheme is user info (a password may hold `?`, `#` or `/`
 * that a parser would have rejected), then the query and fragment as above.
 */
function byPattern(text: string): string {
  const scheme = /^[a-z][a-z0-9+.-]*:\/\//i.exec(text)?.[0] ?? '';
  let rest = text.slice(scheme.length);
  const at = rest.lastIndexOf('@');
  if (at !== -1) {
    const colon = rest.indexOf(':');
    rest = `${colon > 0 && colon < at && !/[/?#]/.test(rest.slice(0, colon)) ? `${rest.slice(0, colon)}:${MASK}` : MASK}@${rest.slice(at + 1)}`;
  }
  const pathEnd = rest.search(/[?#]/);
  const path = pathEnd === -1 ? rest : rest.slice(0, pathEnd);
  rest = maskPath(path) + rest.slice(path.length);
  return scheme + rest.replace(/\?([^#\s]*)/, (_m, q: string) => maskQuery(`?${q}`)).replace(/#\S*/, `#${MASK}`);
}

/**
 * An endpoint URL fit to be shown: the password (or a user name standing alone) becomes `***`, every
 * query value becomes `***` (keys stay, a bare token is masked whole), a fragment becomes `#***`, and
 * a path segment that reads as a token (16+ characters mixing letters and digits: Slack's or
 * Discord's webhook secret, a UUID) becomes `***`, and so does a path parameter's value
 * (`/in;jsessionid=***`). A string with nothing to hide comes back unchanged.
 *
 * @example
 * redactUrl('https://user:pw@hooks.example.com/in?token=abc&x=1'); // 'https://user:***@hooks.example.com/in?token=***&x=***'
 */
export function redactUrl(url: URL | string): string {
  if (typeof url !== 'string')
    return url.username || url.password || url.search || url.hash || hasMaskedPathPart(url.pathname)
      ? fromParsed(url)
      : url.href;
  if (!/[@?#]/.test(url) && !hasMaskedPathPart(url)) return url;
  const known = cache.get(url);
  if (known !== undefined) return known;
  let out: string;
  try {
    const parsed = new URL(url);
    out =
      parsed.username || parsed.password || parsed.search || parsed.hash || hasMaskedPathPart(parsed.pathname)
        ? fromParsed(parsed)
        : url;
  } catch {
    out = byPattern(url);
  }
  if (cache.size >= CACHE_MAX) cache.clear();
  cache.set(url, out);
  return out;
}

/**
 * A redirect's `Location` fit to be shown: an absolute URL as `redactUrl` shows it, a relative one
 * (`/login?token=…`) with its query values and fragment masked the same way.
 *
 * @example
 * redactLocation('/login?next=/a&token=abc'); // '/login?next=***&token=***'
 */
export function redactLocation(location: string): string {
  return /^[a-z][a-z0-9+.-]*:/i.test(location) ? redactUrl(location) : byPattern(location);
}

const URL_IN_TEXT = /\b[a-z][a-z0-9+.-]*:\/\/[^\s"'<>`]+/gi;

/**
 * Any text (an error message, a log line) with every URL in it redacted by `redactUrl`, and each
 * of `secrets` (e.g. the shared secret) replaced by `***` wherever it appears.
 *
 * @example
 * redactText('connect failed: http://u:pw@127.0.0.1:9/hook?token=t'); // 'connect failed: http://u:***@127.0.0.1:9/hook?token=***'
 */
export function redactText(text: string, secrets: readonly (string | undefined)[] = []): string {
  let out = text.replace(URL_IN_TEXT, (m) => {
    // Keep trailing punctuation of the sentence out of the URL.
    const trail = /[.,;:)\]}]+$/.exec(m)?.[0] ?? '';
    return redactUrl(m.slice(0, m.length - trail.length)) + trail;
  });
  for (const secret of secrets) if (secret) out = out.split(secret).join(MASK);
  return out;
}

/**
 * A signature fit to be shown: its first 6 characters and its length, as core's `redact` shows it
 * (already shortened text comes back as it is).
 *
 * @example
 * redactSignature('1a2b3c4d5e6f7a8b9c0d1a2b3c4d5e6f7a8b9c0d'); // '1a2b3c…(40 chars)'
 */
export function redactSignature(signature: string): string {
  return signature.includes('…') ? signature : redact(signature);
}

/** Words that always mark a credential, wherever they appear in a header name (case-insensitive). */
const SECRET_HEADER_WORDS = /token|secret|passw(?:or)?d|auth|session|signature|cookie|credential|jwt|bearer/;

/**
 * Short words that mark a credential at the start of a name part (between `-`, `_` or `.`): `X-Sig`,
 * `X-Hub-Sig-256`, `X-Pwd`, `X-Pass`, `X-Passcode`, `X-Access`, `X-Access-Id` — but not inside another
 * word (`X-Design-Id`, `X-Compass`).
 */
const SECRET_PART_START = /^(?:sig|pwd|pass|access)/;

/**
 * A name part (between `-`, `_` or `.`) that is a key: `key`/`keys` alone, or glued to a word that
 * names what the key is for (`apikey`, `accesskey`, `subscriptionkey`, `xkey`). Not any word that
 * merely contains the letters (`monkey`, `hockey`, `keyboard`), nor `keep-alive`.
 */
const KEY_PART =
  /^(?:api|access|account|app|auth|client|encryption|licen[cs]e|master|private|secret|service|session|signing|subscription|write|x)?keys?$/;

/**
 * Whether a header's value must never be shown, judged by its name alone (case-insensitive):
 * `Authorization`, `Proxy-Authorization`, `Cookie`, `Set-Cookie`, and every name containing `token`,
 * `secret`, `password`, `passwd`, `auth`, `session`, `signature`, `cookie`, `credential`, `jwt` or
 * `bearer` (`X-Auth-Token`, `X-Webhook-Secret`, `X-Session-Id`, `X-JWT`), with a part starting with
 * `sig`, `pwd`, `pass` or `access` (`X-Hub-Sig-256`, `X-Pwd`, `X-Passcode`, `X-Access-Id`; not the
 * browser's `Access-Control-*`), or with a key as one of its parts (`Api-Key`, `X-Api-Key`,
 * `X-ApiKey`, `X-Key`, `Ocp-Apim-Subscription-Key`). It errs on the side of
 * hiding: a harmless `Idempotency-Key` or `X-Author` is masked too. The request sent or forwarded
 * always carries the real value; only what is shown changes.
 *
 * @example
 * isSecretHeader('X-Api-Key'); // true
 * isSecretHeader('Keep-Alive'); // false
 */
export function isSecretHeader(name: string): boolean {
  const lower = name.toLowerCase();
  if (SECRET_HEADER_WORDS.test(lower)) return true;
  // The browser's CORS headers (Access-Control-*) name no credential.
  const cors = lower.startsWith('access-control-');
  return lower.split(/[-_.]/).some((part) => KEY_PART.test(part) || (!cors && SECRET_PART_START.test(part)));
}

/**
 * One header's value as it may be shown: `X-Signature` shortened (`redactSignature`), the value of a
 * credential header (`isSecretHeader`) replaced whole by `***`, any other value as it is.
 *
 * @example
 * redactHeaderValue('X-Api-Key', 'sk_live_123'); // '***'
 * redactHeaderValue('Content-Type', 'application/json'); // 'application/json'
 */
export function redactHeaderValue(name: string, value: string): string {
  if (name.toLowerCase() === 'x-signature') return redactSignature(value);
  return isSecretHeader(name) ? MASK : value;
}

/** The headers the sender itself sets; every other request header is the endpoint's own (often a credential). */
// `accept` is Segment's own `*/*` on Webhooks (Actions) requests (or a media type a mapping set): never a credential.
const SENDER_HEADERS = new Set(['user-agent', 'content-type', 'content-length', 'accept', 'accept-encoding']);

/**
 * Request headers of a delivery fit to be shown: the sender's own headers and `X-Signature` as
 * `redactHeaderValue` shows them, and the value of every endpoint header (e.g. `Authorization`,
 * `X-Api-Key`, but also an innocent-looking `X-Env`) masked whatever its name, since static headers
 * are where an endpoint's credentials live; the names stay.
 *
 * @example
 * redactHeaders({ 'Content-Type': 'application/json', Authorization: 'Bearer t', 'X-Signature': 'a94a8fe5cc…' });
 * // { 'Content-Type': 'application/json', Authorization: '***', 'X-Signature': 'a94a8f…(11 chars)' }
 */
export function redactHeaders(headers: Readonly<Record<string, string>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name in headers) {
    const lower = name.toLowerCase();
    const v = headers[name] as string;
    out[name] = lower === 'x-signature' || SENDER_HEADERS.has(lower) ? redactHeaderValue(name, v) : MASK;
  }
  return out;
}

/**
 * A write key fit to be shown (in a view, an event stream, a page or a log line): masked like a
 * secret, with only its first 4 characters when it is long enough (16+) to keep most of it hidden,
 * and its length. `hookgate serve`'s start-up banner is the one place that prints it whole.
 *
 * @example
 * redactWriteKey('wk_live_0123456789abcdef'); // 'wk_l…(24 chars)'
 * redactWriteKey('hookgate-dev'); // '***(12 chars)'
 */
export function redactWriteKey(writeKey: string): string {
  return writeKey.length >= 16
    ? `${writeKey.slice(0, 4)}…(${writeKey.length} chars)`
    : `${MASK}(${writeKey.length} chars)`;
}

/**
 * JSON text as a client sent it, with the write key masked (`redactWriteKey`) wherever it is spelled:
 * as is, and inside any string literal whose escapes spell it (`\/`, `\"`, `\u00e9`, as encoders such
 * as PHP's and Python's write them).
 *
 * @example
 * maskWriteKeyInJson('{"writeKey":"wk\\/1"}', 'wk/1'); // '{"writeKey":"***(4 chars)"}'
 */
export function maskWriteKeyInJson(text: string, writeKey: string): string {
  if (writeKey.length === 0) return text;
  const masked = redactWriteKey(writeKey);
  const plain = text.split(writeKey).join(masked);
  if (!plain.includes('\\')) return plain;
  return plain.replace(/"(?:[^"\\]|\\.)*"/g, (literal) => {
    if (!literal.includes('\\')) return literal;
    let value: unknown;
    try {
      value = JSON.parse(literal);
    } catch {
      return literal;
    }
    return typeof value === 'string' && value.includes(writeKey)
      ? JSON.stringify(value.split(writeKey).join(masked))
      : literal;
  });
}
