import { explainMismatch, verify, type Secret } from '@hookgate/core';
import { redactHeaderValue, redactUrl } from '../redact.js';
import type { InboundRecord, InboundVerdict } from './inbound-record.js';

/** The longest body text kept in a record for the views. */
export const MAX_VIEW_BODY_CHARS = 64 * 1024;

/**
 * Checks the signature over the exact bytes received (the only form that proves them authentic) and,
 * when it does not match, explains why: which re-serialized form it would match (the bytes were changed
 * after signing) and where the bytes differ from `JSON.stringify` of their value.
 *
 * @example
 * const verdict = judgeSignature(req.headers['x-signature'], ['s3cret'], body);
 * if (!verdict.ok) console.warn(verdict.message);
 */
export function judgeSignature(signature: unknown, secrets: readonly Secret[], body: Buffer): InboundVerdict {
  const raw = verify({ signature, secret: secrets, rawBody: body, forms: ['raw'] });
  if (raw.ok) {
    return {
      ok: true,
      form: 'raw',
      secretIndex: raw.secretIndex,
      message: `verified over the bytes received with secret #${raw.secretIndex}`,
    };
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString('utf8'));
  } catch {
    parsed = undefined;
  }
  if (Array.isArray(parsed)) {
    const batch = explainActionsBatch(signature, secrets, parsed, raw.ok ? undefined : raw.message);
    if (batch) return batch;
  }
  if (raw.reason !== 'mismatch') return { ok: false, reason: raw.reason, message: raw.message, findings: [] };
  const findings = explainMismatch(body);
  // Would the signature match a re-serialized form of the same value? (Diagnosis only: never accepted.)
  const other =
    parsed === undefined
      ? raw
      : verify({ signature, secret: secrets, parsedBody: parsed, forms: ['stringify', 'sorted'] });
  if (other.ok && other.form !== 'raw') {
    return {
      ok: false,
      reason: 'mismatch',
      matchesForm: other.form,
      findings,
      message:
        `The signature matches the ${other.form === 'stringify' ? 'JSON.stringify' : 'key-sorted'} form of this body, not the bytes received: ` +
        'the bytes were re-encoded after signing (a proxy, or a sender that signs a different serialization). A receiver that checks the raw bytes refuses it.',
    };
  }
  const first = findings[0];
  // A too-deep finding says where the explanation stopped, not that the body differs there.
  const where =
    first === undefined
      ? ''
      : first.cause === 'too-deep'
        ? ` The body nests too deeply to explain in full: ${first.path} ${first.message}`
        : ` The body would also not survive a JSON round trip: ${first.path} ${first.message}`;
  return {
    ok: false,
    reason: 'mismatch',
    findings,
    message: `X-Signature does not match these bytes under any configured secret (wrong secret, or the body was changed).${where}`,
  };
}

const BATCH_WAYS_OUT =
  "hookgate receivers refuse batches by default (422 batch_refused); either turn enable_batching off in the subscription's mapping, " +
  'or accept batches by name (insecureAcceptBatches: true) and treat every element after the first as unauthenticated.';

/**
 * The verdict on a Webhooks (Actions) batch (a JSON array body): Segment's destination code (3.387.0)
 * signs only the first element's `JSON.stringify`, so the signature never matches the body; this says
 * so, and whether it matches the first element. `undefined` when the signature matches the whole body.
 *
 * @example
 * explainActionsBatch(req.headers['x-signature'], ['s3cret'], JSON.parse(body))?.message;
 */
export function explainActionsBatch(
  signature: unknown,
  secrets: readonly Secret[],
  elements: unknown[],
  unsignedMessage?: string,
): InboundVerdict | undefined {
  const n = elements.length;
  if (signature === undefined || signature === null || signature === '') {
    return {
      ok: false,
      reason: 'missing',
      findings: [],
      message: `Webhooks (Actions) batch of ${n} element${n === 1 ? '' : 's'} without X-Signature (newer Segment code sends batches unsigned): nothing in it is authenticated. ${BATCH_WAYS_OUT}`,
    };
  }
  if (unsignedMessage === undefined) return undefined;
  const first =
    n > 0 ? verify({ signature, secret: secrets, rawBody: JSON.stringify(elements[0]), forms: ['raw'] }) : undefined;
  if (first?.ok) {
    return {
      ok: false,
      reason: 'mismatch',
      findings: [],
      message:
        `Webhooks (Actions) batch of ${n} element${n === 1 ? '' : 's'}: X-Signature matches only the first element (secret #${first.secretIndex}), as Segment's destination code signs a batch; ` +
        `the body as a whole can never match, and ${uncovered(n)} ${BATCH_WAYS_OUT}`,
    };
  }
  return undefined;
}

