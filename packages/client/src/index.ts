/**
 * The batching analytics client (the Go v2 library, in TypeScript).
 *
 * @packageDocumentation
 * @module @hookgate/client
 */

export { Analytics, type CloseOptions } from './analytics.js';
export { DEFAULT_OPTIONS, type AnalyticsOptions } from './options.js';
export {
  CallTooLargeError,
  ClientClosedError,
  DeliveryError,
  FieldError,
  OptionError,
  type DeliveryFailure,
} from './errors.js';
export { MAX_BATCH_BYTES, MAX_CALL_BYTES } from './limits.js';
export { LIBRARY } from './version.js';
export type {
  AliasParams,
  CommonFields,
  FlushReport,
  GroupParams,
  Identity,
  IdentifyParams,
  Message,
  PageParams,
  ParamsOf,
  ScreenParams,
  TrackParams,
} from './types.js';
export type { CallType, Integrations } from '@hookgate/core/calls';
