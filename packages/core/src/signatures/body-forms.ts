import stableStringify from 'fast-json-stable-stringify';

/**
 * The body forms a signature is checked against, in order:
 * `raw` — the bytes as received; `stringify` — `JSON.stringify` of the parsed body (the sender's
 * method, and what it signs); `sorted` — a key-sorted re-serialization.
 *
 * @example
 * const forms: SignatureForm[] = ['raw']; // only the exact bytes as received
 * const receiver = createReceiver({ secret, signatureForms: forms });
 */
export type SignatureForm = 'raw' | 'stringify' | 'sorted';

/**
 * Every form, in the order they are tried.
 *
 * @example
 * const forms = SIGNATURE_FORMS.filter((form) => form !== 'sorted'); // ['raw', 'stringify']
 * const result = verify({ signature, secret, rawBody, forms });
 */
export const SIGNATURE_FORMS: readonly SignatureForm[] = ['raw', 'stringify', 'sorted'];

/**
 * The key-sorted JSON text of a value: the `sorted` form that `verify` tries last. The sender
 * emulator uses it for its `serialization: 'sorted'` option, so both sides agree byte for byte.
 *
 * @example
 * sortedJson({ b: 1, a: { d: 2, c: 3 } }); // '{"a":{"c":3,"d":2},"b":1}'
 */
export function sortedJson(value: unknown): string {
  return stableStringify(value);
}

const NOT_JSON = Symbol('not-json');
const NOT_MADE = Symbol('not-made');

/**
 * Lazily computes each re-serialized form of a body, once. Never throws.
 *
 * @example
 * const forms = new BodyForms('{ "b": 1, "a": 2 }', undefined, false);
 * forms.text('stringify'); // '{"b":1,"a":2}'
 * forms.text('sorted'); // '{"a":2,"b":1}'
 */
export class BodyForms {
  private parsed: unknown = NOT_JSON;
  private parsedKnown: boolean;
  // Two fields rather than a Map: one BodyForms is made per verification, on the hot path.
  private stringified: string | undefined | typeof NOT_MADE = NOT_MADE;
  private sorted: string | undefined | typeof NOT_MADE = NOT_MADE;

  constructor(
    readonly raw: string | Uint8Array | undefined,
    parsedBody: unknown,
    hasParsed: boolean,
  ) {
    this.parsedKnown = hasParsed;
    if (hasParsed) this.parsed = parsedBody;
  }

  private parsedValue(): unknown {
    if (!this.parsedKnown) {
      this.parsedKnown = true;
      if (this.raw !== undefined) {
        try {
          this.parsed = JSON.parse(typeof this.raw === 'string' ? this.raw : new TextDecoder().decode(this.raw));
        } catch {
          this.parsed = NOT_JSON;
        }
      }
    }
    return this.parsed;
  }

  /** The text of a re-serialized form, or `undefined` where it cannot be made (no body, not JSON). */
  text(form: Exclude<SignatureForm, 'raw'>): string | undefined {
    const made = form === 'stringify' ? this.stringified : this.sorted;
    if (made !== NOT_MADE) return made;
    const value = this.parsedValue();
    let out: string | undefined;
    if (value !== NOT_JSON && value !== undefined) {
      try {
        out = form === 'stringify' ? JSON.stringify(value) : stableStringify(value);
      } catch {
        out = undefined; // BigInt, cycles: no such form.
      }
    }
    if (form === 'stringify') this.stringified = out;
    else this.sorted = out;
    return out;
  }
}
