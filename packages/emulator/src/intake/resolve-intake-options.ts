import type { IntakeOptions } from './intake-options.js';
import { MAX_BATCH_BYTES, MAX_CALL_BYTES } from './limits.js';
import { OriginPolicy } from './origin-policy.js';

/** The intake's options, checked, with their defaults filled in. */
export interface ResolvedIntakeOptions {
  maxCallBytes: number;
  maxBatchBytes: number;
  onError: (error: unknown) => void;
  origins: OriginPolicy;
}

function positiveInteger(options: IntakeOptions, name: 'maxCallBytes' | 'maxBatchBytes', fallback: number): number {
  const value = options[name];
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) {
    throw new RangeError(
      `Intake option ${name} must be a whole number of bytes above 0 (got ${JSON.stringify(value)}); leave it out for the default of ${fallback}.`,
    );
  }
  return value;
}

/** Checks the intake's options (a bad one throws, naming it) and fills in the defaults. */
export function resolveIntakeOptions(options: IntakeOptions): ResolvedIntakeOptions {
  if (typeof options !== 'object' || options === null) {
    throw new TypeError('Intake options must be an object, e.g. { port: 8080 }.');
  }
  if (options.onError !== undefined && typeof options.onError !== 'function') {
    throw new TypeError('Intake option onError must be a function (error) => void.');
  }
  if (options.allowOrigins !== undefined && !Array.isArray(options.allowOrigins)) {
    throw new TypeError('Intake option allowOrigins must be a list of origins, e.g. ["https://app.example.com"].');
  }
  return {
    maxCallBytes: positiveInteger(options, 'maxCallBytes', MAX_CALL_BYTES),
    maxBatchBytes: positiveInteger(options, 'maxBatchBytes', MAX_BATCH_BYTES),
    onError:
      options.onError ??
      ((error) =>
        console.error(`[hookgate intake] ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`)),
    origins: new OriginPolicy(options.allowOrigins ?? []),
  };
}
