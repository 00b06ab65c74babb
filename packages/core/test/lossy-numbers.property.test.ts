// Issue #30 item 3: the numbers of a JSON text that JSON parsing changes, checked against an
// independent rule on generated bodies. The generator knows every number's place and text; the rule
// compares the text and the parsed double exactly, as BigInt fractions (no string trimming).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hasDigitRun } from '../src/json/digit-run.js';
import {
  findLossyNumbers,
  isLossyNumber,
  lossyNumbersByElement,
  numbersAsText,
  pathOf,
} from '../src/json/lossy-numbers.js';

/** A generated JSON value that keeps each number as the text written for it. */
type Tree = { num: string } | { str: string } | { lit: 'true' | 'false' | 'null' } | Tree[] | { obj: [string, Tree][] };

/** `text` as a fraction m × 10^e, exactly (BigInt). */
function exact(text: string): { m: bigint; e: number } {
  const [, sign, whole, fraction = '', exponent = '0'] = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(text)!;
  const m = BigInt(`${sign}${whole}${fraction}`);
  return { m, e: Number(exponent) - fraction.length };
}

/** The independent rule: the parsed double, written back by `String`, is not exactly the number of the text. */
function changedByParsing(text: string): boolean {
  const value = Number(text);
  if (!Number.isFinite(value)) return true;
  const a = exact(text);
  const b = exact(String(value));
  if (a.m === 0n || b.m === 0n) return a.m !== b.m;
  const e = Math.min(a.e, b.e);
  return a.m * 10n ** BigInt(a.e - e) !== b.m * 10n ** BigInt(b.e - e);
}

const digits = (min: number, max: number) =>
  fc.array(fc.integer({ min: 0, max: 9 }), { minLength: min, maxLength: max }).map((d) => d.join(''));
const wholePart = fc.oneof(
  fc.constant('0'),
  fc.tuple(fc.integer({ min: 1, max: 9 }), digits(0, 24)).map(([first, rest]) => `${first}${rest}`),
);
const sign = fc.constantFrom('', '-');
const numberText = fc.oneof(
  fc.tuple(sign, wholePart).map(([s, w]) => `${s}${w}`),
  fc.bigInt({ min: 2n ** 53n - 50n, max: 2n ** 53n + 50n }).map(String),
  fc.tuple(sign, wholePart, digits(1, 24)).map(([s, w, f]) => `${s}${w}.${f}`),
  fc
    .tuple(
      sign,
      wholePart,
      fc.option(digits(1, 6)),
      fc.constantFrom('e', 'E', 'e+', 'e-', 'E-'),
      fc.integer({ min: 0, max: 420 }),
    )
    .map(([s, w, f, e, x]) => `${s}${w}${f === null ? '' : `.${f}`}${e}${x}`),
  fc.double({ noNaN: true, noDefaultInfinity: true }).map((d) => JSON.stringify(d)),
  // Long runs of zeros (issue 44: /0+$/ was quadratic in them) between digits, in either part, with or
  // without an exponent that moves them back: `1.000…0001`, `-0.000…`, `0.000…1e+N`, `1000…0001e-N`.
  fc
    .tuple(
      sign,
      fc.constantFrom('0', '1', '7', '10'),
      fc.integer({ min: 0, max: 3_000 }),
      fc.constantFrom('', '1', '5', '000', '3.'),
      fc.integer({ min: 0, max: 3_000 }),
      fc.constantFrom('', '1', '9'),
      fc.option(fc.tuple(fc.constantFrom('e', 'E+', 'e-'), fc.integer({ min: 0, max: 3_200 }))),
    )
    .map(([s, head, zeros, middle, more, tail, exponent]) => {
      const rest = `${'0'.repeat(zeros)}${middle}${'0'.repeat(more)}${tail}`;
      // One point: in the middle where the parts put one there (not after a leading 0: JSON has no `007`),
      // else right after the head.
      const inMiddle = head !== '0' && rest.includes('.');
      const mantissa = inMiddle ? `${head}${rest}` : `${head}.${rest.replace('.', '')}`;
      const text = mantissa.endsWith('.') ? `${mantissa}0` : mantissa;
      return `${s}${text}${exponent === null ? '' : `${exponent[0]}${exponent[1]}`}`;
    }),
);
const key = fc.oneof(
  fc.string({ maxLength: 6 }),
  fc.constantFrom('a.b', 'x[0]', 'say "hi"', 'back\\slash', '__proto__', '0'),
);
const { tree } = fc.letrec<{ tree: Tree }>((tie) => ({
  tree: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    numberText.map((num) => ({ num })),
    fc.oneof(fc.string(), digits(16, 30), numberText).map((str) => ({ str })),
    fc.constantFrom('true', 'false', 'null').map((lit) => ({ lit })),
    fc.array(tie('tree'), { maxLength: 4 }),
    // Keys may repeat (JSON parsing keeps the last value), from a small set so that they often do.
    fc.array(fc.tuple(fc.oneof(key, fc.constantFrom('a', 'b')), tie('tree')), { maxLength: 4 }).map((obj) => ({ obj })),
  ),
}));
const space = fc.constantFrom('', ' ', '\n  ');

