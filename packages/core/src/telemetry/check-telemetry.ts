import type { Telemetry } from './telemetry.js';

const METHODS = ['receive', 'process', 'deliver'] as const;

/**
 * Checks a `telemetry` option (of a receiver, a worker or the emulator): undefined, or an object with
 * the `Telemetry` methods. The error names the option and the fix.
 *
 * @example
 * const telemetry = checkTelemetry(options.telemetry, 'createWorker');
 */
export function checkTelemetry(value: unknown, caller: string): Telemetry | undefined {
  if (value === undefined) return undefined;
  const missing =
    value === null || typeof value !== 'object'
      ? METHODS
      : METHODS.filter((name) => typeof (value as Record<string, unknown>)[name] !== 'function');
  if (missing.length > 0) {
    throw new TypeError(
      `${caller}: telemetry must implement Telemetry (${METHODS.join(', ')}), e.g. telemetry: openTelemetry() from @hookgate/otel; ` +
        `missing ${missing.join(', ')}.`,
    );
  }
  return value as Telemetry;
}
