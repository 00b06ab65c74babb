/**
 * The rules of a Webhooks (Actions) batch. With `enable_batching` the destination sends a JSON array
 * of every event's mapped `data`, and `@segment/action-destinations` 3.387.0 signs it with
 * `HMAC(secret, JSON.stringify(batch[0]))`: the signature covers the first element only (newer
 * versions send batches unsigned). Anyone holding one captured request can append elements behind
 * its signature, so batches are refused unless the receiver accepts them by name.
 */

/**
 * The status of a refused batch: 422 (a 4xx the sender does not retry; retrying cannot fix it).
 *
 * @example
 * if (response.status === BATCH_REFUSED_STATUS) console.warn('turn batching off in the mapping');
 */
export const BATCH_REFUSED_STATUS = 422;

/**
 * The explanation sent with a refused batch: why, and both ways out.
 *
 * @example
 * receiverResponse('batch_refused', BATCH_REFUSED_MESSAGE);
 */
export const BATCH_REFUSED_MESSAGE =
  'Batches are refused: Segment signs a Webhooks (Actions) batch over its first event only (or not at all), so the other events ' +
  'are not authenticated and anyone could add some. Turn batching off in the mapping ("Enable Batching" off), so every event ' +
  'arrives alone and signed; or accept batches knowingly with insecureAcceptBatches: true (the handler context then says which events no signature covered).';

/**
 * The explanation for a batch arriving at a receiver in enqueue mode: each job is one signed event.
 *
 * @example
 * receiverResponse('batch_refused', BATCH_ENQUEUE_MESSAGE);
 */
export const BATCH_ENQUEUE_MESSAGE =
  'Batches are refused: this receiver stores each event as its own queue job, and a Webhooks (Actions) batch is signed over its first event only ' +
  '(or not at all), so the other events could not be trusted nor stored one by one. Turn batching off in the mapping ("Enable Batching" off): ' +
  'every event then arrives alone, signed, and becomes one job.';

/**
 * The explanation for a batch arriving at a receiver with no handler to run its elements one by one.
 *
 * @example
 * receiverResponse('batch_refused', BATCH_NEEDS_HANDLERS_MESSAGE);
 */
export const BATCH_NEEDS_HANDLERS_MESSAGE =
  'Batches are accepted only by a receiver with handlers (on / onPayload), which runs and dedupes each event once; ' +
  'this route hands requests on (or to a queue) one at a time. Turn batching off in the mapping, or give the receiver handlers.';

/**
 * The explanation for an unsigned batch when only signed batches are accepted.
 *
 * @example
 * receiverResponse('missing_signature', UNSIGNED_BATCH_MESSAGE);
 */
export const UNSIGNED_BATCH_MESSAGE =
  'The batch has no X-Signature. Newer Segment code sends batches unsigned; to accept them anyway (no event of theirs is authenticated), ' +
  "set insecureAcceptBatches: 'including-unsigned', or turn batching off in the mapping so every event arrives signed.";

/**
 * The explanation for a batch whose first element is `null`: Segment's code signs the first element's
 * `data`, and sends the batch unsigned when it came out empty.
 *
 * @example
 * receiverResponse('missing_signature', NULL_FIRST_BATCH_MESSAGE);
 */
export const NULL_FIRST_BATCH_MESSAGE =
  "The batch's first element is null (its mapping gave no data), so Segment sent the batch unsigned: no event of it is authenticated. " +
  "To accept such batches anyway, set insecureAcceptBatches: 'including-unsigned'; or turn batching off in the mapping so every event arrives signed.";

/**
 * The indexes of a batch's `null` elements (Segment's code keeps `null` where a mapping's `data` came
 * out empty): skipped, and reported to the handlers.
 *
 * @example
 * nullIndexes([{ a: 1 }, null]); // [1]
 */
export function nullIndexes(elements: readonly unknown[]): number[] {
  const out: number[] = [];
  for (let i = 0; i < elements.length; i++) if (elements[i] === null) out.push(i);
  return out;
}

/**
 * Whether a body is a batch (a JSON array), looking at its first non-blank character only.
 *
 * @example
 * isBatchBody(new TextEncoder().encode(' [{"a":1}]'), undefined); // true
 */
export function isBatchBody(raw: string | Uint8Array | undefined, parsed: unknown): boolean {
  if (parsed !== undefined) return Array.isArray(parsed);
  if (raw === undefined) return false;
  for (let i = 0; i < raw.length; i++) {
    const c = typeof raw === 'string' ? raw.charCodeAt(i) : raw[i]!;
    // Blanks JSON allows, and a UTF-8 / UTF-16 byte order mark.
    if (c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d || c === 0xef || c === 0xbb || c === 0xbf || c === 0xfeff)
      continue;
    return c === 0x5b; // '['
  }
  return false;
}

/**
 * The indexes a batch signature did not cover: all but 0 when it matched, all of them when the batch was unsigned.
 *
 * @example
 * uncoveredIndexes(3, true); // [1, 2]
 */
export function uncoveredIndexes(size: number, firstSigned: boolean): number[] {
  const out: number[] = [];
  for (let i = firstSigned ? 1 : 0; i < size; i++) out.push(i);
  return out;
}