function write(t: Tree, pad: string): string {
  if (Array.isArray(t)) return `[${pad}${t.map((v) => write(v, pad)).join(`,${pad}`)}${pad}]`;
  if ('num' in t) return t.num;
  if ('str' in t) return JSON.stringify(t.str);
  if ('lit' in t) return t.lit;
  return `{${pad}${t.obj.map(([k, v]) => `${JSON.stringify(k)}${pad}:${pad}${write(v, pad)}`).join(`,${pad}`)}${pad}}`;
}

/** Every number the rule says changes, in the order written: where, and its text. */
function expectedLossy(t: Tree, at: (string | number)[] = []): { at: (string | number)[]; text: string }[] {
  if (Array.isArray(t)) return t.flatMap((v, i) => expectedLossy(v, [...at, i]));
  if ('num' in t) return changedByParsing(t.num) ? [{ at, text: t.num }] : [];
  if ('obj' in t) return lastOfEachKey(t.obj).flatMap(([k, v]) => expectedLossy(v, [...at, k]));
  return [];
}

/** The members JSON parsing keeps: the last of each key, in the order written. */
function lastOfEachKey(members: [string, Tree][]): [string, Tree][] {
  return members.filter(([k], i) => !members.slice(i + 1).some(([later]) => later === k));
}

/** The value `bigNumbers: 'string'` should give: the changed numbers as their text, the rest as JSON.parse gives them. */
function expectedAsText(t: Tree): unknown {
  if (Array.isArray(t)) return t.map(expectedAsText);
  if ('num' in t) return changedByParsing(t.num) ? t.num : Number(t.num);
  if ('str' in t) return t.str;
  if ('lit' in t) return JSON.parse(t.lit);
  const out: Record<string, unknown> = {};
  for (const [k, v] of lastOfEachKey(t.obj))
    Object.defineProperty(out, k, { value: expectedAsText(v), enumerable: true, writable: true, configurable: true });
  return out;
}

