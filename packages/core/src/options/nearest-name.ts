// Unknown option names, and the valid name the caller most likely meant.

/**
 * The edit distance between two names: insertions, deletions, substitutions and swaps of two
 * neighbouring characters each count 1 (`trak` → `track` is 1, `trakc` → `track` is 1).
 *
 * @example
 * editDistance('onMesage', 'onMessage'); // 1
 */
export function editDistance(a: string, b: string): number {
  if (a === b) return 0;
  if (a.length === 0) return b.length;
  if (b.length === 0) return a.length;
  // Three rows of the optimal-string-alignment table: two back (for swaps), one back, current.
  let twoBack = new Array<number>(b.length + 1).fill(0);
  let oneBack = Array.from({ length: b.length + 1 }, (_, j) => j);
  let row = new Array<number>(b.length + 1).fill(0);
  for (let i = 1; i <= a.length; i++) {
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(oneBack[j]! + 1, row[j - 1]! + 1, oneBack[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, twoBack[j - 2]! + 1);
      row[j] = best;
    }
    [twoBack, oneBack, row] = [oneBack, row, twoBack];
  }
  return oneBack[b.length]!;
}

/**
 * The valid name closest to `name`, or `undefined` when none is close enough to be a likely typo
 * (case is ignored; at most a third of the name's characters may differ, and at least one may from
 * three characters on; a name that starts a candidate, like `ttl` for `ttlMs`, counts as one slip).
 *
 * @example
 * nearestName('trak', ['page', 'track', 'identify']); // 'track'
 * nearestName('banana', ['page', 'track']); // undefined
 */
export function nearestName(name: string, candidates: readonly string[]): string | undefined {
  const lower = name.toLowerCase();
  const limit = name.length < 3 ? 0 : Math.max(1, Math.floor(name.length / 3));
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of candidates) {
    const other = candidate.toLowerCase();
    // A shortened name (`ttl` for `ttlMs`) is as likely a slip as a typo.
    const distance = name.length >= 3 && other.startsWith(lower) ? 1 : editDistance(lower, other);
    if (distance <= limit && distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

/**
 * Thrown when an options object holds a name that is not an option: names it, where it was
 * found, and the nearest valid name.
 *
 * @example
 * try { createReceiver({ secret, on: { trak: () => {} } } as never); }
 * catch (e) { if (e instanceof UnknownOptionError) console.error(e.option, '→', e.suggestion); } // 'on.trak' → 'on.track'
 */
export class UnknownOptionError extends TypeError {
  override readonly name = 'UnknownOptionError';
  constructor(
    /** The unknown name with its path, e.g. `on.trak`. */
    readonly option: string,
    /** The nearest valid name with its path, e.g. `on.track`, if one is close. */
    readonly suggestion: string | undefined,
    message: string,
  ) {
    super(message);
  }
}

/**
 * The names an options object offers: its own enumerable keys, plus the methods and accessors of its
 * class (a handlers object written as a class instance), never `Object.prototype`'s nor `constructor`.
 *
 * @example
 * class Handlers { track() {} }
 * optionNames(Object.assign(new Handlers(), { alias() {} })); // ['alias', 'track']
 */
export function optionNames(value: object): string[] {
  const names = new Set(Object.keys(value));
  for (
    let proto = Object.getPrototypeOf(value) as object | null;
    proto && proto !== Object.prototype;
    proto = Object.getPrototypeOf(proto) as object | null
  ) {
    for (const name of Object.getOwnPropertyNames(proto)) if (name !== 'constructor') names.add(name);
  }
  return [...names];
}

/**
 * Throws an `UnknownOptionError` for the first name of `value` (see `optionNames`) not in `known`, naming it,
 * the nearest valid name, and every valid name. `where` is the caller and path, e.g. `createReceiver() option`.
 *
 * @example
 * rejectUnknownNames({ secret: 's', deadlinMs: 3000 }, ['secret', 'deadlineMs'], { caller: 'createReceiver()' });
 * // throws: createReceiver(): unknown option "deadlinMs"; did you mean "deadlineMs"? Valid options: secret, deadlineMs.
 */
export function rejectUnknownNames(
  value: object,
  known: readonly string[],
  { caller, path = '', kind = 'option' }: { caller: string; path?: string; kind?: string },
): void {
  for (const key of optionNames(value)) {
    if (known.includes(key)) continue;
    const near = nearestName(key, known);
    const full = path ? `${path}.${key}` : key;
    const suggestion = near === undefined ? undefined : path ? `${path}.${near}` : near;
    throw new UnknownOptionError(
      full,
      suggestion,
      `${caller}: unknown ${kind} ${JSON.stringify(full)}` +
        (suggestion === undefined ? '.' : `; did you mean ${JSON.stringify(suggestion)}?`) +
        ` Valid ${kind}s${path ? ` in ${path}` : ''}: ${known.join(', ')}.`,
    );
  }
}
