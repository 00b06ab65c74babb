// The places of some numbers of a JSON text, found in one reading from left to right: the cost is the
// text's length plus the places returned, however deep the text nests or however many other numbers
// it holds. A place is its container and its key: every container is one node linked to the one that
// holds it, shared by all the places inside, so a place costs the same 10,000 levels deep as at the top.

/** An object or array of the text: the container holding it (none for the outermost) and its key there. */
export interface Container {
  readonly parent: Container | undefined;
  /** Its key or index in `parent` (`''` for the outermost container, which has no parent). */
  readonly key: string | number;
  /** How many keys lead to it from the outermost value (0 for the outermost container). */
  readonly depth: number;
}

/** A number of a JSON text and where it is: its container (none for a text that is one number) and key there. */
export interface NumberPlace {
  readonly container: Container | undefined;
  readonly key: string | number;
  readonly text: string;
}

/**
 * A place as keys and array indexes from the outermost value (or from `below`, one of its containers,
 * for the keys under it). Costs the place's depth: read it for a place, not for every place of a text.
 *
 * @example
 * const [place] = numbersWhere('{"a":[1,22]}', (n) => n.length > 1);
 * keysOf(place!); // ['a', 1]
 */
export function keysOf(place: NumberPlace, below?: Container): (string | number)[] {
  if (place.container === undefined) return [];
  const keys = [place.key];
  for (let c: Container | undefined = place.container; c !== below && c?.parent !== undefined; c = c.parent)
    keys.push(c.key);
  return keys.reverse();
}

/** One level of the text being read: an array (its index) or an object (its key, and whether a key comes next). */
interface Level {
  array: boolean;
  key: string | number;
  keyNext: boolean;
  /** This container's node, which the places inside it link to. */
  node: Container;
  /** Where the current member's value starts in the list of places found (objects only). */
  valueFrom: number;
  /** The keys whose value held places found, and where those sit in the list: a repeated key drops them. */
  held: Map<string, { from: number; to: number }> | undefined;
}

/**
 * The numbers of a JSON text that `test` picks, in the order they appear, each with its place. A key
 * repeated in an object keeps its last value (as JSON parsing does): numbers found in its earlier values
 * are left out. The text is one JSON parsing accepted, so the reading trusts its shape; it never recurses.
 *
 * @example
 * numbersWhere('{"a":[1,22],"a":333,"b":4444}', (n) => n.length > 2).map((p) => keysOf(p)); // [['a'], ['b']]
 */
export function numbersWhere(text: string, test: (number: string) => boolean): NumberPlace[] {
  const found: (NumberPlace | undefined)[] = [];
  let dropped = false;
  const levels: Level[] = [];
  /** The end of an object's member: remember where its value's places sit, if it had any. */
  const endMember = (level: Level) => {
    if (level.array || found.length === level.valueFrom) return;
    level.held ??= new Map<string, { from: number; to: number }>();
    level.held.set(String(level.key), { from: level.valueFrom, to: found.length });
  };
  let i = 0;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    const top = levels[levels.length - 1];
    if (c === QUOTE) {
      const end = stringEnd(text, i);
      if (top !== undefined && top.keyNext) {
        const quoted = text.slice(i, end);
        const key = quoted.includes('\\') ? (JSON.parse(quoted) as string) : quoted.slice(1, -1);
        const earlier = top.held?.get(key);
        if (earlier !== undefined) {
          // A repeated key: parsing keeps this value, not the earlier one.
          for (let n = earlier.from; n < earlier.to; n++) found[n] = undefined;
          top.held!.delete(key);
          dropped = true;
        }
        top.key = key;
        top.keyNext = false;
        top.valueFrom = found.length;
      }
      i = end;
    } else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      const array = c === OPEN_BRACKET;
      const node: Container = {
        parent: top?.node,
        key: top?.key ?? '',
        depth: top === undefined ? 0 : top.node.depth + 1,
      };
      levels.push({ array, key: array ? 0 : '', node, keyNext: !array, valueFrom: found.length, held: undefined });
      i++;
    } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
      if (top !== undefined) endMember(top);
      levels.pop();
      i++;
    } else if (c === COMMA) {
      if (top?.array) (top.key as number)++;
      else if (top) {
        endMember(top);
        top.keyNext = true;
      }
      i++;
    } else if (c === MINUS || (c >= ZERO && c <= NINE)) {
      let end = i + 1;
      while (end < text.length && isNumberPart(text.charCodeAt(end))) end++;
      const number = text.slice(i, end);
      if (test(number)) found.push({ container: top?.node, key: top?.key ?? '', text: number });
      i = end;
    } else {
      i++; // white space, `:`, and the letters of true, false and null
    }
  }
  return dropped ? found.filter((place) => place !== undefined) : (found as NumberPlace[]);
}

const QUOTE = 34;
const COMMA = 44;
const MINUS = 45;
const ZERO = 48;
const NINE = 57;
const OPEN_BRACE = 123;
const CLOSE_BRACE = 125;
const OPEN_BRACKET = 91;
const CLOSE_BRACKET = 93;

/** The characters a JSON number is made of: digits, `.`, `e`, `E`, `+` and `-`. */
function isNumberPart(c: number): boolean {
  return (c >= ZERO && c <= NINE) || c === 46 || c === 101 || c === 69 || c === 43 || c === MINUS;
}

/** The index just after the string that starts at `start` (its closing quote is the first one not escaped). */
function stringEnd(text: string, start: number): number {
  let quote = text.indexOf('"', start + 1);
  while (quote !== -1) {
    let backslashes = 0;
    while (text.charCodeAt(quote - 1 - backslashes) === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return quote + 1;
    quote = text.indexOf('"', quote + 1);
  }
  return text.length;
}

const BACKSLASH = 92;
