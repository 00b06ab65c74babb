// The receiver conformance suite: real requests against a receiver URL, a verdict per case.
export * from './conformance-types.js';
export * from './case-messages.js';
export * from './http-probe.js';
export * from './run-conformance.js';
export * from './format-report.js';
export * from './unreachable-error.js';
export * from './progress-line.js';
