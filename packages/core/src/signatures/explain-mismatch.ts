import { childPath } from '../messages/validation-error.js';

/**
 * Why a raw body and its `JSON.stringify` re-serialization differ at one place. All but two name a
 * difference: `invalid-json` and `invalid-utf8` say there is no re-serialization to compare with, and
 * `too-deep` says the explanation stopped where the body nests deeper than 100 levels of objects and
 * arrays (or where the explainer ran out of stack): nothing is said about the rest of the body, and it
 * is not a statement that the JSON is invalid.
 *
 * @example
 * const causes = new Set<MismatchCause>(explainMismatch(rawBody).map((f) => f.cause));
 * if (causes.has('big-integer')) console.warn('send ids beyond 2^53 as strings');
 */
export type MismatchCause =
  | 'whitespace'
  | 'number-format'
  | 'big-integer'
  | 'escaped-slash'
  | 'unicode-escape'
  | 'escape-case'
  | 'string-escape'
  | 'key-order'
  | 'duplicate-key'
  | 'invalid-json'
  | 'invalid-utf8'
  | 'too-deep';

/**
 * One place where the raw body would not survive a JSON round trip byte for byte.
 *
 * @example
 * const findings: MismatchFinding[] = explainMismatch('{"price":1.0}');
 * for (const f of findings) console.warn(`${f.path} [${f.cause}] ${f.message}`);
 */
export interface MismatchFinding {
  /** JSON path of the value, e.g. `$.properties.price`. */
  path: string;
  cause: MismatchCause;
  /** Character offset in the raw body. */
  offset: number;
  /** The text as received. */
  raw: string;
  /** What `JSON.stringify` writes instead (absent where the change is not local, e.g. key order). */
  reserialized?: string;
  /** One readable sentence, naming the fix. */
  message: string;
}

const MAX_FINDINGS = 50;
/**
 * Levels of objects and arrays the explainer walks (the body itself is level 1): the same bound as the
 * emulator's per-call limit, far above real messages, and far from any stack limit for this recursive scan.
 */
const MAX_DEPTH = 100;
const INTEGER_KEY = /^(?:0|[1-9]\d*)$/;
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

/**
 * Explains why a signature over the raw body would fail when checked over `JSON.stringify(JSON.parse(raw))`:
 * number formats (`1.0`, `1e2`, `-0`), big integers, `\/`, `\u` escapes and their case, integer-like keys
 * that JavaScript moves first, duplicate keys, whitespace. Used by the receiver when debugging is on.
 * A body nesting deeper than 100 levels gets a `too-deep` finding where it passes that depth, after the
 * findings before it; the explainer does not look further.
 *
 * @example
 * explainMismatch('{"price":1.0}');
 * // [{ path: '$.price', cause: 'number-format', raw: '1.0', reserialized: '1', ... }]
 */
export function explainMismatch(rawBody: string | Uint8Array): MismatchFinding[] {
  let text: string;
  if (typeof rawBody === 'string') text = rawBody;
  else {
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(rawBody);
    } catch {
      return [
        finding('$', 'invalid-utf8', 0, '', 'The body is not valid UTF-8; a JSON round trip replaces the bad bytes.'),
      ];
    }
  }
  const scanner = new Scanner(text);
  try {
    scanner.skipWs(true);
    scanner.value('$');
    scanner.skipWs(true);
    if (scanner.i < text.length) throw new SyntaxError('unexpected text after the JSON value');
  } catch (e) {
    if (e instanceof TooDeep) {
      // Not a verdict on the JSON: the findings before this point stand, and the scan stops here.
      const where = e.path.length > 120 ? `${e.path.slice(0, 60)}…${e.path.slice(-40)}` : e.path;
      scanner.out.push(
        finding(
          e.path,
          'too-deep',
          e.offset,
          text.slice(e.offset, e.offset + 20),
          `The body nests deeper than ${MAX_DEPTH} levels of objects and arrays at ${where} (offset ${e.offset}); the explanation stops there and says nothing about the rest of the body (this is not a statement that the JSON is invalid). Flatten the data, or send the deep part as a string.`,
        ),
      );
    } else if (e instanceof RangeError) {
      // The call stack ran out (the caller's stack was already deep): neither invalid JSON nor a difference.
      scanner.out.push(
        finding(
          '$',
          'too-deep',
          scanner.i,
          text.slice(scanner.i, scanner.i + 20),
          `The explainer ran out of call stack at offset ${scanner.i} and stops there; it says nothing about the rest of the body (this is not a statement that the JSON is invalid). Call explainMismatch from a shallower stack.`,
        ),
      );
    } else if (!(e instanceof FindingsFull)) {
      // Not JSON: there is no re-serialization to compare with, so this is the only finding.
      return [
        finding(
          '$',
          'invalid-json',
          scanner.i,
          text.slice(scanner.i, scanner.i + 20),
          `The body is not valid JSON at offset ${scanner.i}: ${(e as Error).message}.`,
        ),
      ];
    }
  }
  return scanner.out;
}

