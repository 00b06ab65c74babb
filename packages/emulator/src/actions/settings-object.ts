// The shape checks every Webhooks (Actions) setting shares.
import { SettingsError } from '../errors.js';

/**
 * Whether a setting is a plain object (not `null`, not an array).
 *
 * @example
 * isObject({ url: 'https://example.com' }); // true
 */
export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * Whether a mapping value is one of Segment's directives (`{ "@path": "$.userId" }`), resolved per event.
 *
 * @example
 * isDirective({ '@template': 'https://example.com/{{userId}}' }); // true
 */
export const isDirective = (v: unknown): boolean => isObject(v) && Object.keys(v).some((k) => k.startsWith('@'));

/**
 * Throws a `SettingsError` naming the first key of `value` that is not in `allowed`, with the
 * near one when it is only cased or underscored differently.
 *
 * @example
 * rejectUnknown({ batchSize: 10 }, ['batch_size'], 'mapping'); // throws: did you mean "batch_size"?
 */
export function rejectUnknown(value: Record<string, unknown>, allowed: readonly string[], path: string): void {
  for (const key of Object.keys(value)) {
    if (allowed.includes(key)) continue;
    const near = allowed.find(
      (a) => a.toLowerCase() === key.toLowerCase() || a.replace(/_/g, '').toLowerCase() === key.toLowerCase(),
    );
    throw new SettingsError(
      `${path}.${key}`,
      `unknown setting${near ? `; did you mean "${near}"?` : ''} (known: ${allowed.join(', ')})`,
    );
  }
}
