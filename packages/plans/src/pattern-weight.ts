// What a plan's patterns cost to compile, known before any of them is compiled. RE2 expands a counted
// repetition into copies: `\p{L}{1,1000}` compiles to a thousand classes (about 5 ms), and nested counts
// multiply, so 3,000 short patterns take seconds at start and as long again when Ajv compiles them at a
// rule's first message. A pattern weighs its length times the largest product of repetition counts it
// nests; `limits.maxPatternWeight` bounds the weight of a plan's distinct patterns together.
import { escapeLength } from './linear-pattern.js';

/** A repetition count right after an atom: `{n}`, `{n,}` or `{n,m}`. */
const COUNT = /^\{(\d+)(?:,(\d*))?\}/;

/**
 * A pattern's weight: its length times the largest product of the repetition counts it nests (`{1,1000}`
 * counts 1000, `+` and `*` count 1: RE2 loops them, it does not copy) (internal).
 *
 * @example
 * patternWeight('^\\p{L}{1,1000}$'); // 15 × 1000 = 15000
 * patternWeight('^(a{1,10}){1,20}$'); // 17 × 200 = 3400
 */
export function patternWeight(pattern: string): number {
  const outer: number[] = []; // the largest product inside each group still open
  let inside = 1; // the largest product inside the current group so far
  let largest = 1;
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const char = pattern[i];
    let atom = 1; // the product of the atom that ends at i, which a count after it multiplies
    if (inClass) {
      if (char === '\\') i++;
      if (char !== ']') continue;
      inClass = false;
    } else if (char === '\\') {
      i += escapeLength(pattern, i) - 1;
    } else if (char === '[') {
      inClass = true;
      continue;
    } else if (char === '(') {
      outer.push(inside);
      inside = 1;
      continue;
    } else if (char === ')') {
      atom = inside;
      inside = outer.pop() ?? 1;
    }
    const count = COUNT.exec(pattern.slice(i + 1, i + 32));
    if (count) {
      atom *= Math.max(Number(count[2] || count[1]), 1);
      i += count[0].length;
    }
    inside = Math.max(inside, atom);
    largest = Math.max(largest, atom);
  }
  return pattern.length * largest;
}

/**
 * The weight of a plan's distinct patterns so far (internal): a pattern repeated across rules (an id's,
 * an email's) is compiled once, so it weighs once.
 *
 * @example
 * const weights = new PatternWeights();
 * weights.add('^[A-Z]{3}$'); // 30
 */
export class PatternWeights {
  #seen = new Set<string>();
  #total = 0;

  /** Adds `pattern` (once) and returns the total weight. */
  add(pattern: string): number {
    if (!this.#seen.has(pattern)) {
      this.#seen.add(pattern);
      this.#total += patternWeight(pattern);
    }
    return this.#total;
  }
}
