// Numbers whose value JSON parsing did not keep. A JSON number is read as the nearest double, so
// `12345678901234567890` becomes 12345678901234567168 (written back as `12345678901234567000`), and
// `1e400` becomes Infinity. The text tells; the parsed value no longer can. So the raw text is read
// again, only when it may hold such a number at all (`mayHoldLossyNumbers`, a cheap first look).
import { hasDigitRun } from './digit-run.js';
import { keysOf, numbersWhere, type Container, type NumberPlace } from './number-places.js';

/**
 * One number of a JSON text that JSON parsing changed: where it is, and its text as sent. Its `path`
 * and `at` are worked out when read, from links shared by every number of a container: finding 5,000
 * numbers 10,000 levels deep costs the text's length, not 5,000 copies of 10,000 keys.
 *
 * @example
 * const [lossy] = findLossyNumbers('{"properties":{"total":12345678901234567890}}', parsed);
 * [lossy.path, lossy.at, lossy.text]; // ['properties.total', ['properties', 'total'], '12345678901234567890']
 */
export class LossyNumber {
  /** The number exactly as the body wrote it, e.g. `12345678901234567890`. */
  readonly text: string;
  /** Its container in the text and its key there (the container links to its own, up to the outermost). */
  readonly place: NumberPlace;
  readonly #names: ContainerNames;
  #path: string | undefined;

  /** `names` names the containers; `place.container` undefined: the number is the value itself. */
  constructor(place: NumberPlace, names: ContainerNames) {
    this.text = place.text;
    this.place = place;
    this.#names = names;
  }

