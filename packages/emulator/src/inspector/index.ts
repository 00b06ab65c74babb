export * from './inspector-options.js';
export * from './inspector-feed.js';
export * from './inspector-engine.js';
export { createInspector, INSPECTOR_ROUTES, SECURITY_HEADERS, type Inspector } from './inspector-routes.js';
export { CSRF_HEADER, TOKEN_COOKIE } from './request-guard.js';
export type { DeliverySummary, DeliveryDetail, AttemptView } from './wire-types.js';
