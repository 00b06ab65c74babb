// A strict, bounded HTTP/1.x response parser for the delivery transport. One parser lives on each
// connection and is reset for every answer, so parsing an answer allocates only the head's text (and
// the pieces of the body kept). It reads what the engine needs: the status, `Retry-After`,
// `Location`, whether the connection may be reused, and the first `RESPONSE_BODY_LIMIT` bytes.

/**
 * Bytes of an answer's body kept for the delivery log; the rest is read and dropped.
 *
 * @example
 * parser.bodyText()?.length <= RESPONSE_BODY_LIMIT; // true (ASCII bodies)
 */
export const RESPONSE_BODY_LIMIT = 1024;

/**
 * Most bytes of a status line plus headers (and, separately, of a chunked body's trailers).
 *
 * @example
 * // an answer whose head does not end within 16 KB is a `protocol` error
 * MAX_HEAD_BYTES; // 16384
 */
export const MAX_HEAD_BYTES = 16 * 1024;

/** How every answer's status line starts. */
const HTTP1_PREFIX = Buffer.from('HTTP/1.', 'latin1');

/** Most bytes of a chunk-size line (the size and its extensions). */
const MAX_CHUNK_LINE_BYTES = 4096;

/**
 * What `Http1ResponseParser.execute` found: more bytes needed, the answer complete, or malformed.
 *
 * @example
 * if (parser.execute(chunk) === ParseResult.Complete) console.log(parser.status);
 */
export const ParseResult = { NeedMore: 0, Complete: 1, Malformed: 2 } as const;
/**
 * One of `ParseResult`'s values.
 *
 * @example
 * const result: ParseResult = parser.execute(chunk);
 */
export type ParseResult = (typeof ParseResult)[keyof typeof ParseResult];

const enum State {
  Head,
  Length,
  ChunkSize,
  ChunkData,
  ChunkDataEnd,
  Trailers,
  UntilClose,
  Done,
}

const CRLFCRLF = Buffer.from('\r\n\r\n', 'latin1');
const CRLF = Buffer.from('\r\n', 'latin1');
const HTTP1 = Buffer.from('HTTP/1.', 'latin1');
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** Control characters a field value may not hold (HTAB is allowed). */
const CTL = /[\x00-\x08\x0a-\x1f\x7f]/;

/** Short answers ("ok", "{}") repeat across thousands of attempts: keep one copy of each. */
const shortAnswers = new Map<string, string>();

function responseText(bytes: Buffer, length: number): string {
  const text = bytes.toString('utf8', 0, Math.min(length, RESPONSE_BODY_LIMIT));
  if (text.length > 64) return text;
  const known = shortAnswers.get(text);
  if (known !== undefined) return known;
  if (shortAnswers.size < 1000) shortAnswers.set(text, text);
  return text;
}

