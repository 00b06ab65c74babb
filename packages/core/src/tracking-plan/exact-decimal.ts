// Decimal numbers compared exactly, from their text: what a value kept as exact digits
// (`bigNumbers: 'string'`) is checked with against a rule's `minimum`, `maximum` and `multipleOf`, where a
// double would round `12345678901234567891` to `12345678901234567000`. No BigInt is ever made from an
// exponent (a body may say `1e999999999`): magnitudes are compared first, then digits as text.

/** A decimal as sign, significant digits (no leading or trailing zeros; `''` for zero) and exponent. */
export interface Decimal {
  negative: boolean;
  digits: string;
  /** The value is `digits × 10^exponent`. */
  exponent: number;
}

const NUMBER = /^(-?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/;

/**
 * Reads a JSON number's text (or `String(n)` of a JavaScript number) as a `Decimal`; `undefined` when
 * it is not one.
 *
 * @example
 * parseDecimal('-12.50e3'); // { negative: true, digits: '125', exponent: 2 }
 */
export function parseDecimal(text: string): Decimal | undefined {
  const m = NUMBER.exec(text);
  if (!m || `${m[2]}${m[3] ?? ''}` === '') return undefined;
  const all = `${m[2]}${m[3] ?? ''}`;
  // The significant digits, found by looking at each end once (a regular expression such as /0+$/ tries
  // every start: quadratic in a run of zeros).
  let first = 0;
  while (first < all.length && all.charCodeAt(first) === ZERO) first++;
  let end = all.length;
  while (end > first && all.charCodeAt(end - 1) === ZERO) end--;
  if (first === end) return { negative: false, digits: '', exponent: 0 };
  const exponent = Number(m[4] ?? 0) - (m[3]?.length ?? 0) + (all.length - end);
  return { negative: m[1] === '-', digits: all.slice(first, end), exponent };
}

const ZERO = 48;

/** Where the leading digit sits: 10^magnitude > |value| ≥ 10^(magnitude - 1). */
const magnitude = (d: Decimal) => d.digits.length + d.exponent;

/**
 * Compares two decimals exactly: negative, zero or positive as `a` is less than, equal to or greater than `b`.
 *
 * @example
 * compareDecimal(parseDecimal('12345678901234567891')!, parseDecimal('12345678901234567890')!); // 1
 */
export function compareDecimal(a: Decimal, b: Decimal): number {
  const sign = (d: Decimal) => (d.digits === '' ? 0 : d.negative ? -1 : 1);
  if (sign(a) !== sign(b)) return sign(a) - sign(b);
  if (sign(a) === 0) return 0;
  const flip = a.negative ? -1 : 1;
  if (magnitude(a) !== magnitude(b)) return (magnitude(a) > magnitude(b) ? 1 : -1) * flip;
  const width = Math.max(a.digits.length, b.digits.length);
  const x = a.digits.padEnd(width, '0');
  const y = b.digits.padEnd(width, '0');
  return x === y ? 0 : (x > y ? 1 : -1) * flip;
}

/**
 * Whether a decimal is a whole number.
 *
 * @example
 * isWholeDecimal(parseDecimal('1.5e400')!); // true
 */
export function isWholeDecimal(d: Decimal): boolean {
  return d.exponent >= 0;
}

function modPow10(power: number, modulus: bigint): bigint {
  let result = 1n % modulus;
  let base = 10n % modulus;
  for (let p = power; p > 0; p = Math.floor(p / 2)) {
    if (p % 2 === 1) result = (result * base) % modulus;
    base = (base * base) % modulus;
  }
  return result;
}

/**
 * Whether `a` is a whole multiple of `b` (`b` positive), exactly.
 *
 * @example
 * isMultipleOfDecimal(parseDecimal('12345678901234567890')!, parseDecimal('10')!); // true
 */
export function isMultipleOfDecimal(a: Decimal, b: Decimal): boolean {
  if (a.digits === '') return true;
  // b's digits end in a non-zero digit and so do a's: a finer last place than b's is never a multiple.
  if (a.exponent < b.exponent) return false;
  const db = BigInt(b.digits);
  return (remainderOf(a.digits, db) * modPow10(a.exponent - b.exponent, db)) % db === 0n;
}

/**
 * `BigInt(digits) % modulus`, read 15 digits at a time: the steps stay as small as the modulus (a
 * rule's `multipleOf`, a double), where making a BigInt of a million digits costs a second.
 */
function remainderOf(digits: string, modulus: bigint): bigint {
  let remainder = 0n;
  const head = digits.length % 15;
  if (head > 0) remainder = BigInt(digits.slice(0, head)) % modulus;
  for (let i = head; i < digits.length; i += 15) {
    remainder = (remainder * CHUNK + BigInt(digits.slice(i, i + 15))) % modulus;
  }
  return remainder;
}

const CHUNK = 10n ** 15n;

/**
 * Whether `value` is a whole multiple of `divisor` (positive) as the decimals a JSON body writes them, as
 * JSON Schema's `multipleOf` asks: `0.07` is a multiple of `0.01`, where the doubles' quotient is
 * 7.000000000000001. Each number is read as its shortest text (`String(n)`), which is the JSON number
 * for any the body wrote within a double's 17 digits. The module `hookgate types` writes imports it.
 *
 * @example
 * import { isMultipleOf } from '@hookgate/core';
 * isMultipleOf(0.07, 0.01); // true
 * isMultipleOf(1e308, 3); // false
 */
export function isMultipleOf(value: number, divisor: number): boolean {
  const a = parseDecimal(String(value));
  const b = parseDecimal(String(divisor));
  if (a === undefined || b === undefined || b.digits === '' || b.negative) return false;
  return isMultipleOfDecimal(a, b);
}
