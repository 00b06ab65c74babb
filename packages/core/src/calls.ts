/**
 * The calls analytics clients send (identify, track, page, screen, group, alias): their types, the
 * validators the client and the emulator's intake use, the reading of what official clients in
 * other languages send, and timestamps in the sender's form.
 *
 * @packageDocumentation
 * @module @hookgate/core/calls
 */

export * from './calls/schemas.js';
export * from './calls/types.js';
export * from './calls/integrations.js';
export { callIssues, parseCall, type CallCheckOptions } from './calls/parse-call.js';
export * from './calls/call-timestamp.js';
export * from './calls/read-client-call.js';
export { normalizeTimestamp } from './messages/timestamp.js';
