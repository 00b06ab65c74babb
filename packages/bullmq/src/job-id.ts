/**
 * The BullMQ job id of a dedupe key. BullMQ refuses ids with `:` and integer ids, and core's keys
 * are `id:<messageId>` or `sha256:<hex>`, so `%` and `:` are percent-encoded: one key, one id, and
 * two keys never share an id. `dedupeKeyOf` reads the key back.
 *
 * @example
 * jobIdOf('id:ajs-1f0e'); // 'id%3Aajs-1f0e'
 * await queue.getJob(jobIdOf(ctx.dedupeKey)); // find the job of a message
 */
export function jobIdOf(dedupeKey: string): string {
  return dedupeKey.replace(/%/g, '%25').replace(/:/g, '%3A');
}

/**
 * The dedupe key a job id was made from (the inverse of `jobIdOf`): jobs do not store the key again.
 *
 * @example
 * dedupeKeyOf('id%3Aajs-1f0e'); // 'id:ajs-1f0e'
 * const key = dedupeKeyOf(job.id!); // the key for idempotent writes, as ctx.dedupeKey gives it
 */
export function dedupeKeyOf(jobId: string): string {
  return jobId.replace(/%3A|%25/g, (escape) => (escape === '%3A' ? ':' : '%'));
}
