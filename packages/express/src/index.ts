/**
 * Express middleware for the Webhooks destination.
 *
 * @packageDocumentation
 * @module @hookgate/express
 */
export type {} from './augment.js'; // the augmentation: types only, no runtime code

export { hookgate, type HookgateMiddleware } from './hookgate-middleware.js';
export { hookgateErrorHandler } from './error-handler.js';
export type { ExpressExtra, HookgateExpressOptions } from './options.js';
export { readExpressBody, type ExpressBody } from './read-express-body.js';
export { RouteFailedError } from '@hookgate/core';
// Status answers (431, 408, 400) for what the HTTP server refuses before any route runs.
export { answerClientError, handleClientErrors } from '@hookgate/core';
