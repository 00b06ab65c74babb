// The bytes of a delivery request, with what does not change per message computed once per endpoint.
import { requestHeaders } from './request-headers.js';

/** Characters node:http refuses in a header value (it would throw ERR_INVALID_CHAR). */
const INVALID_HEADER_CHAR = /[^\t\x20-\x7e\x80-\xff]/;
const SIGNATURE_NAME = 'X-Signature: ';
const CRLF = '\r\n';

/** How many decimal digits `n` (a non-negative integer) has. */
function digits(n: number): number {
  let d = 1;
  while (n >= 10) {
    n = Math.floor(n / 10);
    d++;
  }
  return d;
}

/**
 * One endpoint's request head as node:http would write it — `POST <path+query> HTTP/1.1`, then the
 * headers of `requestHeaders` in their order (`Content-Length` and `X-Signature` per message),
 * `Host`, `Authorization: Basic …` from the URL's userinfo (unless a static header sets it) and
 * `Connection: keep-alive` — precomputed as three byte runs around the per-message parts.
 *
 * @example
 * const head = new Http1RequestHead(new URL('http://127.0.0.1:8080/hook'), 'Segment.io/1.0', {});
 * const bytes = head.render(body, signature); // head and body in one buffer, written at once
 */
export class Http1RequestHead {
  /** From the request line to `Content-Length: ` included. */
  readonly #beforeLength: Buffer;
  /** From the CRLF after the length to the line before `X-Signature`. */
  readonly #beforeSignature: Buffer;
  /** From the line after `X-Signature` to the empty line ending the head. */
  readonly #end: Buffer;
  /** Set when node:http would have refused the headers (an invalid character): the request fails with it. */
  readonly invalid: (Error & { code: string }) | undefined;

  constructor(url: URL, userAgent: string, staticHeaders: Readonly<Record<string, string>>, method = 'POST') {
    // The sender's header set, in its order; a placeholder signature marks where X-Signature goes.
    const headers = requestHeaders(userAgent, staticHeaders, 0, '');
    let hasAuthorization = false;
    let invalid: (Error & { code: string }) | undefined;
    let part = `${method} ${url.pathname}${url.search} HTTP/1.1\r\n`;
    let beforeLength = '';
    let beforeSignature = '';
    for (const name in headers) {
      const value = headers[name] as string;
      if (name.toLowerCase() === 'authorization') hasAuthorization = true;
      if (invalid === undefined && INVALID_HEADER_CHAR.test(value)) {
        invalid = Object.assign(new TypeError(`Invalid character in header content ["${name}"]`), {
          code: 'ERR_INVALID_CHAR',
        });
      }
      if (name === 'Content-Length') {
        beforeLength = `${part}Content-Length: `;
        part = CRLF;
      } else if (name === 'X-Signature') {
        beforeSignature = part;
        part = '';
      } else part += `${name}: ${value}${CRLF}`;
    }
    this.#beforeLength = Buffer.from(beforeLength, 'latin1');
    this.#beforeSignature = Buffer.from(beforeSignature, 'latin1');
    let end = `${part}Host: ${url.host}${CRLF}`;
    if (url.username && !hasAuthorization) {
      // Credentials in the URL are used for the request (as node:http does), never shown.
      const credentials = `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`;
      end += `Authorization: Basic ${Buffer.from(credentials).toString('base64')}${CRLF}`;
    }
    end += `Connection: keep-alive${CRLF}${CRLF}`;
    this.#end = Buffer.from(end, 'latin1');
    this.invalid = invalid;
  }

  /** The request's bytes: head and body in one buffer (from Node's buffer pool when small). */
  render(body: Uint8Array, signature: string | undefined): Buffer {
    const length = body.length;
    const lengthDigits = digits(length);
    const signatureBytes = signature === undefined ? 0 : SIGNATURE_NAME.length + signature.length + 2;
    const a = this.#beforeLength;
    const b = this.#beforeSignature;
    const c = this.#end;
    const headLength = a.length + lengthDigits + b.length + signatureBytes + c.length;
    const out = Buffer.allocUnsafe(headLength + length);
    let at = a.copy(out, 0);
    for (let n = length, i = at + lengthDigits - 1; i >= at; i--) {
      out[i] = 0x30 + (n % 10);
      n = Math.floor(n / 10);
    }
    at += lengthDigits;
    at += b.copy(out, at);
    if (signature !== undefined) {
      at += out.write(SIGNATURE_NAME, at, 'latin1');
      at += out.write(signature, at, 'latin1');
      out[at++] = 0x0d;
      out[at++] = 0x0a;
    }
    at += c.copy(out, at);
    out.set(body, at);
    return out;
  }
}
