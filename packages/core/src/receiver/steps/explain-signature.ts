import { explainMismatch } from '../../signatures/explain-mismatch.js';
import { reserializedMatch } from '../../signatures/reserialized-match.js';
import type { Secret } from '../../signatures/sign.js';
import type { VerifyResult } from '../../signatures/verify.js';
import type { ReceiverSetup } from '../setup.js';

/**
 * Shortens a signature for logs: never log a signature or a secret in full.
 *
 * @example
 * redact('3b5d5c3712955042212b173f8a3b2f4b1e4f8c3a'); // '3b5d5c…(40 chars)'
 */
export function redact(value: string): string {
  return value.length <= 8 ? '…' : `${value.slice(0, 6)}…(${value.length} chars)`;
}

/**
 * With `debug` on, logs why a signature did not verify: a malformed header, a body a parser ate, a
 * re-serialized form that would have matched, or where the raw body and its `JSON.stringify` differ.
 *
 * @example
 * if (!result.ok) explainSignature(setup, secrets, signature, input.rawBody, result);
 */
export function explainSignature<TExtra>(
  setup: ReceiverSetup<TExtra>,
  secrets: readonly Secret[],
  signature: string,
  raw: string | Uint8Array | undefined,
  result: VerifyResult,
): void {
  if (!setup.debug || result.ok) return;
  const { logger } = setup;
  const head = `[hookgate] signature ${result.reason} (X-Signature ${redact(signature)}): ${result.message}`;
  if (result.reason !== 'mismatch') {
    logger.warn(head); // malformed: the header is the problem, not the body
    return;
  }
  if (raw === undefined) {
    logger.warn(
      `${head} The raw body was not available (a body parser ran first), so only re-serializations were tried; mount hookgate before body parsers to verify the exact bytes.`,
    );
    return;
  }
  const findings = explainMismatch(raw);
  const lines = findings.slice(0, 10).map((f) => `  ${f.path} [${f.cause}] ${f.message}`);
  // Debug only (it costs a parse and more HMACs): would a re-serialized form have matched? (With
  // allowReserialized, those forms were tried already.)
  const other = setup.allowReserialized ? undefined : reserializedMatch(signature, secrets, raw);
  if (other !== undefined) {
    logger.warn(
      `${head} The signature matches the ${other.form === 'stringify' ? 'JSON.stringify' : 'key-sorted'} form of this body, not its raw bytes: ` +
        `the raw bytes differ from the signed form (first difference at byte ${other.at}), so they were changed after signing and are refused. ` +
        'Only the raw bytes can match when they are available; allowReserializedWithRawBody accepts re-encoded bytes (its cost: the receiver docs, Options).' +
        (lines.length > 0 ? `\n${lines.join('\n')}` : ''),
    );
    return;
  }
  // The explanation stops at a too-deep value: found first, it says where it stopped, not that the body differs there.
  const stoppedAtOnce = findings[0]?.cause === 'too-deep';
  logger.warn(
    findings.length === 0
      ? `${head} The body round-trips through JSON unchanged, so the secret is the likely difference (check for a rotated or mistyped secret).`
      : stoppedAtOnce
        ? `${head} The body nests too deeply to explain where it differs from its JSON.stringify form:\n${lines.join('\n')}`
        : `${head} Where the raw body and its JSON.stringify form differ:\n${lines.join('\n')}`,
  );
}
