// The regular-expression engine of tracking plans: every `pattern` and `patternProperties` of a rule runs
// on re2js, a port of RE2, whose matching time grows linearly with the value (no backtracking), so a
// value like 10,000 × `a` + `!` against `^(a+)+$` costs milliseconds, not ages. Patterns are written in
// JSON Schema's ECMAScript syntax and translated by re2js; what RE2 cannot run (back-references,
// look-around, `\Z`, possessive quantifiers, atomic groups) is named when the plan is read, never met at the
// first message.
import { RE2JS } from 're2js';

/**
 * A compiled pattern: `test` runs in time linear in the value's length.
 *
 * @example
 * const sku: LinearRegExp = linearRegExp('^[A-Z]{3}-\\d+$');
 * sku.test('ABC-12'); // true
 */
export interface LinearRegExp {
  /** Whether the pattern matches somewhere in `value` (as `RegExp.prototype.test`), in linear time. */
  test(value: string): boolean;
}

/** ECMAScript constructs RE2 does not have, as a pattern spells them, and their names. */
const UNSUPPORTED: readonly [RegExp, string][] = [
  [/^\(\?=/, 'look-ahead (?=…)'],
  [/^\(\?!/, 'negative look-ahead (?!…)'],
  [/^\(\?<=/, 'look-behind (?<=…)'],
  [/^\(\?<!/, 'negative look-behind (?<!…)'],
  [/^\\[1-9]/, 'back-reference \\1'],
  [/^\\k</, 'named back-reference \\k<name>'],
  [/^\\Z/, 'end-of-text \\Z'],
  [/^\(\?>/, 'atomic group (?>…)'],
];

/** The quantifiers a `+` after makes possessive (`a++`, `a*+`, `a?+`, `a{2}+`), as they are named. */
const POSSESSIVE: Record<string, string> = { '+': '++', '*': '*+', '?': '?+', '}': '{n}+' };

/** An escape with braces, whose braces are no repetition count: `\p{L}`, `\P{Lu}`, `\u{1F600}`. */
const BRACED_ESCAPE = /^\\[pPu]\{[^}]*\}/;

/**
 * The length of the escape at `pattern[at]` (a `\`): 2, or the whole of `\p{L}` (internal).
 *
 * @example
 * escapeLength('\\p{L}+', 0); // 5
 */
export function escapeLength(pattern: string, at: number): number {
  return BRACED_ESCAPE.exec(pattern.slice(at, at + 64))?.[0].length ?? 2;
}

/** The first construct of `pattern` RE2 does not have, named with where it is; `undefined` when none. */
function unsupportedConstruct(pattern: string): string | undefined {
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const char = pattern.charAt(i);
    if (char === '\\' && inClass) {
      i++;
      continue;
    }
    if (char === '[') inClass = true;
    else if (char === ']') inClass = false;
    else if (!inClass && char in POSSESSIVE && pattern[i + 1] === '+') {
      return `possessive quantifier ${POSSESSIVE[char]} at character ${i + 1}, which RE2 cannot run`;
    } else if (!inClass && (char === '(' || char === '\\')) {
      const found = UNSUPPORTED.find(([spelling]) => spelling.test(pattern.slice(i, i + 4)));
      if (found) return `${found[1]} at character ${i + 1}, which RE2 cannot run`;
      if (char === '\\') i += escapeLength(pattern, i) - 1;
    }
  }
  return undefined;
}

/**
 * Compiles a JSON Schema `pattern` (ECMAScript syntax, Unicode) for the linear-time engine. Throws a
 * `SyntaxError` naming the construct RE2 cannot run (look-around, back-references) or why the pattern
 * is not one. Ajv runs it for tracking plans (`code.regExp`), and the module `hookgate types` writes
 * imports it.
 *
 * @example
 * import { linearRegExp } from '@hookgate/plans';
 * linearRegExp('^(a+)+$').test('a'.repeat(10_000) + '!'); // false, in a few milliseconds
 */
export function linearRegExp(pattern: string): LinearRegExp {
  let compiled = programs.get(pattern);
  if (compiled === undefined) {
    const construct = unsupportedConstruct(pattern);
    if (construct !== undefined) throw new SyntaxError(construct);
    try {
      compiled = RE2JS.compile(RE2JS.translateRegExp(pattern));
    } catch (error) {
      throw new SyntaxError(`not a pattern RE2 runs: ${error instanceof Error ? error.message : String(error)}`);
    }
    if (programs.size >= MAX_VERDICTS) programs.clear();
    programs.set(pattern, compiled);
  }
  const program = compiled;
  return { test: (value) => program.test(value) };
}

/**
 * Patterns compiled (RE2 programs are immutable): the plan loader compiles each pattern to check it,
 * and a rule's first message finds it compiled (200 patterns cost a first message 0.4 s to compile again).
 */
const programs = new Map<string, RE2JS>();

/** Patterns already checked, and what keeps each from running (`undefined`: nothing). */
const verdicts = new Map<string, string | undefined>();
const MAX_VERDICTS = 10_000;

/**
 * What keeps a pattern from running on the linear-time engine (see `linearRegExp`), or `undefined`.
 *
 * @example
 * patternProblem('^(a+)+$'); // undefined: linear on RE2
 * patternProblem('^(?!admin)'); // 'negative look-ahead (?!…) at character 2, which RE2 cannot run'
 */
export function patternProblem(pattern: string): string | undefined {
  if (verdicts.has(pattern)) return verdicts.get(pattern);
  let problem: string | undefined;
  try {
    linearRegExp(pattern);
  } catch (error) {
    problem = (error as Error).message;
  }
  // Plans repeat their patterns (an id's, an email's) across rules: each is compiled once to be checked.
  if (verdicts.size >= MAX_VERDICTS) verdicts.clear();
  verdicts.set(pattern, problem);
  return problem;
}
