// The `format`s of tracking plans that JavaScript's backtracking engine runs in more than linear time,
// rewritten for the linear-time engine (linear-pattern.ts). Measured on 8 KB and 32 KB strings of many
// shapes, every format of ajv-formats (the Node build, `hookgate types`) and of @cfworker/json-schema
// (the runtime-neutral build) stays linear but `url`: ajv-formats' takes 2.2 s on `http://` + 32,000 `:`,
// and the interpreter's is exponential (`http://` + 26 × `a` + `!`: 1 s, each `a` more doubling it).
import { linearRegExp } from './linear-pattern.js';

/** JavaScript's `\s`: RE2's is ASCII only, so `\S` is spelled as JavaScript means it. */
const SPACE = '\\t\\n\\x0B\\f\\r \\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff';
/** An IPv4 octet after the first (S) and the last one (U), as ajv-formats spells them. */
const S = '(?:1?\\d{1,2}|2[0-4]\\d|25[0-5])';
const U = '(?:[1-9]\\d?|1\\d\\d|2[0-4]\\d|25[0-4])';
/**
 * ajv-formats' public IPv4 hosts without its look-aheads: first octets 1–223 but 10 and 127, and the
 * second octet of 169 (not 254), 192 (not 168) and 172 (not 16–31) spelled out.
 */
const PUBLIC_IPV4 =
  '(?:(?:[1-9]|1[1-9]|[2-9]\\d|1[01]\\d|12[0-689]|1[3-5]\\d|16[0-8]|17[013-9]|18\\d|19[013-9]|2[01]\\d|22[0-3])\\.' +
  `${S}|169\\.(?:1?\\d{1,2}|2[0-4]\\d|25[0-35])|192\\.(?:\\d{1,2}|1(?:[0-57-9]\\d|6[0-79])|2[0-4]\\d|25[0-5])` +
  `|172\\.(?:\\d|0\\d|1[0-5]|3[2-9]|[4-9]\\d|1\\d\\d|2[0-4]\\d|25[0-5]))\\.${S}\\.${U}`;
const LABEL = '[a-z0-9\\u{00a1}-\\u{ffff}]+';

/**
 * ajv-formats' `url` (case-insensitive, Unicode), with the same verdicts, for the linear-time engine.
 *
 * @example
 * linearRegExp(URL_PATTERN).test('https://example.com/a?b'); // true
 */
export const URL_PATTERN =
  `(?i)^(?:https?|ftp):\\/\\/(?:[^${SPACE}]+(?::[^${SPACE}]*)?@)?(?:${PUBLIC_IPV4}|(?:(?:${LABEL}-)*${LABEL})` +
  `(?:\\.(?:${LABEL}-)*${LABEL})*(?:\\.(?:[a-z\\u{00a1}-\\u{ffff}]{2,})))(?::\\d{2,5})?(?:\\/[^${SPACE}]*)?$`;

const url = linearRegExp(URL_PATTERN);

/**
 * The formats tracking plans run on the linear-time engine instead of a library's own (internal): both
 * builds register them over their validator's (plan-ajv.ts, schema-compiler.ts).
 *
 * @example
 * LINEAR_FORMATS.url(`http://${':'.repeat(32_000)}`); // false, in about a millisecond
 */
export const LINEAR_FORMATS: Readonly<Record<string, (value: string) => boolean>> = Object.freeze({
  url: (value: string) => url.test(value),
});
