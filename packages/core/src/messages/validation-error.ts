/**
 * One problem found in a value, located by a JSON path such as `$.properties.url` or `$["Previous ID"]`.
 *
 * @example
 * const issue: ValidationIssue = { path: '$.event', message: 'is required' };
 * console.log(`${issue.path}: ${issue.message}`);
 */
export interface ValidationIssue {
  /** JSON path of the offending field (`$` is the whole value). */
  path: string;
  /** What is wrong and, where it helps, how to fix it. */
  message: string;
}

/**
 * Thrown by `parseMessage` and `parseCall`: lists every problem, each with its JSON path.
 *
 * @example
 * try { parseMessage('{"type":"track"}'); }
 * catch (e) { if (e instanceof ValidationError) console.log(e.issues); }
 */
export class ValidationError extends Error {
  override readonly name: string = 'ValidationError';
  constructor(
    readonly issues: ValidationIssue[],
    what = 'message',
  ) {
    super(`Invalid ${what}: ${issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`);
  }
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/**
 * Turns a JSON pointer (`/a/0/Previous ID`) into a JSON path (`$.a[0]["Previous ID"]`).
 *
 * @example
 * pointerToPath('/properties/items/0/Previous ID'); // '$.properties.items[0]["Previous ID"]'
 */
export function pointerToPath(pointer: string): string {
  if (pointer === '' || pointer === '/') return '$';
  let out = '$';
  for (const raw of pointer.slice(1).split('/')) {
    const seg = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (/^\d+$/.test(seg)) out += `[${seg}]`;
    else if (IDENTIFIER.test(seg)) out += `.${seg}`;
    else out += `[${JSON.stringify(seg)}]`;
  }
  return out;
}

/**
 * Appends a key to a JSON path.
 *
 * @example
 * childPath('$', 'Previous ID'); // '$["Previous ID"]'
 * childPath('$.batch', 3); // '$.batch[3]'
 */
export function childPath(path: string, key: string | number): string {
  if (typeof key === 'number') return `${path}[${key}]`;
  return IDENTIFIER.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`;
}
