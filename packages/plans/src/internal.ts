/**
 * Internal: what hookgate's own packages share beyond the public API (reading plan files for the
 * emulator's schema controls and `hookgate types`). No stability promise: use `@hookgate/plans`.
 *
 * @packageDocumentation
 * @module @hookgate/plans/internal
 */
export { readTrackingPlan, ruleLabel, rulesOf } from './plan-file.js';
export { loadTrackingPlan, parseTrackingPlanText, type LoadPlanOptions } from './load-plan.js';
export { ajvSchema, EXACT_MULTIPLE_OF, LINEAR_ENGINE, planAjv, UNIQUE_ITEMS } from './plan-ajv.js';
export { eachSubschema, resolveLocal } from './schema-walk.js';
