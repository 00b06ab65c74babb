/**
 * Messages, signatures and the runtime-neutral receiver.
 *
 * @packageDocumentation
 * @module @hookgate/core
 */

export * from './messages/schemas.js';
export * from './messages/types.js';
export * from './messages/extra-fields.js';
export * from './messages/timestamp.js';
export * from './messages/validation-error.js';
export * from './messages/parse-message.js';
export * from './messages/json-schema.js';
export * from './messages/fixtures.js';

export * from './calls/schemas.js';
export * from './calls/types.js';
export * from './calls/integrations.js';
export { callIssues, parseCall, type CallCheckOptions } from './calls/parse-call.js';
export * from './calls/call-timestamp.js';
export * from './calls/read-client-call.js';

export * from './actions/spec-events.js';
export * from './actions/standard-schema.js';
export * from './actions/actions-options.js';
export * from './actions/spec-event-check.js';
export { BATCH_REFUSED_STATUS, BATCH_REFUSED_MESSAGE, isBatchBody } from './actions/batch-rules.js';

export * from './signatures/body-forms.js';
export { constantTimeEqual, type BodyInput } from './signatures/bytes.js';
export * from './signatures/sign.js';
export * from './signatures/verify.js';
export * from './signatures/explain-mismatch.js';

export * from './options/nearest-name.js';

export * from './receiver/headers.js';
export * from './receiver/read-body.js';
export * from './receiver/read-node-stream.js';
export * from './receiver/idempotency-store.js';
export * from './receiver/responses.js';
export * from './receiver/options.js';
export * from './receiver/handoff.js';
export * from './receiver/dedupe-key.js';
export * from './receiver/create-receiver.js';
export * from './receiver/receiver.js';
export { redact } from './receiver/steps/explain-signature.js';
export { checkReceiverOptions } from './receiver/check-options.js';
export * from './receiver/pass-through.js';
export * from './receiver/node-listener.js';
export * from './receiver/client-errors.js';
export * from './receiver/end-unread-body.js';
export * from './receiver/route-outcome.js';
