/**
 * What a Webhooks (Actions) delivery record carries beyond a classic one: which subscription made
 * it, the HTTP method, and how many events its request holds.
 *
 * @example
 * const actions = emulator.deliveries.filter((r) => r.actions?.subscription === 1);
 * console.log(actions[0]?.actions?.method, actions[0]?.actions?.batchSize);
 */
export interface ActionsRecordInfo {
  /** The subscription's number (1-based, in the order given). */
  readonly subscription: number;
  /** The subscription's `name`, when it has one. */
  readonly name?: string;
  /** Its `subscribe` condition (FQL). */
  readonly subscribe: string;
  /** `POST`, `PUT` or `PATCH`. */
  readonly method: 'POST' | 'PUT' | 'PATCH';
  /** Events in the request: 1 for a single event, the array's length for a batch. */
  readonly batchSize: number;
  /** Whether the request is a batch (a JSON array, signed over its first element only). */
  readonly batch: boolean;
}
