/**
 * Hono middleware for the Webhooks destination (Node, Bun, Deno, Workers).
 *
 * @packageDocumentation
 * @module @hookgate/hono
 */

export { hookgate, type HookgateMiddleware } from './hookgate-middleware.js';
export type {
  HonoExtra,
  HookgateActionsEnv,
  HookgateActionsVariables,
  HookgateEnv,
  HookgateHonoOptions,
  HookgateVariables,
} from './options.js';
export { readHonoBody, type HonoBody } from './read-hono-body.js';
export { nodeIncomingOf, readIncoming, type NodeIncoming } from './node-incoming.js';
export { RouteFailedError } from '@hookgate/core';
// Status answers (431, 408, 400) for what the HTTP server refuses before any route runs.
export { answerClientError, handleClientErrors } from '@hookgate/core';
