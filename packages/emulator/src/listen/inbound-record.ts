import type { MismatchFinding, SignatureForm, VerifyFailureReason } from '@hookgate/core';

/**
 * The verdict on one inbound request's signature, over the exact bytes received.
 *
 * @example
 * const verdict: InboundVerdict = record.verdict;
 * if (!verdict.ok) console.warn(verdict.reason, verdict.message, verdict.findings.length);
 */
export type InboundVerdict =
  | { ok: true; form: SignatureForm; secretIndex: number; message: string }
  | {
      ok: false;
      /** `not_verified`: listen runs without a secret (a catch-all), so nothing was checked. */
      reason: VerifyFailureReason | 'too_large' | 'not_verified';
      message: string;
      /** Where the bytes received differ from their `JSON.stringify` form (empty when they do not). */
      findings: MismatchFinding[];
      /** A re-serialized form that the signature does match: the bytes were changed after signing. */
      matchesForm?: Exclude<SignatureForm, 'raw'>;
    };

/**
 * What `listen` did with a request at the user's local receiver (`--forward-to`).
 *
 * @example
 * const f: InboundForward | undefined = record.forward;
 * if (f?.slow) console.warn(`the receiver took ${f.durationMs} ms, past the sender's 5 s`);
 */
export interface InboundForward {
  /** The target, with its URL password and query values masked. */
  url: string;
  /** The receiver's status, when it answered. */
  status?: number;
  /** Why there is no status: the receiver was unreachable, or did not answer in time. */
  error?: string;
  timedOut: boolean;
  durationMs: number;
  /** Past the sender's 5 s budget: the real sender would have logged a timeout and retried. */
  slow: boolean;
  /** The start of the receiver's answer body (at most 512 characters). */
  bodyStart?: string;
}

/**
 * One request that reached `hookgate listen`, as shown in its log, its `--json` lines and the inspector.
 * Free of secrets: the signature is shortened, credentials and query values are masked.
 *
 * @example
 * listener.on('request', (r: InboundRecord) => console.log(r.id, r.method, r.path, r.verdict.ok, r.forward?.status));
 */
export interface InboundRecord {
  /** `in_1`, `in_2`, … in arrival order. */
  id: string;
  /** ISO 8601 time the request arrived. */
  receivedAt: string;
  method: string;
  /** The request path, query values masked. */
  path: string;
  /** The headers as received, in order; `x-signature` shortened, credential headers (`authorization`, `cookie`, `x-api-key`, … by `isSecretHeader`) masked. */
  headers: Array<[string, string]>;
  /** Body size in bytes. */
  bodyBytes: number;
  /** The body as text (UTF-8), cut at 64 KiB for the views; the forward always sends the exact bytes. */
  body: string;
  bodyTruncated: boolean;
  /** The message type and a one-line summary, when the body is a JSON object with a `type`. */
  type?: string;
  summary?: string;
  verdict: InboundVerdict;
  forward?: InboundForward;
  /** The status `listen` answered the sender with. */
  answeredStatus: number;
  durationMs: number;
}
