import type { KeyObject } from 'node:crypto';
import { BodyForms, SIGNATURE_FORMS, type SignatureForm } from './body-forms.js';
import { constantTimeEqual, decodeHexHeader, toBytes, trimmedLength, type BodyInput } from './bytes.js';
import { requireNodeCrypto } from './node-crypto.js';
import { hmacSha1Web, importHmacKey, type Secret } from './sign.js';

/**
 * What `verify` and `verifyAsync` take.
 *
 * @example
 * const input: VerifyInput = { signature: req.headers['x-signature'], secret: [current, previous], rawBody };
 * const result = verify(input);
 */
export interface VerifyInput {
  /** The `X-Signature` header value as received (undefined, an array of repeats, anything). */
  signature: unknown;
  /** One secret, or several during a rotation: the first is the current one. */
  secret: Secret | readonly Secret[];
  /** The body bytes as received, when the framework still has them. */
  rawBody?: BodyInput;
  /** The body after a JSON parser; when absent it is parsed from `rawBody` if a re-serialized form is needed. */
  parsedBody?: unknown;
  /**
   * Forms to try, in order. Default `['raw', 'stringify', 'sorted']`. When `rawBody` is given, only
   * `raw` of these is tried unless `allowReserialized` is set (the raw bytes rule).
   */
  forms?: readonly SignatureForm[];
  /**
   * Also try the re-serialized forms when `rawBody` is present. Off by default: bytes changed after
   * signing (re-indented, `1e2` for `100`, a duplicate key) are then accepted as authentic, and a
   * forged request costs a JSON parse and one HMAC per form and secret instead of one HMAC per secret.
   */
  allowReserialized?: boolean;
}

/**
 * Why a signature did not verify.
 *
 * @example
 * const failures: Record<VerifyFailureReason, number> = { missing: 0, malformed: 0, mismatch: 0 };
 * const result = verify({ signature, secret, rawBody });
 * if (!result.ok) failures[result.reason]++;
 */
export type VerifyFailureReason = 'missing' | 'malformed' | 'mismatch';

/**
 * The outcome of a verification: which form and which secret matched, or why none did.
 *
 * @example
 * const result: VerifyResult = verify({ signature, secret, rawBody });
 * if (result.ok) console.log(`${result.form} body, secret #${result.secretIndex}`);
 * else console.warn(result.reason, result.message);
 */
export type VerifyResult =
  { ok: true; form: SignatureForm; secretIndex: number } | { ok: false; reason: VerifyFailureReason; message: string };

/** A signature is 40 hex digits (20 bytes of SHA-1). Uppercase is accepted: hex case carries no secret. */
const SIGNATURE_BYTES = 20;

type Prepared =
  | { ok: false; result: VerifyResult }
  | {
      ok: true;
      given: Uint8Array;
      secrets: readonly Secret[];
      raw: string | Uint8Array | undefined;
      parsedBody: unknown;
      hasParsed: boolean;
      /** The re-serialized forms, made once each when a form other than `raw` is tried (never on the raw-only path). */
      forms: BodyForms | undefined;
      order: readonly SignatureForm[];
    };

type Ready = Extract<Prepared, { ok: true }>;

/** With raw bytes present, only they can match (unless re-serialized forms are allowed explicitly). */
const RAW_ONLY: readonly SignatureForm[] = ['raw'];
/** Without raw bytes, the re-serialized forms: `JSON.stringify` first (how the sender serializes), then key-sorted. */
const RESERIALIZED: readonly SignatureForm[] = ['stringify', 'sorted'];

/** A failed preparation. Module level, not a closure: `prepare` runs on every verification. */
function fail(reason: VerifyFailureReason, message: string): Prepared {
  return { ok: false, result: { ok: false, reason, message } };
}

