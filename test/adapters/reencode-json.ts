// Writes a JSON value in other bytes that parse back to the same value, with the same key order:
// whitespace, number forms (1e2, 100.0, other digits of a big integer), \u escapes in either case,
// \/, and duplicate keys placed before the one that counts. Driven by a seeded generator, for
// property tests of the raw bytes rule.
import { seededRandom } from '../helpers/seeded-random.js';

const SPACES = ['', '', '', ' ', '\n', '\t', '\r\n  '];

/** Re-encodes `value` (a JSON value as JSON.parse returns it) in other bytes, chosen from `seed`. */
export function reencodeJson(value: unknown, seed: number): string {
  const rnd = seededRandom(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(rnd() * list.length)] as T;
  const ws = () => pick(SPACES);

  const number = (n: number): string => {
    const plain = JSON.stringify(n);
    const forms = [plain, n.toExponential(), n.toExponential().replace('e+', 'E')];
    if (Number.isInteger(n) && !plain.includes('e')) forms.push(`${plain}.0`, `${plain}e0`);
    if (plain.includes('.') && !plain.includes('e')) forms.push(`${plain}0`);
    if (Number.isInteger(n) && Math.abs(n) > 2 ** 53 && !plain.includes('e')) {
      // Other digits that parse to the same double.
      for (let d = 1; d <= 9; d++) {
        const other = plain.slice(0, -1) + String((Number(plain.slice(-1)) + d) % 10);
        if (Number(other) === n) forms.push(other);
      }
    }
    const form = pick(forms);
    if (Number(form) !== n) throw new Error(`not the same number: ${form} for ${plain}`);
    return form;
  };

  const string = (s: string): string => {
    let out = '"';
    for (const ch of s) {
      for (let i = 0; i < ch.length; i++) {
        const unit = ch.charCodeAt(i);
        const plain = JSON.stringify(ch.length === 1 ? ch : String.fromCharCode(unit)).slice(1, -1);
        const r = rnd();
        const surrogate = unit >= 0xd800 && unit <= 0xdfff;
        if (surrogate || r < 0.15) {
          const hex = unit.toString(16).padStart(4, '0');
          out += `\\u${rnd() < 0.5 ? hex : hex.toUpperCase()}`;
        } else if (ch === '/' && r < 0.6) {
          out += '\\/';
        } else {
          out += plain;
        }
      }
    }
    return `${out}"`;
  };

  const write = (v: unknown): string => {
    if (v === null || typeof v === 'boolean') return JSON.stringify(v);
    if (typeof v === 'number') return number(v);
    if (typeof v === 'string') return string(v);
    if (Array.isArray(v)) return `[${ws()}${v.map((x) => `${ws()}${write(x)}${ws()}`).join(',')}${ws()}]`;
    const entries = Object.entries(v as Record<string, unknown>);
    const parts: string[] = [];
    for (const [key, val] of entries) {
      // A duplicate before the real entry: the first occurrence fixes the position, the last the value.
      if (rnd() < 0.2)
        parts.push(`${ws()}${string(key)}${ws()}:${ws()}${pick(['"forged"', '0', 'null', '{"x":1}'])}${ws()}`);
      parts.push(`${ws()}${string(key)}${ws()}:${ws()}${write(val)}${ws()}`);
    }
    return `{${parts.join(',')}${ws()}}`;
  };

  return `${ws()}${write(value)}${ws()}`;
}
