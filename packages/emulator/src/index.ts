// @hookgate/emulator — the sender: routing, delivery engine, virtual clock, delivery log.

export { createEmulator } from './emulator.js';
export type { Emulator, CallOptions, IngestOptions, DeleteUserOptions, SourcePatch, SourceView, DeliveryCounts } from './emulator.js';
export { systemClock } from './clock.js';
export type { Clock, ClockTimer } from './clock.js';
export { ManualClock } from './manual-clock.js';
export type { ManualClockOptions } from './manual-clock.js';
export { SettingsError, UnknownWriteKeyError, EmulatorClosedError, ReplayError } from './errors.js';
export { ValidationError } from '@hookgate/core';
export { DEFAULT_USER_AGENT, DEFAULT_RETRY, DEFAULT_MAX_RECORDS } from './options.js';
export type { EmulatorOptions, RetryOptions, ResponsePolicy, TlsOptions } from './options.js';
export { MAX_ENDPOINTS, MAX_HEADERS, RESERVED_HEADERS } from './source-settings.js';
export type { SourceSettings, WebhooksSettings, EndpointSettings, SourceSchemaSettings } from './source-settings.js';
export type {
  DeliveryRecord,
  DeliveryState,
  Attempt,
  AttemptError,
  AttemptErrorCode,
  CloseReport,
} from './delivery-record.js';
export type { EmulatorEvents, EmulatorEventName } from './events.js';
export { CLOSED_REASON } from './delivery-engine.js';
export { NO_USER_ID_REASON, callToMessage } from './transform.js';
export type { TransformOptions, TransformResult } from './transform.js';
export { snakeCase } from './snake-case.js';
export { backoffDelay } from './retry-schedule.js';
export { DEBUG_NAMESPACE, debugEnabled } from './debug-log.js';

// The intake (tracking HTTP API) and the receiver conformance suite (README: sections below the engine's).
export { listenIntake, createIntakeListener } from './intake/intake-server.js';
export type { IntakeOptions, IntakeListenOptions, IntakeServer, IntakeListener } from './intake/intake-server.js';
export type { IntakeEngine } from './intake/intake-engine.js';
export { MAX_CALL_BYTES, MAX_BATCH_BYTES } from './intake/limits.js';
export { INTAKE_CODES } from './intake/intake-response.js';
export type { IntakeCode, IntakeErrorBody } from './intake/intake-response.js';
export { runConformance, CONFORMANCE_DEFAULTS } from './conformance/run-conformance.js';
export { formatConformanceReport } from './conformance/format-report.js';
export type { FormatReportOptions } from './conformance/format-report.js';
export type { ConformanceOptions, ConformanceReport, ConformanceCaseResult, ConformanceLevel } from './conformance/conformance-types.js';
export { startListener, isLoopbackHost, SENDER_BUDGET_MS } from './listen/listen-server.js';
export type { ListenOptions, Listener } from './listen/listen-server.js';
export type { InboundRecord, InboundVerdict, InboundForward } from './listen/inbound-record.js';
export { InboundLog } from './listen/inbound-log.js';