describe('findLossyNumbers', () => {
  it('finds exactly the numbers an exact comparison says parsing changed, with their places and texts', () => {
    fc.assert(
      fc.property(tree, space, (t, pad) => {
        const text = write(t, pad);
        const parsed: unknown = JSON.parse(text);
        const found = findLossyNumbers(text, parsed);
        const expected = expectedLossy(t);
        expect(found.map(({ at, text: n }) => ({ at, text: n }))).toEqual(expected);
        expect(found.map((n) => n.path)).toEqual(expected.map((n) => pathOf(n.at)));
        expect(found.map((n) => n.depth)).toEqual(expected.map((n) => n.at.length));
        expect(numbersAsText(parsed, found)).toEqual(expectedAsText(t));
      }),
      { numRuns: 1500 },
    );
  });

  it("sorts a batch's numbers by element, each seen from its element (paths and keys)", () => {
    fc.assert(
      fc.property(fc.array(tree, { maxLength: 5 }), space, (elements, pad) => {
        const text = write(elements, pad);
        const grouped = lossyNumbersByElement(findLossyNumbers(text, JSON.parse(text)));
        const seen = (i: number) =>
          (grouped[i] ?? []).map((n) => {
            expect(n.depth).toBe(n.at.length);
            return { at: n.at, path: n.path, text: n.text };
          });
        elements.forEach((element, i) => {
          const expected = expectedLossy(element).map((n) => ({ ...n, path: pathOf(n.at) }));
          expect(seen(i)).toEqual(expected);
        });
        expect(grouped.length).toBeLessThanOrEqual(elements.length);
      }),
      { numRuns: 500 },
    );
  });

  it('isLossyNumber agrees with the exact comparison on single numbers', () => {
    fc.assert(
      fc.property(numberText, (n) => {
        expect(isLossyNumber(n)).toBe(changedByParsing(n));
      }),
      { numRuns: 5000 },
    );
  });

  it('decides the documented cases', () => {
    const lossy = ['12345678901234567890', '-12345678901234567890', '9007199254740993', '1152921504606846976'];
    const also = ['1e400', '-1e400', '1e-400', '0.1000000000000000055511151231257827', '4.9e-324'];
    for (const n of [...lossy, ...also]) expect(isLossyNumber(n), n).toBe(true);
    const kept = [
      '12345678901234567000',
      '9007199254740992',
      '1.50',
      '1e2',
      '-0',
      '0.1',
      '5e-324',
      '1.7976931348623157e308',
    ];
    for (const n of kept) expect(isLossyNumber(n), n).toBe(false);
  });

  it('writes paths as JavaScript reads them', () => {
    expect(pathOf(['properties', 'items', 0, 'id'])).toBe('properties.items[0].id');
    expect(pathOf(['properties', 'order.id'])).toBe('properties["order.id"]');
    expect(pathOf(['properties', 'a[0]', 'say "hi"'])).toBe('properties["a[0]"]["say \\"hi\\""]');
    expect(pathOf([0, 'properties', 'x'])).toBe('[0].properties.x');
    expect(pathOf([])).toBe('(root)');
  });
});

describe('hasDigitRun', () => {
  it('agrees with a regular expression, with and without decimal points', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(digits(1, 20), fc.constantFrom('.', 'a', '"', ' ', '-', 'e')), { maxLength: 30 }),
        fc.integer({ min: 1, max: 18 }),
        (parts, n) => {
          const text = parts.join('');
          expect(hasDigitRun(text, n)).toBe(new RegExp(`\\d{${n}}`).test(text));
          expect(hasDigitRun(text, n, true)).toBe(new RegExp(`[\\d.]{${n}}`).test(text));
        },
      ),
      { numRuns: 3000 },
    );
  });
});

describe('long runs of digits (issue 44)', () => {
  // Each number was read with /0+$/, which tries every start in a run of zeros: 1.9 s for 32,000 zeros
  // on main, 27 s for 120,000; the test's own time limit (5 s) is the margin.
  it('decides numbers with runs of 120,000 zeros in one pass, as the exact comparison does', () => {
    const z = '0'.repeat(120_000);
    const numbers = [
      `1.${z}1`,
      `-1.${z}1`,
      `-0.${z}`,
      `0.${z}1e+120001`,
      `1${z}1e-120001`,
      `1${z}`,
      `1.${z}e+300`,
      `123.${z}`,
      `-0.${z}e-999999`,
      '1e-999999',
      `9${'9'.repeat(120_000)}e-120000`,
    ];
    for (const n of numbers) expect(isLossyNumber(n), n.slice(0, 12)).toBe(changedByParsing(n));
    const text = `[${numbers.join(',')}]`;
    const expected = numbers.flatMap((n, i) => (changedByParsing(n) ? [`[${i}]`] : []));
    expect(findLossyNumbers(text, JSON.parse(text)).map((n) => n.path)).toEqual(expected);
  });
});
