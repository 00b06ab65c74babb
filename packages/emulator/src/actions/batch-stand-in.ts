/** The records that stand for a call whose Webhooks (Actions) event waited in an open batch. */
const standIns = new WeakSet<object>();

/**
 * Marks the record that stands for a call whose event waited in an open batch: `filtered` because
 * nothing is sent for the call itself; the event goes out in the batch's own record.
 *
 * @example
 * markBatchStandIn(record);
 */
export function markBatchStandIn(record: object): void {
  standIns.add(record);
}

/**
 * Whether a `filtered` record only stands for a call whose event was batched (its reason names the
 * batch record once the batch is sent), rather than a call that was not sent at all.
 *
 * @example
 * const label = isBatchStandIn(record) ? 'batched' : 'filtered';
 */
export function isBatchStandIn(record: object): boolean {
  return standIns.has(record);
}
