import { toBytes } from './bytes.js';
import { nodeCrypto } from './node-crypto.js';
import type { Secret } from './sign.js';
import { verifyDetailed } from './verify.js';
import type { SignatureForm } from './body-forms.js';

/**
 * Which re-serialized form of a raw body a signature matches, and the first byte where the raw
 * bytes differ from that signed form; `undefined` when none matches (or without `node:crypto`).
 * For explaining a refusal in debug mode only: it parses the body and runs extra HMACs.
 *
 * @example
 * const other = reserializedMatch(signature, [secret], '{ "a": 1 }');
 * // { form: 'stringify', at: 1 }: the sender signed '{"a":1}'; these bytes were re-encoded after signing
 */
export function reserializedMatch(
  signature: string,
  secrets: readonly Secret[],
  raw: string | Uint8Array,
): { form: Exclude<SignatureForm, 'raw'>; at: number } | undefined {
  if (nodeCrypto() === null) return undefined;
  const { result, signed } = verifyDetailed({
    signature,
    secret: secrets,
    rawBody: raw,
    forms: ['stringify', 'sorted'],
    allowReserialized: true,
  });
  if (!result.ok || signed === undefined || result.form === 'raw') return undefined;
  return { form: result.form, at: firstDifference(toBytes(raw), toBytes(signed)) };
}

/** The index of the first byte where `a` and `b` differ (the shorter length when one is a prefix of the other). */
function firstDifference(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return i;
  return n;
}
