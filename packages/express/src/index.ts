// @hookgate/express — Express middleware for the Webhooks destination.
import './augment.js';

export { hookgate, type HookgateMiddleware } from './hookgate-middleware.js';
export { hookgateErrorHandler } from './error-handler.js';
export type { ExpressExtra, HookgateExpressOptions } from './options.js';
export { readExpressBody, type ExpressBody } from './read-express-body.js';
export { RouteFailedError } from '@hookgate/core';