/** What no signature covers in a batch of `n` whose signature matches its first element. */
function uncovered(n: number): string {
  if (n === 1)
    return 'its one element is covered, but the same signature stays valid with elements appended after it (a forger holding it could append more).';
  const which = n === 2 ? 'element 2 is' : `elements 2–${n} are`;
  return `${which} not covered by any signature (a forger holding one signed event could append more).`;
}

/**
 * Whether a request looks like Segment's Webhooks (Actions) destination: its `User-Agent`
 * (`Segment (Actions)`), a `PUT` or `PATCH`, or a JSON array body (a batch).
 *
 * @example
 * isActionsRequest('PUT', 'Segment (Actions)', '{"orderId":"o-1"}'); // true
 */
export function isActionsRequest(method: string | undefined, userAgent: string | undefined, text: string): boolean {
  return (
    userAgent === 'Segment (Actions)' || method === 'PUT' || method === 'PATCH' || text.trimStart().startsWith('[')
  );
}

/**
 * A request path fit for a view: every query value masked.
 *
 * @example
 * maskPath('/hook?token=abc'); // '/hook?token=***' (or as the shared URL rule masks it)
 */
export function maskPath(path: string): string {
  if (!path.includes('?')) return path;
  const url = new URL(path, 'http://listen.invalid');
  const masked = redactUrl(url);
  return masked.slice('http://listen.invalid'.length);
}

/**
 * The headers as received, fit for a view, by the emulator's one rule (`redactHeaderValue`): the
 * signature shortened, every credential header (`Authorization`, `Cookie`, `X-Api-Key`, `X-Auth-Token`,
 * … see `isSecretHeader`) masked; the names and their order kept.
 *
 * @example
 * maskHeaders(req.rawHeaders); // [['X-Signature', '1a2b3c…'], ['Authorization', '***'], ['X-Api-Key', '***'], …]
 */
export function maskHeaders(rawHeaders: readonly string[]): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    const name = rawHeaders[i] as string;
    const value = rawHeaders[i + 1] as string;
    out.push([name, redactHeaderValue(name, value)]);
  }
  return out;
}

/**
 * The message type and a one-line summary of a webhook body, when it is a JSON object with a `type`.
 *
 * @example
 * summarize('{"type":"track","event":"Signed Up","userId":"u1"}'); // { type: 'track', summary: 'Signed Up · u1' }
 */
export function summarize(
  text: string,
  request?: { method?: string; userAgent?: string; signed?: boolean },
): Pick<InboundRecord, 'type' | 'summary'> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return {};
  }
  if (request && isActionsRequest(request.method, request.userAgent, text)) {
    const method = request.method ?? 'POST';
    if (Array.isArray(value))
      return {
        type: 'actions',
        summary: `Webhooks (Actions) ${method}: a batch of ${value.length}, ${request.signed === false ? 'unsigned' : 'signed over its first element only'}`,
      };
    const inner = typeof value === 'object' && value !== null ? summarize(text) : {};
    return {
      type: inner.type ?? 'actions',
      summary: [`Webhooks (Actions) ${method}`, inner.summary ?? (inner.type ? undefined : 'a mapped payload')]
        .filter(Boolean)
        .join(' · '),
    };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return {};
  const m = value as Record<string, unknown>;
  if (typeof m.type !== 'string') return {};
  const who = typeof m.userId === 'string' ? m.userId : typeof m['User ID'] === 'string' ? m['User ID'] : undefined;
  const what =
    typeof m.event === 'string'
      ? m.event
      : typeof m.name === 'string'
        ? m.name
        : typeof m.groupId === 'string'
          ? `group ${m.groupId}`
          : undefined;
  const summary = [what, who].filter((s): s is string => s !== undefined).join(' · ');
  return summary ? { type: m.type, summary: summary.slice(0, 200) } : { type: m.type };
}
