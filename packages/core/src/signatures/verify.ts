import { BodyForms, SIGNATURE_FORMS, type SignatureForm } from './body-forms.js';
import { constantTimeEqual, decodeHexHeader, toBytes, trimmedLength, type BodyInput } from './bytes.js';
import { hmacSha1Node } from './hmac-sha1-node.js';
import { requireNodeCrypto } from './node-crypto.js';
import { hmacSha1Web, type Secret } from './sign.js';

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
  /** Forms to try, in order. Default `['raw', 'stringify', 'sorted']`. */
  forms?: readonly SignatureForm[];
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
  | { ok: true; form: SignatureForm; secretIndex: number }
  | { ok: false; reason: VerifyFailureReason; message: string };

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
      /** The re-serialized forms, made only when a form other than `raw` is tried (most requests match raw). */
      forms: BodyForms | undefined;
      order: readonly SignatureForm[];
    };

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
    return fail('malformed', `X-Signature must be 40 hex digits (HMAC-SHA1); got ${trimmedLength(signature)} characters.`);
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
    order: input.forms ?? SIGNATURE_FORMS,
  };
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

function formText(p: Extract<Prepared, { ok: true }>, form: SignatureForm): string | Uint8Array | undefined {
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

/**
 * Verifies a signature (sync, `node:crypto`): tries the raw bytes, then `JSON.stringify` of the
 * parsed body, then a key-sorted form, under each secret; compares in constant time; never throws.
 *
 * @example
 * const result = verify({ signature: req.headers['x-signature'], secret: [current, previous], rawBody });
 * if (!result.ok) return res.status(401).end(result.message);
 * console.log(`verified over the ${result.form} body with secret #${result.secretIndex}`);
 */
export function verify(input: VerifyInput): VerifyResult {
  const p = prepare(input);
  if (!p.ok) return p.result;
  const crypto = requireNodeCrypto('verify');
  const { timingSafeEqual } = crypto;
  const given = p.given;
  for (const form of p.order) {
    const body = formText(p, form);
    if (body === undefined) continue;
    for (let i = 0; i < p.secrets.length; i++) {
      try {
        const digest = hmacSha1Node(crypto, p.secrets[i] as Secret, body);
        if (constantTimeEqual(digest, given, timingSafeEqual)) return { ok: true, form, secretIndex: i };
      } catch {
        // A secret node:crypto refuses (wrong type from untyped callers) is simply not a match.
      }
    }
  }
  return MISMATCH;
}

/**
 * Verifies a signature with Web Crypto, for runtimes without `node:crypto` (Workers); same rules
 * and result as `verify`.
 *
 * @example
 * const result = await verifyAsync({ signature: request.headers.get('x-signature'), secret: env.SECRET, rawBody: await request.arrayBuffer() });
 */
export async function verifyAsync(input: VerifyInput): Promise<VerifyResult> {
  const p = prepare(input);
  if (!p.ok) return p.result;
  const given = p.given;
  for (const form of p.order) {
    const body = formText(p, form);
    if (body === undefined) continue;
    for (let i = 0; i < p.secrets.length; i++) {
      try {
        const digest = await hmacSha1Web(body, p.secrets[i] as Secret);
        if (constantTimeEqual(digest, given)) return { ok: true, form, secretIndex: i };
      } catch {
        // A key Web Crypto refuses is simply not a match.
      }
    }
  }
  return MISMATCH;
}
