// The intake: the tracking HTTP API in front of the delivery engine, and its inspection routes.
export * from './limits.js';
export * from './intake-response.js';
export * from './intake-engine.js';
export * from './write-key.js';
export * from './read-intake-body.js';
export * from './parse-intake-payload.js';
export * from './inspection.js';
export * from './intake-server.js';
export * from './listen-intake.js';
