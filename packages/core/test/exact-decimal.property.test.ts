// The exact decimals a plan checks kept digits with (`bigNumbers: 'string'`), against an independent rule:
// the text as a BigInt fraction. Runs of zeros of any length are read in one pass (issue 44: /0+$/ was
// quadratic in them), and multipleOf reads a million digits without making a BigInt of them.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compareDecimal, isMultipleOfDecimal, parseDecimal, type Decimal } from '../src/tracking-plan/exact-decimal.js';

/** `text` as m × 10^e, exactly. */
function exact(text: string): { m: bigint; e: number } {
  const [, sign, whole, fraction = '', exponent = '0'] = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(text)!;
  return { m: BigInt(`${sign}${whole}${fraction}`), e: Number(exponent) - fraction.length };
}

/** a − b's sign, exactly. */
function order(a: { m: bigint; e: number }, b: { m: bigint; e: number }): number {
  const e = Math.min(a.e, b.e);
  const x = a.m * 10n ** BigInt(a.e - e);
  const y = b.m * 10n ** BigInt(b.e - e);
  return x === y ? 0 : x > y ? 1 : -1;
}

const asExact = (d: Decimal) => ({
  m: d.digits === '' ? 0n : BigInt(`${d.negative ? '-' : ''}${d.digits}`),
  e: d.exponent,
});

const zeros = (max: number) => fc.integer({ min: 0, max }).map((n) => '0'.repeat(n));
const numberText = fc
  .tuple(
    fc.constantFrom('', '-'),
    fc.constantFrom('0', '1', '25', '7'),
    zeros(2_000),
    fc.option(fc.tuple(zeros(2_000), fc.constantFrom('', '1', '5', '75'))),
    fc.option(fc.integer({ min: -3_000, max: 3_000 })),
  )
  .map(([s, head, z, fraction, exponent]) => {
    const f = fraction === null ? '' : `.${fraction[0]}${fraction[1] || '0'}`;
    return `${s}${head}${z}${f}${exponent === null ? '' : `e${exponent}`}`;
  });

describe('exact decimals', () => {
  it('parseDecimal keeps the exact value, with no leading or trailing zeros', () => {
    fc.assert(
      fc.property(numberText, (text) => {
        const d = parseDecimal(text)!;
        expect(order(asExact(d), exact(text))).toBe(0);
        expect(d.digits).not.toMatch(/^0|0$/);
      }),
      { numRuns: 1_000 },
    );
  });

  it('compareDecimal and isMultipleOfDecimal agree with the exact rule', () => {
    const divisor = fc.constantFrom('0.01', '2.5', '3', '7e-5', '1e3', '0.1', '12.75');
    fc.assert(
      fc.property(numberText, numberText, divisor, (a, b, by) => {
        const [da, db, dby] = [parseDecimal(a)!, parseDecimal(b)!, parseDecimal(by)!];
        expect(Math.sign(compareDecimal(da, db))).toBe(order(exact(a), exact(b)));
        const x = exact(a);
        const y = exact(by);
        const e = Math.min(x.e, y.e);
        const multiple = (x.m * 10n ** BigInt(x.e - e)) % (y.m * 10n ** BigInt(y.e - e)) === 0n;
        expect(isMultipleOfDecimal(da, dby)).toBe(multiple);
      }),
      { numRuns: 1_000 },
    );
  });

  // On main: 1.9 s for 32,000 zeros and 27 s for 120,000, in parseDecimal alone; the test's limit (5 s) is the margin.
  it('reads a million digits and runs of 120,000 zeros in one pass', () => {
    const z = '0'.repeat(120_000);
    expect(parseDecimal(`1.${z}1`)).toEqual({ negative: false, digits: `1${z}1`, exponent: -120_001 });
    expect(parseDecimal(`-0.${z}e+5`)).toEqual({ negative: false, digits: '', exponent: 0 });
    expect(parseDecimal(`1${z}1e-120001`)).toEqual({ negative: false, digits: `1${z}1`, exponent: -120_001 });
    const million = `${'7'.repeat(999_999)}5`;
    expect(isMultipleOfDecimal(parseDecimal(million)!, parseDecimal('5')!)).toBe(true);
    expect(isMultipleOfDecimal(parseDecimal(`${million}.5`)!, parseDecimal('0.2')!)).toBe(false);
    expect(isMultipleOfDecimal(parseDecimal(`1.${z}1`)!, parseDecimal('3')!)).toBe(false);
  });
});
