import type { IntakeRoute } from './parse-intake-payload.js';

/**
 * The text the client sent for one call of a request body, exactly as it was in the body: the whole
 * body on a single-call route, or the `index`-th element of the top-level `batch` array. Found by a
 * scan of the JSON text (strings and nesting skipped, no parse), so what a JSON parser would change
 * (integers beyond 2^53, `1.0`, escapes) is still there to see. `undefined` when the body holds no
 * such element (it was read whole before, so this only happens for a body that is not the one parsed).
 *
 * @example
 * rawCallText('{"batch":[{"a":1},{"n":12345678901234567890}]}', { kind: 'batch' }, 1); // '{"n":12345678901234567890}'
 */
export function rawCallText(body: string, route: IntakeRoute, index: number): string | undefined {
  return rawCallTexts(body, route)[index];
}

/**
 * `rawCallText` for a whole request, by one scan made when a call's text is first asked for: a
 * batch's refused, filtered and noted calls share it.
 *
 * @example
 * const textOf = callTextsOf(text, route);
 * textOf(3); // the batch's 4th call as sent
 */
export function callTextsOf(body: string, route: IntakeRoute): (index: number) => string | undefined {
  let texts: Array<string | undefined> | undefined;
  return (index) => (texts ??= rawCallTexts(body, route))[index];
}

/** Every call's text of the body, in body order. */
function rawCallTexts(body: string, route: IntakeRoute): Array<string | undefined> {
  if (route.kind === 'call') return [body.trim()];
  let i = skipSpace(body, 0);
  if (body[i] !== '{') return [];
  i++;
  // The top-level object's members: find "batch" (the last one wins, as JSON.parse keeps the last duplicate key).
  let found: string[] = [];
  for (;;) {
    i = skipSpace(body, i);
    if (body[i] === '}' || i >= body.length) return found;
    if (body[i] === ',') {
      i++;
      continue;
    }
    const keyEnd = endOfValue(body, i);
    if (keyEnd < 0) return found;
    const key = body.slice(i, keyEnd);
    i = skipSpace(body, keyEnd);
    if (body[i] !== ':') return found;
    i = skipSpace(body, i + 1);
    const valueEnd = endOfValue(body, i);
    if (valueEnd < 0) return found;
    if (key === '"batch"' && body[i] === '[') found = elements(body, i);
    i = valueEnd;
  }
}

/** The elements' texts of the array starting at `start` (those before a malformed one). */
function elements(body: string, start: number): string[] {
  const out: string[] = [];
  let i = start + 1;
  for (;;) {
    i = skipSpace(body, i);
    if (body[i] === ']') return out;
    const end = endOfValue(body, i);
    if (end < 0) return out;
    out.push(body.slice(i, end));
    i = skipSpace(body, end);
    if (body[i] !== ',') return out;
    i++;
  }
}

function skipSpace(text: string, i: number): number {
  while (i < text.length && (text[i] === ' ' || text[i] === '\n' || text[i] === '\r' || text[i] === '\t')) i++;
  return i;
}

/** The end (exclusive) of the JSON value starting at `i`, by counting brackets outside strings; -1 if none. */
function endOfValue(text: string, i: number): number {
  const c = text[i];
  if (c === '"') return endOfString(text, i);
  if (c !== '{' && c !== '[') {
    let j = i;
    while (j < text.length && !',}] \n\r\t'.includes(text[j] as string)) j++;
    return j > i ? j : -1;
  }
  let depth = 0;
  for (let j = i; j < text.length; j++) {
    const ch = text[j];
    if (ch === '"') {
      j = endOfString(text, j) - 1;
      if (j < 0) return -1;
    } else if (ch === '{' || ch === '[') depth++;
    else if (ch === '}' || ch === ']') {
      depth--;
      if (depth === 0) return j + 1;
    }
  }
  return -1;
}

function endOfString(text: string, i: number): number {
  for (let j = i + 1; j < text.length; j++) {
    if (text[j] === '\\') j++;
    else if (text[j] === '"') return j + 1;
  }
  return -1;
}