  /**
   * Where it is, written as JavaScript reads it: `properties.total`, `properties.items[0].id`, and a
   * key that is not a plain name quoted in brackets (`properties["order.id"]`, `traits["a b"]`).
   */
  get path(): string {
    const { container, key } = this.place;
    return (this.#path ??= container === undefined ? '(root)' : nameIn(this.#names.pathOf(container), key));
  }

  /**
   * The same place as keys and array indexes, made at each read (it costs that number's depth; kept, the
   * keys of 5,000 numbers 10,000 levels deep would be 50 million entries).
   */
  get at(): readonly (string | number)[] {
    return keysOf(this.place, this.#names.top);
  }

  /** How many keys lead to it (`at.length`), known without making them. */
  get depth(): number {
    const { container } = this.place;
    if (container === undefined) return 0;
    return container.depth + 1 - (this.#names.top?.depth ?? 0);
  }
}

/**
 * The paths of a text's containers, each worked out once for every number inside it: a container's is
 * its parent's and its key, so naming every number costs the containers plus the numbers. `top` is the
 * container the paths start from (a batch element); none: the outermost.
 */
class ContainerNames {
  readonly #paths = new Map<Container, string>();
  constructor(readonly top: Container | undefined) {}

  pathOf(container: Container): string {
    // Up to a container already named (or the top), then down, naming each once: no recursion.
    const unnamed: Container[] = [];
    let c: Container | undefined = container;
    let path = '';
    while (c !== undefined && c !== this.top && c.parent !== undefined) {
      const known = this.#paths.get(c);
      if (known !== undefined) {
        path = known;
        break;
      }
      unnamed.push(c);
      c = c.parent;
    }
    for (let i = unnamed.length - 1; i >= 0; i--) {
      path = nameIn(path, unnamed[i]!.key);
      this.#paths.set(unnamed[i]!, path);
    }
    return path;
  }
}

/** The values of a text's containers in a value it was parsed into, each looked up once; undefined where gone. */
class ContainerValues {
  readonly #values = new Map<Container, Record<string | number, unknown> | undefined>();
  constructor(readonly root: unknown) {}

  valueOf(container: Container): Record<string | number, unknown> | undefined {
    const unresolved: Container[] = [];
    let c: Container | undefined = container;
    let value: unknown = this.root;
    while (c !== undefined && c.parent !== undefined) {
      if (this.#values.has(c)) {
        value = this.#values.get(c);
        break;
      }
      unresolved.push(c);
      c = c.parent;
    }
    for (let i = unresolved.length - 1; i >= 0; i--) {
      value = memberOf(value, unresolved[i]!.key);
      this.#values.set(unresolved[i]!, objectOrUndefined(value));
    }
    return objectOrUndefined(value);
  }
}

function memberOf(value: unknown, key: string | number): unknown {
  if (typeof value !== 'object' || value === null || !Object.hasOwn(value, key)) return undefined;
  return (value as Record<string | number, unknown>)[key];
}

function objectOrUndefined(value: unknown): Record<string | number, unknown> | undefined {
  return typeof value === 'object' && value !== null ? (value as Record<string | number, unknown>) : undefined;
}

/** `path` and one more key, as `pathOf` writes it. */
function nameIn(path: string, key: string | number): string {
  if (typeof key === 'number') return `${path}[${key}]`;
  if (PLAIN_NAME.test(key)) return path === '' ? key : `${path}.${key}`;
  return `${path}[${JSON.stringify(key)}]`;
}

const NONE: readonly LossyNumber[] = Object.freeze([]);
const NO_NAMES = new ContainerNames(undefined);

/** An exponent of three digits or more: the only way a number of few digits leaves the doubles' range. */
const LONG_EXPONENT = /\d[eE][+-]?\d{3}/;

/**
 * Whether a JSON text may hold a number JSON parsing changes: a number of 15 significant digits or
 * fewer is read back exactly (in the doubles' range), so only a run of 16 digits (a decimal point
 * may sit among them) or an exponent of three digits can. Reads every 16th character of the text.
 *
 * @example
 * mayHoldLossyNumbers('{"x":12345678901234567890}'); // true
 * mayHoldLossyNumbers('{"x":1e400}'); // true
 * mayHoldLossyNumbers('{"x":123.25,"t":"2026-01-01T00:00:00.000Z"}'); // false
 */
export function mayHoldLossyNumbers(text: string): boolean {
  return hasDigitRun(text, 16, true) || LONG_EXPONENT.test(text);
}

/**
 * Whether a JSON number's text is changed by parsing: its value as a double, written back the way
 * `JSON.stringify` and `String` write it (the shortest text that reads back the same), is not the
 * number the text says. Changed: `12345678901234567890` (back as `12345678901234567000`),
 * `9007199254740993`, `1152921504606846976` (2^60: the double is exact, yet it is written back as
 * `1152921504606847000`), `1e400` (Infinity), `1e-400` (0), `0.1000000000000000055511151231257827`
 * (read as 0.1). Not changed: `12345678901234567000`, `9007199254740992`, `1.50`, `1e2`, `-0`.
 *
 * @example
 * isLossyNumber('12345678901234567890'); // true
 * isLossyNumber('12345678901234567000'); // false: the same double, written back as sent
 */
export function isLossyNumber(text: string): boolean {
  // 15 digits or fewer and no exponent: always read back exactly (a double holds 15 significant digits).
  if (text.length <= 15 && !text.includes('e') && !text.includes('E')) return false;
  const value = Number(text);
  if (!Number.isFinite(value)) return true;
  const back = String(value);
  if (back === text) return false;
  return !sameDecimal(decimalOf(text), decimalOf(back));
}

/** A run of 16 digits or points and its exponent, inside a string or not: each long number is one, whole. */
const LONG_NUMBER_LIKE = /-?\d[\d.]{15,}(?:[eE][+-]?\d+)?/g;

/**
 * The second look, before the walk that names paths: whether any long number-like run of the text is
 * changed by parsing (a text with a 3-digit exponent is always walked). Senders that compute amounts
 * write doubles of 17 digits (`12.990000000000002`), which pass the first look but read back exactly;
 * a body of those is not walked.
 */
function hasLossyNumberLike(text: string): boolean {
  if (LONG_EXPONENT.test(text)) return true;
  for (const [run] of text.matchAll(LONG_NUMBER_LIKE)) if (isLossyNumber(run)) return true;
  return false;
}

/**
 * The numbers of a JSON text that parsing changed, in the order they appear, each with its path and
 * its text as sent. `parsed` is the value that text was parsed into: a number counts only if it is
 * still there (a repeated key keeps its last value, a parser may drop keys). Empty, at the cost of one
 * look at every 16th character, for a text without a long digit run or a long exponent.
 *
 * @example
 * const text = '{"properties":{"x":12345678901234567890,"items":[{"id":1e400}]}}';
 * findLossyNumbers(text, JSON.parse(text)).map((n) => n.path); // ['properties.x', 'properties.items[0].id']
 */
export function findLossyNumbers(text: string, parsed: unknown): readonly LossyNumber[] {
  return lossyNumbersOf(text, () => parsed);
}

/**
 * `findLossyNumbers`, done on the first call and kept: most receivers never ask (only `ctx.lossyNumbers`
 * read and `bigNumbers: 'string'` do). `parse` reads the text again at that call, and only for a text
 * that passed both first looks, so what a handler did to the message before asking changes nothing.
 *
 * @example
 * const lossy = lossyNumbersOnAsk(text, JSON.parse);
 * lossy().map((n) => n.path); // found now, then kept
 */
export function lossyNumbersOnAsk(text: string, parse: (text: string) => unknown): () => readonly LossyNumber[] {
  let found: readonly LossyNumber[] | undefined;
  return () => (found ??= lossyNumbersOf(text, () => parse(text)));
}

function lossyNumbersOf(text: string, parsedValue: () => unknown): readonly LossyNumber[] {
  if (!mayHoldLossyNumbers(text) || !hasLossyNumberLike(text)) return NONE;
  const found = numbersWhere(text, isLossyNumber);
  if (found.length === 0) return NONE;
  const parsed = parsedValue();
  const values = new ContainerValues(parsed);
  const names = new ContainerNames(undefined);
  const kept: LossyNumber[] = [];
  for (const place of found) {
    const value = place.container === undefined ? parsed : memberOf(values.valueOf(place.container), place.key);
    if (typeof value === 'number' && Object.is(value, Number(place.text))) kept.push(new LossyNumber(place, names));
  }
  return kept.length === 0 ? NONE : kept;
}

/**
 * The lossy numbers of a batch's text sorted by element, each seen from its element (`properties.x`,
 * not `[2].properties.x`); the paths of each element's containers are worked out once.
 *
 * @example
 * const text = '[{"x":1e400},{"y":[1e400]}]';
 * lossyNumbersByElement(findLossyNumbers(text, JSON.parse(text))).map((l) => l.map((n) => n.path)); // [['x'], ['y[0]']]
 */
export function lossyNumbersByElement(lossy: readonly LossyNumber[]): LossyNumber[][] {
  const grouped: LossyNumber[][] = [];
  // Per container, its element (the container just under the batch) and that element's names: each found once.
  const elementOf = new Map<Container, { index: number | undefined; names: ContainerNames }>();
  const elementFor = (container: Container) => {
    const unresolved: Container[] = [];
    let c: Container = container;
    let found = elementOf.get(c);
    while (found === undefined && c.parent?.parent !== undefined) {
      unresolved.push(c);
      c = c.parent;
      found = elementOf.get(c);
    }
    if (found === undefined) {
      found = { index: typeof c.key === 'number' ? c.key : undefined, names: new ContainerNames(c) };
      elementOf.set(c, found);
    }
    for (const u of unresolved) elementOf.set(u, found);
    return found;
  };
  for (const n of lossy) {
    const { container, key, text } = n.place;
    if (container === undefined) continue; // the body is one number, not a batch
    if (container.parent === undefined) {
      // A number that is an element itself: the element's value is that number.
      if (typeof key === 'number')
        (grouped[key] ??= []).push(new LossyNumber({ container: undefined, key: '', text }, NO_NAMES));
      continue;
    }
    const element = elementFor(container);
    if (element.index !== undefined) (grouped[element.index] ??= []).push(new LossyNumber(n.place, element.names));
  }
  return grouped;
}

/**
 * Puts each lossy number's text, a string, where the parsed value has its changed number (`bigNumbers:
 * 'string'`). Changes `parsed` in place and returns it; returns the text itself for a body that is one
 * number.
 *
 * @example
 * const value = JSON.parse('{"x":12345678901234567890}');
 * numbersAsText(value, findLossyNumbers('{"x":12345678901234567890}', value)); // { x: '12345678901234567890' }
 */
export function numbersAsText(parsed: unknown, lossy: readonly LossyNumber[]): unknown {
  // Each number's container is looked up once for all the numbers inside it, not from the top per number.
  const values = new ContainerValues(parsed);
  let root = parsed;
  for (const { place, text } of lossy) {
    if (place.container === undefined) root = text;
    else {
      const holder = values.valueOf(place.container);
      if (holder !== undefined) holder[place.key] = text;
    }
  }
  return root;
}

/**
 * A path as `LossyNumber.path` writes it: names joined by dots, indexes in brackets, a key that is not
 * a plain name quoted in brackets; `(root)` for the value itself.
 *
 * @example
 * pathOf(['properties', 'items', 0, 'id']); // 'properties.items[0].id'
 * pathOf(['properties', 'order.id']); // 'properties["order.id"]'
 */
export function pathOf(at: readonly (string | number)[]): string {
  if (at.length === 0) return '(root)';
  const parts = at.map((part, i) => {
    if (typeof part === 'number') return `[${part}]`;
    if (PLAIN_NAME.test(part)) return i === 0 ? part : `.${part}`;
    return `[${JSON.stringify(part)}]`;
  });
  return parts.join('');
}

const PLAIN_NAME = /^[A-Za-z_$][\w$]*$/;

/** A decimal number as sign, significant digits (no leading or trailing zeros) and exponent; zero has no digits. */
interface Decimal {
  negative: boolean;
  digits: string;
  exponent: number;
}

function decimalOf(text: string): Decimal {
  const negative = text.startsWith('-');
  const start = negative || text.startsWith('+') ? 1 : 0;
  const e = text.search(/[eE]/);
  const end = e === -1 ? text.length : e;
  const point = text.indexOf('.', start);
  // The significant digits run from the first non-zero digit to the last, the point skipped: found by
  // looking at each end once (a regular expression such as /0+$/ tries every start: quadratic in a run of zeros).
  let first = start;
  while (first < end && (text.charCodeAt(first) === ZERO || text.charCodeAt(first) === POINT)) first++;
  let last = end;
  while (last > first && (text.charCodeAt(last - 1) === ZERO || text.charCodeAt(last - 1) === POINT)) last--;
  if (first === last) return { negative, digits: '', exponent: 0 };
  const digits =
    point > first && point < last ? text.slice(first, point) + text.slice(point + 1, last) : text.slice(first, last);
  // The value is digits × 10^exponent: the last digit's place, counted from the units.
  const units = point === -1 || point > end ? end : point;
  const place = last <= units ? units - last : units - last + 1;
  const exponent = (e === -1 ? 0 : Number.parseInt(text.slice(e + 1), 10)) + place;
  return { negative, digits, exponent };
}

const ZERO = 48;
const POINT = 46;

function sameDecimal(a: Decimal, b: Decimal): boolean {
  if (a.digits === '' || b.digits === '') return a.digits === b.digits; // zero, whatever its sign
  return a.negative === b.negative && a.digits === b.digits && a.exponent === b.exponent;
}