class FindingsFull extends Error {}

/** Thrown where an object or array would be level `MAX_DEPTH + 1`: the scan stops there. */
class TooDeep extends Error {
  constructor(
    readonly path: string,
    readonly offset: number,
  ) {
    super('too deep');
  }
}

function finding(
  path: string,
  cause: MismatchCause,
  offset: number,
  raw: string,
  message: string,
  reserialized?: string,
): MismatchFinding {
  return reserialized === undefined
    ? { path, cause, offset, raw, message }
    : { path, cause, offset, raw, reserialized, message };
}

class Scanner {
  i = 0;
  readonly out: MismatchFinding[] = [];
  private sawWhitespace = false;
  private depth = 0;

  constructor(private readonly s: string) {}

  private add(f: MismatchFinding): void {
    this.out.push(f);
    if (this.out.length >= MAX_FINDINGS) throw new FindingsFull();
  }

  skipWs(edge = false): void {
    const start = this.i;
    while (this.i < this.s.length && ' \t\n\r'.includes(this.s[this.i] as string)) this.i++;
    if (this.i > start && !this.sawWhitespace) {
      this.sawWhitespace = true;
      // Whitespace around the value counts too: a trailing newline alone breaks a re-serialized check.
      const where = edge
        ? 'whitespace before or after the JSON value (a trailing newline, say)'
        : 'whitespace between tokens (pretty-printed)';
      this.add(
        finding(
          '$',
          'whitespace',
          start,
          this.s.slice(start, this.i),
          `The body has ${where}; JSON.stringify writes none. Verify the raw bytes, not a re-serialization.`,
          '',
        ),
      );
    }
  }

  value(path: string): void {
    const c = this.s[this.i];
    if (c === '{' || c === '[') {
      if (this.depth >= MAX_DEPTH) throw new TooDeep(path, this.i);
      this.depth++;
      if (c === '{') this.object(path);
      else this.array(path);
      this.depth--;
      return;
    }
    if (c === '"') {
      this.string(path);
      return;
    }
    if (c === 't') return this.literal('true');
    if (c === 'f') return this.literal('false');
    if (c === 'n') return this.literal('null');
    return this.number(path);
  }

  private literal(word: string): void {
    if (this.s.startsWith(word, this.i)) this.i += word.length;
    else throw new SyntaxError(`expected ${word}`);
  }

