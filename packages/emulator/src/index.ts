/**
 * The sender: routing, delivery engine, virtual clock, delivery log.
 *
 * @packageDocumentation
 * @module @hookgate/emulator
 */

export { createEmulator } from './emulator.js';
export type { Emulator } from './emulator.js';
export type { Ingest, CallOptions, IngestOptions } from './ingest.js';
export type { DeliveryCounts, DeliveryLogView } from './log/delivery-log.js';
export type { SourcePatch, SourceView } from './routing/source-registry.js';
export type { DeleteUserOptions } from './syncs/sync-records.js';
export { systemClock } from './clock.js';
export type { Clock, ClockTimer } from './clock.js';
export { ManualClock } from './manual-clock.js';
export type { ManualClockOptions } from './manual-clock.js';
export { SettingsError, UnknownWriteKeyError, EmulatorClosedError, ReplayError, LogFullError } from './errors.js';
export { ValidationError } from '@hookgate/core';
export {
  DEFAULT_USER_AGENT,
  DEFAULT_RETRY,
  DEFAULT_MAX_RECORDS,
  DEFAULT_MAX_LOG_BYTES,
  DEFAULT_DEDUPE,
} from './options.js';
export type { EmulatorOptions, RetryOptions, ResponsePolicy, TlsOptions, DedupeOptions } from './options.js';
export type { DeliveryResponsePolicy } from './delivery/delivery-options.js';
export type { ResolvedProtocols, SchemaControls } from './protocols/schema-controls.js';
export { applySchemaControls, type SchemaControlsOutcome } from './protocols/apply-schema-controls.js';
export { MAX_ENDPOINTS, MAX_HEADERS, RESERVED_HEADERS } from './routing/source-settings.js';
export type {
  SourceSettings,
  WebhooksSettings,
  EndpointSettings,
  SourceSchemaSettings,
} from './routing/source-settings.js';
export type {
  DeliveryRecord,
  DeliveryState,
  Attempt,
  AttemptError,
  AttemptErrorCode,
  CancelledRetry,
  CloseReport,
} from './log/delivery-record.js';
export type { EmulatorEvents, EmulatorEventName } from './log/events.js';
export { CLOSED_REASON } from './delivery/engine.js';
export { NO_USER_ID_REASON, callToMessage } from './routing/transform.js';
export type { TransformOptions, TransformResult } from './routing/transform.js';
export {
  MAX_SUBSCRIPTIONS,
  MAX_BATCH_SIZE,
  DEFAULT_BATCH_SIZE,
  DEFAULT_BATCH_WINDOW_MS,
} from './actions/actions-settings.js';
export type { WebhooksActionsSettings, ActionsSubscription, ActionsMapping } from './actions/actions-settings.js';
export type { ActionsRecordInfo } from './log/actions-record-info.js';
export { ACTIONS_RETRY_STATUSES, ACTIONS_FINAL_STATUSES } from './actions/actions-response-settings.js';
export type { ActionsResponsePolicy } from './actions/actions-response-settings.js';
export { ACTIONS_USER_AGENT } from './actions/actions-delivery.js';
export { ACTIONS_DESTINATION, callToSpecEvent } from './segment-event.js';
export { DEBUG_NAMESPACE, debugEnabled } from './debug-log.js';

// The intake (tracking HTTP API) and the receiver conformance suite (README: sections below the engine's).
export { createIntakeListener } from './intake/intake-server.js';
export { listenIntake } from './intake/listen-intake.js';
export type { IntakeOptions, IntakeListenOptions, IntakeServer, IntakeListener } from './intake/intake-server.js';
export type { IntakeEngine } from './intake/intake-engine.js';
export type { IntakeSink, IntakeEntry } from './intake/intake-sink.js';
export type { InspectorOptions } from './inspector/inspector-options.js';
export { DEFAULT_SERVER_TIMEOUTS } from './server-timeouts.js';
export type { ServerTimeouts } from './server-timeouts.js';
export { MAX_CALL_BYTES, MAX_BATCH_BYTES, MAX_CALL_DEPTH } from './intake/limits.js';
export { INTAKE_CODES } from './intake/intake-response.js';
export type { IntakeCode, IntakeErrorBody, IntakePartialBody, RefusedCallView } from './intake/intake-response.js';
export { runConformance, CONFORMANCE_DEFAULTS } from './conformance/run-conformance.js';
export { formatConformanceReport } from './conformance/format-report.js';
export { ConformanceUnreachableError } from './conformance/unreachable-error.js';
export type { FormatReportOptions } from './conformance/format-report.js';
export type {
  ConformanceOptions,
  ConformanceReport,
  ConformanceCaseResult,
  ConformanceLevel,
} from './conformance/conformance-types.js';
export { startListener, SENDER_BUDGET_MS } from './listen/listen-server.js';
export type { ListenOptions, Listener } from './listen/listen-server.js';
export type { InboundRecord, InboundVerdict, InboundForward } from './listen/inbound-record.js';
export { DEFAULT_LISTEN_LOG_BYTES, InboundLog } from './listen/inbound-log.js';
