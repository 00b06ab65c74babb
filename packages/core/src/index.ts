/**
 * Messages, signatures and the runtime-neutral receiver: what a receiver's author uses. Framework
 * adapters build on `@hookgate/core/adapter`.
 *
 * @packageDocumentation
 * @module @hookgate/core
 */

// The receiver and its options.
export { createReceiver } from './receiver/create-receiver.js';
export { DeadlineExceededError, type Receiver } from './receiver/receiver.js';
export type {
  DedupeOptions,
  HandlerContext,
  MessageHandler,
  MessageHandlers,
  ReceiverErrorInfo,
  ReceiverInput,
  ReceiverLogger,
  ReceiverOptions,
  Verification,
} from './receiver/options.js';
export { RECEIVER_CODES, type ReceiverCode, type ReceiverResponse } from './receiver/responses.js';
export { RouteFailedError } from './receiver/route-outcome.js';
export { toNodeListener } from './receiver/node-listener.js';
export { answerClientError, handleClientErrors } from './receiver/client-errors.js';
export type { EnqueueHandoff, Handoff } from './receiver/handoff.js';

// The dedupe store.
export { MemoryIdempotencyStore, type ClaimResult, type IdempotencyStore } from './receiver/idempotency-store.js';

// Webhooks (Actions).
export type {
  ActionsErrorInfo,
  ActionsHandlerContext,
  ActionsPayload,
  ActionsReceiverOptions,
  BatchElementInfo,
  SpecEventHandlers,
} from './receiver/actions-options.js';
export {
  SPEC_EVENT_TYPES,
  type SpecEvent,
  type SpecEventOf,
  type SpecEventType,
  type SpecExtras,
} from './actions/spec-events.js';
export { isSpecEvent } from './actions/spec-event-check.js';
export type { StandardSchemaV1 } from './actions/standard-schema.js';

// Messages: types, validators, JSON Schemas, fixtures.
export { MESSAGE_TYPES, type MessageType } from './messages/schemas.js';
export type {
  AliasMessage,
  DeleteMessage,
  ExtraFields,
  GroupMessage,
  IdentifyMessage,
  MessageContext,
  MessageOf,
  PageMessage,
  ScreenMessage,
  TrackMessage,
  WebhookMessage,
} from './messages/types.js';
export { extraFields } from './messages/extra-fields.js';
export {
  isMessageOfType,
  isWebhookMessage,
  messageIssues,
  parseMessage,
  safeParseMessage,
} from './messages/parse-message.js';
export { ValidationError, type ValidationIssue } from './messages/validation-error.js';
export { messageJsonSchemas, webhookMessageJsonSchema } from './messages/json-schema.js';
export { allFixtures, fixture, fixtures } from './messages/fixtures.js';

// Signatures.
export { SIGNATURE_HEADER, sign, signAsync, type Secret } from './signatures/sign.js';
export {
  verify,
  verifyAsync,
  type VerifyFailureReason,
  type VerifyInput,
  type VerifyResult,
} from './signatures/verify.js';
export type { SignatureForm } from './signatures/body-forms.js';
export { explainMismatch, type MismatchFinding } from './signatures/explain-mismatch.js';

// Tracking plans: what a receiver's author writes or catches (the rest is on @hookgate/core/internal).
export { compileTrackingPlan } from './tracking-plan/compile-plan.js';
export { TrackingPlanError } from './tracking-plan/plan-file.js';
export { linearRegExp, type LinearRegExp } from './tracking-plan/linear-pattern.js';
export { DEFAULT_PLAN_LIMITS, type TrackingPlanLimits } from './tracking-plan/plan-limits.js';
export type { PlanViolation } from './tracking-plan/json-schema-validator.js';
export type { TypedTrackingPlan } from './tracking-plan/plan-types.js';

// Errors.
export { UnknownOptionError } from './options/nearest-name.js';
