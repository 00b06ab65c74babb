import { BodyForms, SIGNATURE_FORMS, type SignatureForm } from './body-forms.js';
import { constantTimeEqual, fromHex, toBytes, type BodyInput } from './bytes.js';
import { requireNodeCrypto } from './node-crypto.js';
import { hmacSha1Web, type Secret } from './sign.js';

/** What `verify` and `verifyAsync` take. */
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

/** Why a signature did not verify. */
export type VerifyFailureReason = 'missing' | 'malformed' | 'mismatch';

/** The outcome of a verification: which form and which secret matched, or why none did. */
export type VerifyResult =
  | { ok: true; form: SignatureForm; secretIndex: number }
  | { ok: false; reason: VerifyFailureReason; message: string };

/** A signature is 40 hex digits (20 bytes of SHA-1). Uppercase is accepted: hex case carries no secret. */
const SIGNATURE_SHAPE = /^[0-9a-fA-F]{40}$/;

type Prepared =
  | { ok: false; result: VerifyResult }
  | { ok: true; expected: string; secrets: readonly Secret[]; forms: BodyForms; order: readonly SignatureForm[] };

function prepare(input: VerifyInput): Prepared {
  const fail = (reason: VerifyFailureReason, message: string): Prepared => ({
    ok: false,
    result: { ok: false, reason, message },
  });
  const { signature } = input;
  if (signature === undefined || signature === null || signature === '') {
    return fail('missing', 'No X-Signature header: the request is not signed.');
  }
  if (typeof signature !== 'string') {
    return fail('malformed', 'X-Signature must be one header holding 40 hex digits.');
  }
  const expected = signature.trim();
  if (!SIGNATURE_SHAPE.test(expected)) {
    return fail('malformed', `X-Signature must be 40 hex digits (HMAC-SHA1); got ${expected.length} characters.`);
  }
  const secrets = (Array.isArray(input.secret) ? input.secret : [input.secret]) as readonly Secret[];
  if (secrets.length === 0 || secrets.some((s) => s === undefined || s === null || s.length === 0)) {
    return fail('mismatch', 'No usable secret was configured.');
  }
  const hasParsed = 'parsedBody' in input && input.parsedBody !== undefined;
  if (input.rawBody === undefined && !hasParsed) {
    return fail('mismatch', 'There is no body to verify.');
  }
  const raw = input.rawBody === undefined ? undefined : typeof input.rawBody === 'string' ? input.rawBody : toBytes(input.rawBody);
  return {
    ok: true,
    expected: expected.toLowerCase(),
    secrets,
    forms: new BodyForms(raw, input.parsedBody, hasParsed),
    order: input.forms ?? SIGNATURE_FORMS,
  };
}

function formText(p: Extract<Prepared, { ok: true }>, form: SignatureForm): string | Uint8Array | undefined {
  return form === 'raw' ? p.forms.raw : p.forms.text(form);
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
  const { createHmac, timingSafeEqual } = requireNodeCrypto('verify');
  const given = fromHexFast(p.expected);
  for (const form of p.order) {
    const body = formText(p, form);
    if (body === undefined) continue;
    for (let i = 0; i < p.secrets.length; i++) {
      try {
        const digest = createHmac('sha1', p.secrets[i] as Secret).update(body).digest();
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
  const given = fromHex(p.expected);
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

const NodeBuffer = (globalThis as { Buffer?: { from(s: string, enc: string): Uint8Array } }).Buffer;

function fromHexFast(hex: string): Uint8Array {
  return NodeBuffer ? NodeBuffer.from(hex, 'hex') : fromHex(hex);
}
