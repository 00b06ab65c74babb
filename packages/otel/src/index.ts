/**
 * OpenTelemetry for hookgate: `openTelemetry()` is the `telemetry` option of receivers, workers and
 * the emulator.
 *
 * @packageDocumentation
 * @module @hookgate/otel
 */
export { openTelemetry, type OpenTelemetryOptions } from './open-telemetry.js';
export { ATTR, METRIC, SPAN } from './names.js';
