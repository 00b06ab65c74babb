// What HTTP can carry, checked where settings and flags come in, so that nothing reaches node:http
// that it would refuse (or worse, silently change) at send time. Each check returns the problem as
// words naming the character, or undefined: the caller names the field.

/** RFC 9110 `token`: the characters of a header name. */
const TOKEN_CHAR = /[!#$%&'*+\-.^_`|~0-9A-Za-z]/;
/** What a header value may not hold: controls other than TAB, and anything past U+00FF (a ByteString). */
const NOT_FIELD_VALUE = /[^\t\x20-\x7e\x80-\xff]/u;
/** What a URL may not hold as written: spaces and controls (C0, DEL, C1), which URL parsing drops or encodes. */
// eslint-disable-next-line no-control-regex
const NOT_IN_URL = /[\x00-\x20\x7f-\x9f]/u;

const CONTROL_NAMES: Record<number, string> = { 0: 'NUL', 9: 'TAB', 10: 'LF', 13: 'CR', 32: 'a space', 127: 'DEL' };

/**
 * A character as an error names it: `CR (U+000D)`, `"日" (U+65E5)`, `a space (U+0020)`.
 *
 * @example
 * describeCharacter('\r'); // 'CR (U+000D)'
 * describeCharacter('€'); // '"€" (U+20AC)'
 */
export function describeCharacter(ch: string): string {
  const cp = ch.codePointAt(0) as number;
  const hex = `U+${cp.toString(16).toUpperCase().padStart(4, '0')}`;
  const name = CONTROL_NAMES[cp];
  if (name !== undefined) return `${name} (${hex})`;
  if (cp < 0x20 || (cp >= 0x7f && cp <= 0x9f)) return `a control character (${hex})`;
  return `${JSON.stringify(ch)} (${hex})`;
}

/**
 * Why `name` cannot be a header name, or undefined: a name is a non-empty token (letters, digits
 * and ``!#$%&'*+-.^_`|~``), as node:http and fetch require.
 *
 * @example
 * headerNameIssue('X-Team'); // undefined
 * headerNameIssue('X Team'); // 'contains a space (U+0020) at index 1: a header name is letters, digits and !#$%&\'*+-.^_`|~'
 */
export function headerNameIssue(name: string): string | undefined {
  if (name.length === 0) return 'is empty: a header needs a name';
  const bad = [...name].findIndex((ch) => !TOKEN_CHAR.test(ch));
  if (bad === -1) return undefined;
  const ch = [...name][bad] as string;
  return `contains ${describeCharacter(ch)} at index ${bad}: a header name is letters, digits and !#$%&'*+-.^_\`|~`;
}

/**
 * Why `value` cannot be sent as a header value, or undefined. Refused: CR, LF, NUL and the other
 * controls but TAB (they would end the header or inject another), and characters past U+00FF, which
 * HTTP has no bytes for (fetch refuses them as not a ByteString, node:http as an invalid character).
 *
 * @example
 * headerValueIssue('Bearer t0k3n'); // undefined
 * headerValueIssue('日本'); // 'contains "日" (U+65E5) at index 0, past U+00FF: …'
 */
export function headerValueIssue(value: string): string | undefined {
  const match = NOT_FIELD_VALUE.exec(value);
  if (match === null) return undefined;
  const ch = match[0];
  const at = [...value.slice(0, match.index)].length;
  const cp = ch.codePointAt(0) as number;
  if (cp > 0xff)
    return (
      `contains ${describeCharacter(ch)} at index ${at}, past U+00FF: a header value is sent as bytes, one per ` +
      `character, and HTTP clients refuse larger characters; use ASCII (percent- or base64-encode the text)`
    );
  return `contains ${describeCharacter(ch)} at index ${at}: a header value must be one line of printable characters (a control character would end the header or inject another)`;
}

/**
 * Why the URL as written cannot be used, or undefined. Checked on the raw string: URL parsing drops
 * TAB, CR and LF and trims spaces and controls silently, so `/ok\r\nX-Evil: 1` would be sent to
 * another path than the one written.
 *
 * @example
 * urlIssue('http://127.0.0.1:3000/hook'); // undefined
 * urlIssue('http://127.0.0.1:3000/o\tk'); // 'contains TAB (U+0009) at index 24: …'
 */
export function urlIssue(raw: string): string | undefined {
  const match = NOT_IN_URL.exec(raw);
  if (match === null) return undefined;
  const at = [...raw.slice(0, match.index)].length;
  const hex = (match[0].codePointAt(0) as number).toString(16).toUpperCase().padStart(2, '0');
  return (
    `contains ${describeCharacter(match[0])} at index ${at}: a URL may not hold spaces or control characters ` +
    `(URL parsing would drop or re-encode them, so the request would go elsewhere); write it percent-encoded (%${hex}) or remove it`
  );
}