function prepare(input: VerifyInput): Prepared {
  const { signature } = input;
  if (signature === undefined || signature === null || signature === '') {
    return fail('missing', 'No X-Signature header: the request is not signed.');
  }
  if (typeof signature !== 'string') {
    return fail('malformed', 'X-Signature must be one header holding 40 hex digits.');
  }
  const given = decodeHexHeader(signature, SIGNATURE_BYTES);
  if (given === undefined) {
    return fail(
      'malformed',
      `X-Signature must be 40 hex digits (HMAC-SHA1); got ${trimmedLength(signature)} characters.`,
    );
  }
  const secrets = (Array.isArray(input.secret) ? input.secret : [input.secret]) as readonly Secret[];
  if (!allUsable(secrets)) {
    return fail('mismatch', 'No usable secret was configured: each secret must be a non-empty string or Uint8Array.');
  }
  const raw = rawForm(input.rawBody);
  const hasParsed = 'parsedBody' in input && input.parsedBody !== undefined;
  if (raw === undefined && !hasParsed) {
    return fail('mismatch', 'There is no body to verify.');
  }
  return {
    ok: true,
    given,
    secrets,
    raw,
    parsedBody: input.parsedBody,
    hasParsed,
    forms: undefined,
    order: formOrder(input.forms, raw !== undefined, input.allowReserialized === true),
  };
}

/**
 * The forms to try. Raw bytes present: `raw` alone (bytes re-encoded after signing are not authentic),
 * unless re-serialized forms are allowed. Raw bytes gone: the re-serialized forms (`raw` has nothing to hash).
 */
function formOrder(
  forms: readonly SignatureForm[] | undefined,
  hasRaw: boolean,
  allowReserialized: boolean,
): readonly SignatureForm[] {
  if (forms === undefined) return hasRaw ? (allowReserialized ? SIGNATURE_FORMS : RAW_ONLY) : RESERIALIZED;
  if (!hasRaw) return forms.filter((f) => f !== 'raw');
  return allowReserialized ? forms : forms.includes('raw') ? RAW_ONLY : [];
}

/**
 * Only non-empty strings and bytes are keys: anything else (a number, an object from an untyped
 * caller) must not become a key of zero bytes under Web Crypto while node:crypto refuses it.
 */
function allUsable(secrets: readonly unknown[]): boolean {
  if (secrets.length === 0) return false;
  for (let i = 0; i < secrets.length; i++) {
    const s = secrets[i];
    if (!(typeof s === 'string' || s instanceof Uint8Array) || s.length === 0) return false;
  }
  return true;
}

/** The raw body as text or bytes; anything that is not a string, bytes or an ArrayBuffer counts as absent. */
function rawForm(body: unknown): string | Uint8Array | undefined {
  if (typeof body === 'string' || body instanceof Uint8Array) return body;
  if (body instanceof ArrayBuffer) return toBytes(body);
  return undefined;
}

function formText(p: Ready, form: SignatureForm): string | Uint8Array | undefined {
  if (form === 'raw') return p.raw;
  if (form === 'stringify' || form === 'sorted') {
    p.forms ??= new BodyForms(p.raw, p.parsedBody, p.hasParsed);
    return p.forms.text(form);
  }
  return undefined; // an unknown form name (untyped callers) is no form at all
}

const MISMATCH: VerifyResult = {
  ok: false,
  reason: 'mismatch',
  message: 'X-Signature does not match the body under any configured secret.',
};
/** The usual refusal's text: a well-formed signature that matches the raw bytes under no secret. */
export const RAW_MISMATCH_MESSAGE = 'X-Signature does not match the raw body bytes under any configured secret.';
const RAW_MISMATCH: VerifyResult = { ok: false, reason: 'mismatch', message: RAW_MISMATCH_MESSAGE };
const NO_FORM: VerifyResult = {
  ok: false,
  reason: 'mismatch',
  message:
    'None of the allowed signature forms applies to this body (with raw bytes only `raw` is tried unless re-serialized forms are allowed; without them `raw` cannot be).',
};

function mismatchOf(p: Ready): VerifyResult {
  if (p.order.length === 0) return NO_FORM;
  return p.order.length === 1 && p.order[0] === 'raw' ? RAW_MISMATCH : MISMATCH;
}