/** Token characters of header names (RFC 9110 tchar), by byte. */
const TCHAR = new Uint8Array(256);
for (const c of "!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
  TCHAR[c.charCodeAt(0)] = 1;

/** Whether `buf[from, to)` equals `lower` (lowercase ASCII), ignoring the case of letters. */
function equalsIgnoringCase(buf: Buffer, from: number, to: number, lower: string): boolean {
  if (to - from !== lower.length) return false;
  for (let i = 0; i < lower.length; i++) if (((buf[from + i] as number) | 0x20) !== lower.charCodeAt(i)) return false;
  return true;
}

/** Whether the comma-separated list in `buf[from, to)` holds `lower` as one of its tokens (any case). */
function hasToken(buf: Buffer, from: number, to: number, lower: string): boolean {
  let i = from;
  while (i < to) {
    let end = buf.indexOf(0x2c, i);
    if (end < 0 || end > to) end = to;
    let a = i;
    let b = end;
    while (a < b && (buf[a] === 0x20 || buf[a] === 0x09)) a++;
    while (b > a && (buf[b - 1] === 0x20 || buf[b - 1] === 0x09)) b--;
    if (equalsIgnoringCase(buf, a, b, lower)) return true;
    i = end + 1;
  }
  return false;
}

/** The decimal number at `buf[from, to)` (all digits, at most 15), or -1. */
function decimal(buf: Buffer, from: number, to: number): number {
  if (to <= from || to - from > 15) return -1;
  let n = 0;
  for (let i = from; i < to; i++) {
    const c = buf[i] as number;
    if (c < 0x30 || c > 0x39) return -1;
    n = n * 10 + (c - 0x30);
  }
  return n;
}

/** The `timeout=N` of a `Keep-Alive` header value in ms (node:http servers send `timeout=5`), or undefined. */
function keepAliveTimeout(buf: Buffer, from: number, to: number): number | undefined {
  const at = buf.indexOf('timeout=', from, 'latin1');
  if (at < 0 || at >= to) return undefined;
  let end = at + 8;
  while (end < to && end < at + 14 && (buf[end] as number) >= 0x30 && (buf[end] as number) <= 0x39) end++;
  const seconds = decimal(buf, at + 8, end);
  return seconds < 0 ? undefined : seconds * 1000;
}

/** Reason phrases seen, by status: "OK" and "Service Unavailable" are not decoded again for every answer. */
const reasons = new Map<number, string>();

function reasonPhrase(status: number, buf: Buffer, from: number, to: number): string {
  if (to <= from) return '';
  const known = reasons.get(status);
  if (known !== undefined && known.length === to - from) {
    let same = true;
    for (let i = 0; i < known.length && same; i++) same = known.charCodeAt(i) === buf[from + i];
    if (same) return known;
  }
  const text = buf.toString('latin1', from, to);
  if (reasons.size < 200) reasons.set(status, text);
  return text;
}

/**
 * Parses one HTTP/1.0 or 1.1 answer at a time, fed with the socket's chunks: skips 1xx interim
 * answers, frames the body by `Content-Length`, `Transfer-Encoding: chunked` (extensions and trailers
 * allowed) or the connection's close, and keeps the first `RESPONSE_BODY_LIMIT` bytes of the body.
 * Anything malformed (or a head over `MAX_HEAD_BYTES`) gives `ParseResult.Malformed` with `error` set.
 *
 * @example
 * const parser = new Http1ResponseParser();
 * parser.execute(Buffer.from('HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok')); // ParseResult.Complete
 * parser.status; // 200
 * parser.bodyText(); // 'ok'
 */
export class Http1ResponseParser {
  #state: State = State.Head;
  /** The head's bytes received so far when it spans chunks. */
  #pending: Buffer | undefined = undefined;
  /** Head bytes already seen in this answer (1xx heads included). */
  #headBytes = 0;
  /** A chunk-size or trailer line received in part. */
  #line = '';
  #trailerBytes = 0;
  #remaining = 0;
  /**
   * The kept start of the body, copied: the bytes fed may be a read buffer the socket reuses. One
   * buffer per parser (so per connection), made on the first answer with a body.
   */
  #body: Buffer | undefined = undefined;
  #kept = 0;
  /** Whether any byte of this answer arrived. */
  started = false;
  /** The final answer's status (set once its head is parsed). */
  status: number | undefined = undefined;
  statusText: string | undefined = undefined;
  retryAfter: string | undefined = undefined;
  location: string | undefined = undefined;
  /** Whether the connection may carry another request after this answer. */
  keepAlive = false;
  /** The server's `Keep-Alive: timeout=N` hint in ms, when given. */
  keepAliveTimeoutMs: number | undefined = undefined;
  /** Bytes arrived after the answer's end (the connection must not be reused). */
  trailingBytes = false;
  /** Why the answer is malformed. */
  error: string | undefined = undefined;

  /** Readies the parser for the next answer, letting go of the previous one's data. */
  reset(): void {
    this.#state = State.Head;
    this.#pending = undefined;
    this.#headBytes = 0;
    this.#line = '';
    this.#trailerBytes = 0;
    this.#remaining = 0;
    this.#kept = 0;
    this.started = false;
    this.status = undefined;
    this.statusText = undefined;
    this.retryAfter = undefined;
    this.location = undefined;
    this.keepAlive = false;
    this.keepAliveTimeoutMs = undefined;
    this.trailingBytes = false;
    this.error = undefined;
  }

  /** Whether the answer so far is complete once the connection closes (a close-delimited body). */
  endOfInput(): boolean {
    if (this.#state === State.UntilClose) this.#state = State.Done;
    return this.#state === State.Done;
  }

  /** The kept start of the body as text (short answers interned), undefined when empty. */
  bodyText(): string | undefined {
    return this.#body && this.#kept > 0 ? responseText(this.#body, this.#kept) : undefined;
  }

  /**
   * Feeds the next bytes of the answer, `data[0, end)`: `data` may be a read buffer reused once this
   * returns (bytes past `end` are stale), so whatever is kept is copied.
   */
  execute(data: Buffer, end = data.length): ParseResult {
    if (end > 0) this.started = true;
    if (this.#state === State.Done) {
      if (end > 0) this.trailingBytes = true;
      return ParseResult.Complete;
    }
    let pos = 0;
    while (pos < end || this.#state === State.Done) {
      switch (this.#state) {
        case State.Head: {
          const next = this.#readHead(data, pos, end);
          if (next < 0) return next === -1 ? ParseResult.NeedMore : ParseResult.Malformed;
          pos = next;
          break;
        }
        case State.Length:
        case State.UntilClose: {
          const take = this.#state === State.Length ? Math.min(this.#remaining, end - pos) : end - pos;
          this.#keep(data, pos, pos + take);
          pos += take;
          if (this.#state === State.Length) {
            this.#remaining -= take;
            if (this.#remaining === 0) this.#state = State.Done;
          }
          break;
        }
        case State.ChunkSize: {
          const line = this.#readLine(data, pos, end, MAX_CHUNK_LINE_BYTES, 'chunk size line');
          if (line === undefined) return this.error ? ParseResult.Malformed : ParseResult.NeedMore;
          pos = this.#lineEnd;
          const size = this.#chunkSize(line);
          if (size < 0) return ParseResult.Malformed;
          if (size === 0) this.#state = State.Trailers;
          else {
            this.#remaining = size;
            this.#state = State.ChunkData;
          }
          break;
        }
        case State.ChunkData: {
          const take = Math.min(this.#remaining, end - pos);
          this.#keep(data, pos, pos + take);
          pos += take;
          this.#remaining -= take;
          if (this.#remaining === 0) {
            this.#state = State.ChunkDataEnd;
            this.#remaining = 2;
          }
          break;
        }
        case State.ChunkDataEnd: {
          // The CRLF after a chunk's data, possibly split between chunks.
          const expected = this.#remaining === 2 ? 0x0d : 0x0a;
          if (data[pos] !== expected) return this.#fail('a chunk is not followed by CRLF');
          pos++;
          if (--this.#remaining === 0) this.#state = State.ChunkSize;
          break;
        }
        case State.Trailers: {
          const line = this.#readLine(data, pos, end, MAX_HEAD_BYTES - this.#trailerBytes, 'trailers');
          if (line === undefined) return this.error ? ParseResult.Malformed : ParseResult.NeedMore;
          this.#trailerBytes += this.#lineEnd - pos;
          pos = this.#lineEnd;
          if (line === '') this.#state = State.Done;
          else if (!this.#checkField(line)) return ParseResult.Malformed;
          break;
        }
        case State.Done:
          if (pos < end) this.trailingBytes = true;
          return ParseResult.Complete;
      }
    }
    return ParseResult.NeedMore;
  }

  #fail(message: string): ParseResult {
    this.error = message;
    return ParseResult.Malformed;
  }

  #keep(data: Buffer, from: number, to: number): void {
    if (this.#kept >= RESPONSE_BODY_LIMIT || to <= from) return;
    this.#body ??= Buffer.allocUnsafeSlow(RESPONSE_BODY_LIMIT);
    const body = this.#body;
    const last = Math.min(to, from + RESPONSE_BODY_LIMIT - this.#kept);
    // A loop, not `copy`: bodies kept are short ("ok"), and `copy` of a part makes a view per call.
    for (let i = from, at = this.#kept; i < last; i++, at++) body[at] = data[i] as number;
    this.#kept += last - from;
  }

  /** Where the last line read by `#readLine` ended (after its CRLF). */
  #lineEnd = 0;

  /** A CRLF-terminated line from `pos` (joined with a part received before), or undefined. */
  #readLine(data: Buffer, pos: number, end: number, limit: number, what: string): string | undefined {
    const lf = data.indexOf(0x0a, pos);
    if (lf < 0 || lf >= end) {
      if (this.#line.length + end - pos > limit) this.#fail(`the ${what} exceed ${limit} bytes`);
      else this.#line += data.toString('latin1', pos, end);
      return undefined;
    }
    const line = this.#line + data.toString('latin1', pos, lf);
    this.#line = '';
    if (line.length + 1 > limit) {
      this.#fail(`the ${what} exceed ${limit} bytes`);
      return undefined;
    }
    if (line.charCodeAt(line.length - 1) !== 0x0d) {
      this.#fail(`a bare LF ends a line of the ${what}`);
      return undefined;
    }
    this.#lineEnd = lf + 1;
    return line.slice(0, -1);
  }

  /** A chunk-size line's size (extensions allowed and ignored), or -1 when malformed. */
  #chunkSize(line: string): number {
    let i = 0;
    let size = 0;
    for (; i < line.length; i++) {
      const c = line.charCodeAt(i);
      const digit =
        c >= 0x30 && c <= 0x39 ? c - 0x30 : c >= 0x61 && c <= 0x66 ? c - 0x57 : c >= 0x41 && c <= 0x46 ? c - 0x37 : -1;
      if (digit < 0) break;
      if (i >= 12) return this.#fail('a chunk size is too large') && -1;
      size = size * 16 + digit;
    }
    if (i === 0) return this.#fail(`a chunk size line is not hexadecimal: ${JSON.stringify(line.slice(0, 40))}`) && -1;
    let j = i;
    while (j < line.length && (line.charCodeAt(j) === 0x20 || line.charCodeAt(j) === 0x09)) j++;
    if (j < line.length && (line.charCodeAt(j) !== 0x3b || CTL.test(line))) {
      return this.#fail(`a chunk size line is malformed: ${JSON.stringify(line.slice(0, 40))}`) && -1;
    }
    return size;
  }

  /** Checks a header or trailer line's syntax (`name: value`). */
  #checkField(line: string): boolean {
    const colon = line.indexOf(':');
    if (colon <= 0 || !TOKEN.test(line.slice(0, colon))) {
      this.#fail(`a header line is malformed: ${JSON.stringify(line.slice(0, 40))}`);
      return false;
    }
    if (CTL.test(line)) {
      this.#fail(`a header holds a control character: ${JSON.stringify(line.slice(0, colon))}`);
      return false;
    }
    return true;
  }

  /**
   * Finds the end of the head from `pos`: -1 when more bytes are needed, -2 when malformed, else
   * the position after it (the body's start, or the next head after a 1xx answer).
   */
  #readHead(data: Buffer, pos: number, end: number): number {
    let buf: Buffer;
    let start: number;
    let searchFrom: number;
    let bufEnd: number;
    if (this.#pending) {
      const before = this.#pending.length;
      buf = Buffer.concat([this.#pending, data.subarray(pos, end)]);
      start = 0;
      searchFrom = Math.max(0, before - 3);
      bufEnd = buf.length;
    } else {
      buf = data;
      start = pos;
      searchFrom = pos;
      bufEnd = end;
    }
    // A match past `bufEnd` lies in stale bytes of a reused read buffer: not found.
    const at = buf.indexOf(CRLFCRLF, searchFrom);
    // What can already be told wrong is refused now, not at the deadline or the close: an answer that
    // does not start as one (another protocol's greeting), or a line ended by a bare LF (node:http's
    // parser refuses both at once, and the emulator used to classify them as malformed answers).
    const scanEnd = at < 0 || at + 4 > bufEnd ? bufEnd : at + 4;
    if (
      !this.#startsAsAnswer(buf, start, scanEnd) ||
      !this.#crlfOnly(buf, start, this.#pending ? this.#pending.length : start, scanEnd)
    )
      return -2;
    if (at < 0 || at + 4 > bufEnd) {
      if (this.#headBytes + bufEnd - start > MAX_HEAD_BYTES) {
        this.#fail(`the status line and headers exceed ${MAX_HEAD_BYTES} bytes`);
        return -2;
      }
      this.#pending = this.#pending ? buf : Buffer.from(buf.subarray(start, bufEnd)); // a copy: `data` may be reused
      return -1;
    }
    const headEnd = at + 4;
    this.#headBytes += headEnd - start;
    if (this.#headBytes > MAX_HEAD_BYTES) {
      this.#fail(`the status line and headers exceed ${MAX_HEAD_BYTES} bytes`);
      return -2;
    }
    const consumedFromData = this.#pending ? headEnd - this.#pending.length : headEnd - pos;
    this.#pending = undefined;
    if (!this.#parseHead(buf, start, at)) return -2;
    return pos + consumedFromData;
  }

  /** Whether the head's first bytes, `buf[start, end)` so far, can begin `HTTP/1.`. */
  #startsAsAnswer(buf: Buffer, start: number, end: number): boolean {
    const n = Math.min(HTTP1_PREFIX.length, end - start);
    for (let i = 0; i < n; i++) {
      if (buf[start + i] !== HTTP1_PREFIX[i]) {
        this.#fail(
          `the answer does not start with HTTP/1.x: ${JSON.stringify(buf.toString('latin1', start, Math.min(end, start + 40)))}`,
        );
        return false;
      }
    }
    return true;
  }

  /** Whether every LF in `buf[from, end)` follows a CR (the head began at `start`). */
  #crlfOnly(buf: Buffer, start: number, from: number, end: number): boolean {
    for (let i = buf.indexOf(0x0a, from); i !== -1 && i < end; i = buf.indexOf(0x0a, i + 1)) {
      if (i === start || buf[i - 1] !== 0x0d) {
        this.#fail('a line of the head ends in a bare LF, not CRLF');
        return false;
      }
    }
    return true;
  }

  /** Parses a head, `buf[from, to)` without its final CRLFCRLF, and picks the body's framing (no string per line). */
  #parseHead(buf: Buffer, from: number, to: number): boolean {
    let lineEnd = buf.indexOf(CRLF, from);
    if (lineEnd < 0 || lineEnd > to) lineEnd = to;
    // Status line: HTTP/1.x SP 3DIGIT [SP reason]
    const status = this.#statusOf(buf, from, lineEnd);
    if (status < 0) {
      this.#fail(
        `the status line is malformed: ${JSON.stringify(buf.toString('latin1', from, Math.min(lineEnd, from + 40)))}`,
      );
      return false;
    }
    const http11 = buf[from + 7] === 0x31;
    let contentLength = -1;
    let chunked = false;
    let transferEncoding = false;
    let close = false;
    let keepAliveToken = false;
    let retryAfter: string | undefined;
    let location: string | undefined;
    let keepAliveTimeoutMs: number | undefined;
    let pos = lineEnd + 2;
    while (pos < to) {
      let next = buf.indexOf(CRLF, pos);
      if (next < 0 || next > to) next = to;
      const line = pos;
      pos = next + 2;
      if (buf[line] === 0x20 || buf[line] === 0x09) {
        this.#fail('a header is folded over lines (obsolete line folding)');
        return false;
      }
      let colon = line;
      while (colon < next && TCHAR[buf[colon] as number] === 1) colon++;
      if (colon === line || colon === next || buf[colon] !== 0x3a) {
        this.#fail(
          `a header line is malformed: ${JSON.stringify(buf.toString('latin1', line, Math.min(next, line + 40)))}`,
        );
        return false;
      }
      for (let i = colon + 1; i < next; i++) {
        const c = buf[i] as number;
        if ((c < 0x20 && c !== 0x09) || c === 0x7f) {
          this.#fail(`a header holds a control character: ${JSON.stringify(buf.toString('latin1', line, colon))}`);
          return false;
        }
      }
      let vs = colon + 1;
      let ve = next;
      while (vs < ve && (buf[vs] === 0x20 || buf[vs] === 0x09)) vs++;
      while (ve > vs && (buf[ve - 1] === 0x20 || buf[ve - 1] === 0x09)) ve--;
      switch (colon - line) {
        case 8:
          if (location === undefined && equalsIgnoringCase(buf, line, colon, 'location'))
            location = buf.toString('latin1', vs, ve);
          break;
        case 10:
          if (equalsIgnoringCase(buf, line, colon, 'connection')) {
            if (hasToken(buf, vs, ve, 'close')) close = true;
            if (hasToken(buf, vs, ve, 'keep-alive')) keepAliveToken = true;
          } else if (equalsIgnoringCase(buf, line, colon, 'keep-alive')) {
            keepAliveTimeoutMs = keepAliveTimeout(buf, vs, ve);
          }
          break;
        case 11:
          if (retryAfter === undefined && equalsIgnoringCase(buf, line, colon, 'retry-after'))
            retryAfter = buf.toString('latin1', vs, ve);
          break;
        case 14:
          if (equalsIgnoringCase(buf, line, colon, 'content-length')) {
            const n = decimal(buf, vs, ve);
            if (n < 0 || (contentLength >= 0 && contentLength !== n)) {
              this.#fail(
                `the Content-Length header is invalid: ${JSON.stringify(buf.toString('latin1', vs, Math.min(ve, vs + 40)))}`,
              );
              return false;
            }
            contentLength = n;
          }
          break;
        case 17:
          if (equalsIgnoringCase(buf, line, colon, 'transfer-encoding')) {
            transferEncoding = true;
            let last = buf.lastIndexOf(0x2c, ve - 1);
            last = last < vs ? vs : last + 1;
            while (last < ve && (buf[last] === 0x20 || buf[last] === 0x09)) last++;
            chunked = equalsIgnoringCase(buf, last, ve, 'chunked');
          }
          break;
      }
    }
    if (status < 200) {
      if (status === 101) {
        this.#fail('101 Switching Protocols answered a request that asked for no upgrade');
        return false;
      }
      // An interim answer (100 Continue, 103 Early Hints): the final one follows.
      return true;
    }
    if (transferEncoding && contentLength >= 0) {
      this.#fail('the answer has both Transfer-Encoding and Content-Length');
      return false;
    }
    this.status = status;
    this.statusText = reasonPhrase(status, buf, from + 13, lineEnd);
    this.retryAfter = retryAfter;
    this.location = location;
    this.keepAliveTimeoutMs = keepAliveTimeoutMs;
    this.keepAlive = http11 ? !close : keepAliveToken && !close;
    if (status === 204 || status === 304) this.#state = State.Done;
    else if (chunked) this.#state = State.ChunkSize;
    else if (contentLength >= 0 && !transferEncoding) {
      this.#remaining = contentLength;
      this.#state = contentLength === 0 ? State.Done : State.Length;
    } else {
      this.#state = State.UntilClose;
      this.keepAlive = false;
    }
    return true;
  }

  /** The status of a status line `buf[from, end)` (`HTTP/1.x SP 3DIGIT [SP reason]`), or -1 when malformed. */
  #statusOf(buf: Buffer, from: number, end: number): number {
    if (end - from < 12 || HTTP1.compare(buf, from, from + 7) !== 0) return -1;
    if ((buf[from + 7] !== 0x30 && buf[from + 7] !== 0x31) || buf[from + 8] !== 0x20) return -1;
    if (end - from > 12 && buf[from + 12] !== 0x20) return -1;
    const status = decimal(buf, from + 9, from + 12);
    if (status < 100) return -1;
    for (let i = from + 13; i < end; i++) {
      const c = buf[i] as number;
      if ((c < 0x20 && c !== 0x09) || c === 0x7f) return -1;
    }
    return status;
  }
}
