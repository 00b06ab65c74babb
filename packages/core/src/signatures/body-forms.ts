import stableStringify from 'fast-json-stable-stringify';

/**
 * The body forms a signature is checked against, in order:
 * `raw` — the bytes as received; `stringify` — `JSON.stringify` of the parsed body (the seed's
 * method, and what the sender signs); `sorted` — a key-sorted re-serialization.
 */
export type SignatureForm = 'raw' | 'stringify' | 'sorted';

/** Every form, in the order they are tried. */
export const SIGNATURE_FORMS: readonly SignatureForm[] = ['raw', 'stringify', 'sorted'];

const NOT_JSON = Symbol('not-json');

/** Lazily computes each re-serialized form of a body, once. Never throws. */
export class BodyForms {
  private parsed: unknown = NOT_JSON;
  private parsedKnown: boolean;
  private readonly texts = new Map<SignatureForm, string | undefined>();

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
    if (this.texts.has(form)) return this.texts.get(form);
    const value = this.parsedValue();
    let out: string | undefined;
    if (value !== NOT_JSON && value !== undefined) {
      try {
        out = form === 'stringify' ? JSON.stringify(value) : stableStringify(value);
      } catch {
        out = undefined; // BigInt, cycles: no such form.
      }
    }
    this.texts.set(form, out);
    return out;
  }
}