/**
 * A verification with the exact text or bytes that matched (the receiver keys dedupe on them and
 * hands them on); internal.
 *
 * @example
 * const { result, signed } = verifyDetailed({ signature, secret, rawBody });
 */
export type DetailedVerifyResult = { result: VerifyResult; signed: string | Uint8Array | undefined };

/**
 * `verify`, also returning the body form that matched (internal: the receiver's dedupe key). `keys`:
 * the secrets as `node:crypto` keys, in the same order, imported once by the receiver
 * (`createSecretKey`); without them each secret is keyed per HMAC.
 *
 * @example
 * const { result, signed } = verifyDetailed({ signature, secret, parsedBody });
 * if (result.ok) console.log(typeof signed === 'string' ? signed.length : signed?.byteLength);
 */
export function verifyDetailed(input: VerifyInput, keys?: readonly (Secret | KeyObject)[]): DetailedVerifyResult {
  const p = prepare(input);
  if (!p.ok) return { result: p.result, signed: undefined };
  const { createHmac, timingSafeEqual } = requireNodeCrypto('verify');
  const given = p.given;
  for (const form of p.order) {
    const body = formText(p, form);
    if (body === undefined) continue;
    for (let i = 0; i < p.secrets.length; i++) {
      try {
        const digest = createHmac('sha1', keys?.[i] ?? (p.secrets[i] as Secret))
          .update(body)
          .digest();
        if (constantTimeEqual(digest, given, timingSafeEqual))
          return { result: { ok: true, form, secretIndex: i }, signed: body };
      } catch {
        // A secret node:crypto refuses (wrong type from untyped callers) is simply not a match.
      }
    }
  }
  return { result: mismatchOf(p), signed: undefined };
}

/**
 * `verifyAsync`, also returning the body form that matched (internal: the receiver's dedupe key).
 * `keyOf` gives the Web Crypto key of the secret at an index: imported per call by default; a
 * receiver passes the keys it imported once.
 *
 * @example
 * const { result, signed } = await verifyDetailedAsync({ signature, secret, rawBody });
 */
export async function verifyDetailedAsync(
  input: VerifyInput,
  keyOf: (secret: Secret, index: number) => Promise<CryptoKey> = importHmacKey,
): Promise<DetailedVerifyResult> {
  const p = prepare(input);
  if (!p.ok) return { result: p.result, signed: undefined };
  const given = p.given;
  for (const form of p.order) {
    const body = formText(p, form);
    if (body === undefined) continue;
    for (let i = 0; i < p.secrets.length; i++) {
      try {
        const digest = await hmacSha1Web(body, await keyOf(p.secrets[i] as Secret, i));
        if (constantTimeEqual(digest, given)) return { result: { ok: true, form, secretIndex: i }, signed: body };
      } catch {
        // A key Web Crypto refuses is simply not a match.
      }
    }
  }
  return { result: mismatchOf(p), signed: undefined };
}

/**
 * Verifies a signature (sync, `node:crypto`). When the raw bytes are given, only they can match
 * (one HMAC per secret, no JSON parse); without them, `JSON.stringify` of the parsed body, then a
 * key-sorted form, each made once. Compares in constant time; never throws.
 *
 * @example
 * const result = verify({ signature: req.headers['x-signature'], secret: [current, previous], rawBody });
 * if (!result.ok) return res.status(401).end(result.message);
 * console.log(`verified over the ${result.form} body with secret #${result.secretIndex}`);
 */
export function verify(input: VerifyInput): VerifyResult {
  return verifyDetailed(input).result;
}

/**
 * Verifies a signature with Web Crypto, for runtimes without `node:crypto` (Workers); same rules
 * and result as `verify`.
 *
 * @example
 * const result = await verifyAsync({ signature: request.headers.get('x-signature'), secret: env.SECRET, rawBody: await request.arrayBuffer() });
 */
export async function verifyAsync(input: VerifyInput): Promise<VerifyResult> {
  return (await verifyDetailedAsync(input)).result;
}
