/**
 * Messages, signatures and the runtime-neutral receiver: what a receiver's author uses, with every
 * type their signatures name. Framework adapters build on `@hookgate/core/adapter`.
 *
 * @packageDocumentation
 * @module @hookgate/core
 */

// The receiver and its options.
export { createReceiver } from './receiver/create-receiver.js';
export {
  DeadlineExceededError,
  type AcceptedBatch,
  type AcceptedMessage,
  type AcceptResult,
  type Receiver,
} from './receiver/receiver.js';
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
export { toNodeListener, type NodeRequestLike, type NodeResponseLike } from './receiver/node-listener.js';
export { answerClientError, handleClientErrors, type ClientErrorSocket } from './receiver/client-errors.js';
export type { HeadersLike } from './receiver/headers.js';
// The adapter contract's types, named by `receiver.serve` (what adapters build on is @hookgate/core/adapter).
export type { AdapterBody, AdapterLimits, FrameworkAdapter } from './receiver/adapter-contract.js';
export type { EnqueueHandoff, Handoff } from './receiver/handoff.js';

// Telemetry (the `telemetry` option; `@hookgate/otel` implements it on OpenTelemetry).
export type {
  DeliveryAttemptReport,
  MessageFacts,
  PlanViolationFacts,
  ProcessedJob,
  ProcessObservation,
  ReceiveAnswer,
  ReceiveArrival,
  ReceiveObservation,
  Telemetry,
  TraceHeaders,
} from './telemetry/telemetry.js';

// The dedupe store.
export {
  MemoryIdempotencyStore,
  type Awaitable,
  type ClaimResult,
  type IdempotencyStore,
  type MemoryIdempotencyStoreOptions,
} from './receiver/idempotency-store.js';

// Webhooks (Actions).
export type {
  ActionsErrorInfo,
  ActionsHandlerContext,
  ActionsPayload,
  ActionsReceiverOptions,
  BatchElementInfo,
  PayloadOf,
  ReceiverDestination,
  ReceiverOptionsFor,
  SpecEventHandler,
  SpecEventHandlers,
  SpecPlanEvents,
} from './receiver/actions-options.js';
export {
  SPEC_EVENT_TYPES,
  type SpecAliasEvent,
  type SpecCommonFields,
  type SpecContext,
  type SpecEvent,
  type SpecEventOf,
  type SpecEventType,
  type SpecExtras,
  type SpecGroupEvent,
  type SpecIdentifyEvent,
  type SpecIntegrations,
  type SpecPageEvent,
  type SpecScreenEvent,
  type SpecTrackEvent,
} from './actions/spec-events.js';
export { isSpecEvent } from './actions/spec-event-check.js';
export type { StandardSchemaV1 } from './actions/standard-schema.js';

// Messages: types, validators, JSON Schemas, fixtures.
export {
  ContextSchema,
  MESSAGE_TYPES,
  messageSchemas,
  PagePropertiesSchema,
  type MessageType,
} from './messages/schemas.js';
export type {
  AbsentSchema,
  FieldSchema,
  LiteralSchema,
  ObjectSchema,
  OpenObjectSchema,
  SchemaType,
  StringSchema,
} from './messages/schema-parts.js';
export type {
  AliasMessage,
  DeleteMessage,
  ExtraFields,
  GroupMessage,
  IdentifyMessage,
  MessageContext,
  MessageOf,
  MessageShape,
  PageMessage,
  PageProperties,
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
  type ParseMessageOptions,
  type SafeParseResult,
} from './messages/parse-message.js';
export { ValidationError, type ValidationIssue } from './messages/validation-error.js';
export { messageJsonSchemas, webhookMessageJsonSchema, type JsonSchema } from './messages/json-schema.js';
export { allFixtures, fixture, fixtures } from './messages/fixtures.js';

// Signatures.
export { SIGNATURE_HEADER, sign, signAsync, type Secret } from './signatures/sign.js';
export type { BodyInput } from './signatures/bytes.js';
export {
  verify,
  verifyAsync,
  type VerifyFailureReason,
  type VerifyInput,
  type VerifyResult,
} from './signatures/verify.js';
export type { SignatureForm } from './signatures/body-forms.js';
export { explainMismatch, type MismatchCause, type MismatchFinding } from './signatures/explain-mismatch.js';

// Tracking plans: the interface of a compiled plan and the handler types it gives (compiling a plan is
// @hookgate/plans' work, so a receiver without one carries none of it).
export type {
  CompiledTrackingPlan,
  ExactNumber,
  PlanCheckResult,
  PlanRuleRef,
  PlanViolation,
  PrecompiledValidator,
  TrackingPlanRule,
  TrackingPlanRuleType,
} from './tracking-plan/compiled-plan.js';
export type {
  KeyedTrackHandlers,
  PlanMessageHandler,
  PlanHandlers,
  PlanMessages,
  PlannedMessage,
  PlannedTrackMessage,
  PlanShapes,
  PlanShapesOf,
  TypedTrackingPlan,
  ViolationHandler,
} from './tracking-plan/plan-types.js';

// Errors.
export { UnknownOptionError } from './options/nearest-name.js';
