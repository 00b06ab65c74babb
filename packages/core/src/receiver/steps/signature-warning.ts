import type { VerifyFailureReason } from '../../signatures/verify.js';
import type { ReceiverSetup } from '../setup.js';

/** Why a signature failed, as the owner can act on it. */
type Cause = 'missing' | 'malformed' | 'parser' | 'secret';

/** At most one warning per cause in this many milliseconds. */
const EVERY_MS = 60_000;

const WARNINGS: Record<Cause, string> = {
  missing:
    'A request without X-Signature was refused 401 (missing_signature). If it came from Segment, the destination has no shared secret: set one in its settings and give the same to this receiver.',
  malformed:
    'A request whose X-Signature is not one header of 40 hex digits was refused 401 (invalid_signature); Segment sends the lowercase hex HMAC-SHA1 of the body.',
  parser:
    'A signature did not match (401 invalid_signature) and the raw body was not available: a body parser ran before hookgate, and its re-serialization is not what was signed. Mount hookgate before body parsers (express.json() and the like) to verify the exact bytes.',
  secret:
    'A signature did not match the raw body (401 invalid_signature). The secret is the likely difference: check for a rotated or mistyped secret (during a rotation pass secret: [current, previous]).',
};

/** When each receiver last warned of each cause. */
const lastWarned = new WeakMap<object, Map<Cause, number>>();

/**
 * Without `debug` (whose explanations say more, for every request), a signature failure is not
 * silent: one warning per cause (missing, malformed, a body parser before hookgate, the secret likely
 * wrong) through the receiver's logger, at most one per cause per minute, naming the fix and never
 * the secret or the signature. `logger: false` silences it.
 *
 * @example
 * if (!result.ok) warnSignatureFailure(setup, result.reason, input.rawBody === undefined);
 */
export function warnSignatureFailure<TExtra>(
  setup: ReceiverSetup<TExtra>,
  reason: VerifyFailureReason,
  bodyParsedBefore?: boolean,
  now: number = Date.now(),
): void {
  if (setup.debug) return;
  const cause: Cause = reason === 'mismatch' ? (bodyParsedBefore ? 'parser' : 'secret') : reason;
  let times = lastWarned.get(setup);
  if (times === undefined) lastWarned.set(setup, (times = new Map()));
  const last = times.get(cause);
  if (last !== undefined && now - last < EVERY_MS) return;
  times.set(cause, now);
  setup.logger.warn(
    `[hookgate] ${WARNINGS[cause]} (At most one such warning a minute; DEBUG=hookgate explains every failure.)`,
  );
}
