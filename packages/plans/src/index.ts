/**
 * Tracking plans (Segment Protocols) for hookgate's receivers and workers: `compileTrackingPlan` reads a
 * plan (its JSON, or the `trackingPlan` export of the module `hookgate types` writes) under limits, with
 * every `pattern` on a linear-time engine, and returns what a receiver's `trackingPlan` takes. A package of
 * its own, so a receiver without a plan installs and bundles none of it (Ajv, RE2, the validators).
 *
 * @packageDocumentation
 * @module @hookgate/plans
 */
export { compileTrackingPlan, type PlanVersionChoice, type TrackingPlanOptions } from './compile-plan.js';
export { TrackingPlanError, type TrackingPlanFile } from './plan-file.js';
export { linearRegExp, type LinearRegExp } from './linear-pattern.js';
export { duplicateItems } from './unique-items.js';
export { isMultipleOf } from './exact-decimal.js';
export { DEFAULT_PLAN_LIMITS, type TrackingPlanLimits } from './plan-limits.js';
