import { ReplayError } from './errors.js';
import type { DeliveryRecord } from './log/delivery-record.js';
import type { Pipeline } from './pipeline.js';
import { destinationBlock } from './routing/route-call.js';

/**
 * Delivers a recorded message again, as a new record with `replayOf`: the same body, signed with the
 * source's current secret, to its current endpoints. Throws a `ReplayError` saying why it cannot
 * (unknown id, evicted, no message).
 *
 * @example
 * const again = replayRecord(pipeline, 'dlv_1');
 */
export function replayRecord(pipeline: Pipeline, id: string): DeliveryRecord {
  pipeline.assertOpen('replay');
  const original = pipeline.log.find(id);
  if (!original) {
    throw new ReplayError(
      id,
      pipeline.log.wasEvicted(id)
        ? 'it was evicted from the delivery log (maxRecords keeps the newest finished records)'
        : 'no delivery record has this id',
    );
  }
  // An Actions request may be empty (its mapping's data came out empty): it is still a request to send again.
  const request = original.actions !== undefined && original.source.endpoints.length > 0;
  if (original.bodyLength === 0 && !request)
    throw new ReplayError(id, `it has no message to send (${original.reason ?? 'none was built'})`);
  const source = pipeline.sources.get(original.writeKey);
  if (original.actions !== undefined) {
    // A Webhooks (Actions) request is sent again as it was: same method, URL, headers, body and X-Signature.
    if (original.source.endpoints.length === 0)
      throw new ReplayError(id, `its mapping made no request (${original.reason ?? 'none was made'})`);
    const actions = source.resolved.actions;
    return pipeline.record({
      type: original.type,
      source,
      origin: 'replay',
      message: undefined,
      body: original.body,
      receivedMs: pipeline.options.clock.now(),
      filteredReason:
        actions === undefined
          ? 'the source has no Webhooks (Actions) destination now (its webhooksActions setting is not set)'
          : actions.enabled
            ? undefined
            : 'the Webhooks (Actions) destination is disabled for this source (webhooksActions.enabled: false)',
      replayOf: original.id,
      recordSource: original.source,
      signature: original.signature,
      actions: original.actions,
    });
  }
  return pipeline.record({
    type: original.type,
    source,
    origin: 'replay',
    message: undefined,
    body: original.body,
    receivedMs: pipeline.options.clock.now(),
    filteredReason: destinationBlock(source.resolved),
    replayOf: original.id,
  });
}