  private object(path: string): void {
    this.i++;
    this.skipWs();
    const keys = new Set<string>();
    let sawNonInteger = false;
    let lastInteger = -1;
    let reported = false;
    if (this.s[this.i] === '}') {
      this.i++;
      return;
    }
    for (;;) {
      const keyAt = this.i;
      if (this.s[this.i] !== '"') throw new SyntaxError('expected a key');
      const key = this.string(path, true);
      const keyPath = childPath(path, key);
      if (keys.has(key)) {
        this.add(
          finding(
            keyPath,
            'duplicate-key',
            keyAt,
            JSON.stringify(key),
            `Key ${JSON.stringify(key)} appears twice; JSON.parse keeps only the last value, so the re-serialized body is shorter.`,
          ),
        );
      } else if (INTEGER_KEY.test(key) && Number(key) < 2 ** 32 - 1) {
        if (!reported && (sawNonInteger || Number(key) < lastInteger)) {
          reported = true;
          this.add(
            finding(
              keyPath,
              'key-order',
              keyAt,
              JSON.stringify(key),
              `Integer-like key ${JSON.stringify(key)} is not first in its object; JavaScript moves such keys first and sorts them, so JSON.stringify reorders this object.`,
            ),
          );
        }
        lastInteger = Number(key);
      } else sawNonInteger = true;
      keys.add(key);
      this.skipWs();
      if (this.s[this.i] !== ':') throw new SyntaxError('expected ":"');
      this.i++;
      this.skipWs();
      this.value(keyPath);
      this.skipWs();
      if (this.s[this.i] === ',') {
        this.i++;
        this.skipWs();
        continue;
      }
      if (this.s[this.i] === '}') {
        this.i++;
        return;
      }
      throw new SyntaxError('expected "," or "}"');
    }
  }

  private array(path: string): void {
    this.i++;
    this.skipWs();
    if (this.s[this.i] === ']') {
      this.i++;
      return;
    }
    for (let n = 0; ; n++) {
      this.value(childPath(path, n));
      this.skipWs();
      if (this.s[this.i] === ',') {
        this.i++;
        this.skipWs();
        continue;
      }
      if (this.s[this.i] === ']') {
        this.i++;
        return;
      }
      throw new SyntaxError('expected "," or "]"');
    }
  }

  private string(path: string, isKey = false): string {
    const start = this.i;
    this.i++;
    while (this.i < this.s.length && this.s[this.i] !== '"') {
      if (this.s[this.i] === '\\') this.i++;
      this.i++;
    }
    if (this.i >= this.s.length) throw new SyntaxError('unterminated string');
    this.i++;
    const raw = this.s.slice(start, this.i);
    const decoded = JSON.parse(raw) as string;
    const again = JSON.stringify(decoded);
    if (raw !== again) {
      const where = isKey ? `${path} (a key)` : path;
      let cause: MismatchCause = 'string-escape';
      let why = 'It uses an escape that JSON.stringify writes differently.';
      if (raw.includes('\\/')) {
        cause = 'escaped-slash';
        why = 'It escapes "/" as "\\/" (PHP and some Java encoders do); JSON.stringify writes a plain "/".';
      } else if (/\\u[0-9a-fA-F]{4}/.test(raw) && raw.toLowerCase() === again.toLowerCase()) {
        cause = 'escape-case';
        why = 'It writes a \\u escape in uppercase hex; JSON.stringify writes lowercase.';
      } else if (/\\u[0-9a-fA-F]{4}/.test(raw)) {
        cause = 'unicode-escape';
        why = 'It writes a character as a \\u escape; JSON.stringify writes the character itself (UTF-8).';
      }
      this.add(finding(where, cause, start, raw, `${why} Verify the raw bytes, not a re-serialization.`, again));
    }
    return decoded;
  }

  private number(path: string): void {
    NUMBER.lastIndex = this.i; // sticky: matches at i, however long the number is
    const m = NUMBER.exec(this.s);
    if (!m) throw new SyntaxError('unexpected character');
    const raw = m[0];
    const start = this.i;
    this.i += raw.length;
    const again = JSON.stringify(Number(raw));
    if (raw === again) return;
    const isInteger = /^-?\d+$/.test(raw);
    if (isInteger && !Number.isSafeInteger(Number(raw))) {
      this.add(
        finding(
          path,
          'big-integer',
          start,
          raw,
          `The integer ${raw} is beyond 2^53; JavaScript rounds it to ${again}. Verify the raw bytes, or send it as a string.`,
          again,
        ),
      );
    } else {
      this.add(
        finding(
          path,
          'number-format',
          start,
          raw,
          `The number ${raw} is written as ${again} by JSON.stringify. Verify the raw bytes, not a re-serialization.`,
          again,
        ),
      );
    }
  }
}
