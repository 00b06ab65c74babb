/**
 * Internal: what hookgate's own packages share beyond the public API (message schema parts,
 * option-name checks, signature and dedupe details). No stability promise: use `@hookgate/core`.
 *
 * @packageDocumentation
 * @module @hookgate/core/internal
 */

// Message schema parts.
export { strictMessageSchemas } from './messages/schemas.js';
export {
  ISO_8601_TIMESTAMP,
  IsoTimestampSchema,
  StrictTimestampSchema,
  UTC_MILLIS_TIMESTAMP,
} from './messages/timestamp.js';
export { childPath, pointerToPath } from './messages/validation-error.js';
export { isAlias, isDelete, isGroup, isIdentify, isPage, isScreen, isTrack } from './messages/parse-message.js';

// Webhooks (Actions) details.
export type { AnyReceiverOptions } from './receiver/actions-options.js';
export { BATCH_REFUSED_MESSAGE, BATCH_REFUSED_STATUS, isBatchBody } from './actions/batch-rules.js';
export { isSpecEventType, specEventIssues, type SpecEventIssue } from './actions/spec-event-check.js';
export { isStandardSchema, validateStandard, type SchemaIssue } from './actions/standard-schema.js';

// Options, signatures, dedupe.
export { editDistance, nearestName, optionNames, rejectUnknownNames } from './options/nearest-name.js';
export { BodyForms, SIGNATURE_FORMS, sortedJson } from './signatures/body-forms.js';
export { constantTimeEqual } from './signatures/bytes.js';
export { hmacSha1Web, importHmacKey } from './signatures/sign.js';
export { verifyDetailed, verifyDetailedAsync, type DetailedVerifyResult } from './signatures/verify.js';
export { redact } from './receiver/steps/explain-signature.js';
export { dedupeKey, messageIdKey } from './receiver/dedupe-key.js';
export { hasDigitRun } from './json/digit-run.js';
export {
  DEFAULT_DEADLINE_MS,
  DEFAULT_DEDUPE_TTL_MS,
  DEFAULT_IN_FLIGHT_TTL_MS,
  DEFAULT_MAX_BODY_BYTES,
  SENDER_TIMEOUT_MS,
} from './receiver/options.js';

// Tracking plans: reading and checking a plan (the emulator's schema controls, `hookgate types`).
export { readTrackingPlan, ruleLabel, rulesOf, type TrackingPlanFile } from './tracking-plan/plan-file.js';
export { loadTrackingPlan, parseTrackingPlanText, type LoadPlanOptions } from './tracking-plan/load-plan.js';
export { ajvSchema, EXACT_MULTIPLE_OF, LINEAR_ENGINE, planAjv } from './tracking-plan/plan-ajv.js';
export { eachSubschema } from './tracking-plan/schema-walk.js';
export { resolveLocal } from './tracking-plan/schema-walk.js';
// A receiver's tracking-plan settings, shared with workers that run handlers elsewhere (@hookgate/bullmq).
export { settleTrackingPlan, type PlanSetup } from './receiver/plan-setup.js';
export { guardedPlanCheck, PLAN_CHECK_FAILED } from './receiver/guarded-plan-check.js';
// The \`telemetry\` option, shared with workers (@hookgate/bullmq) and the emulator.
export { checkTelemetry } from './telemetry/check-telemetry.js';
export { messageFacts } from './telemetry/message-facts.js';
