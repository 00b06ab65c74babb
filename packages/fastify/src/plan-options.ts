// Fastify's `register` takes a plugin's options type from the plugin value, which cannot be generic, so
// `app.register(hookgate, { trackingPlan, on })` checks keyed track handlers at run time only. This
// identity function, generic in the plan, gives them the plan's types at compile time.
import type { ActionsReceiverOptions, ReceiverOptions } from '@hookgate/core';
import type { FastifyExtra, HookgateActionsPluginOptions, HookgatePluginOptions } from './options.js';

/**
 * The `hookgate` plugin's options, with `on.track` keyed by event name and typed by a tracking plan
 * (`compileTrackingPlan(trackingPlan)` of the module `hookgate types` writes): `msg.properties` has the event's
 * types, and a misspelt event or property is a compile error. Returns the options unchanged.
 *
 * @example
 * import { hookgate, hookgateOptions } from '@hookgate/fastify';
 * import { compileTrackingPlan } from '@hookgate/plans';
 * import { trackingPlan as planExport } from './tracking-plan.js';
 *
 * const trackingPlan = compileTrackingPlan(planExport);
 * await app.register(
 *   hookgate,
 *   hookgateOptions({
 *     secret,
 *     trackingPlan,
 *     on: { track: { 'Order Completed': (msg) => console.log(msg.properties.total.toFixed(2)) } },
 *   }),
 * );
 */
export function hookgateOptions<TPlan>(
  options: ReceiverOptions<FastifyExtra, TPlan> & { path?: string | readonly string[] },
): HookgatePluginOptions {
  return options as unknown as HookgatePluginOptions;
}

/**
 * The `hookgateActions` plugin's options (Webhooks (Actions)), with `on.track` keyed by event name and
 * typed by a tracking plan: each whole Segment event's `properties` has the event's types, and a
 * misspelt event or property is a compile error. Returns the options unchanged.
 *
 * @example
 * import { hookgateActions, hookgateActionsOptions } from '@hookgate/fastify';
 * import { compileTrackingPlan } from '@hookgate/plans';
 * import { trackingPlan as planExport } from './tracking-plan.js';
 *
 * const trackingPlan = compileTrackingPlan(planExport);
 * await app.register(
 *   hookgateActions,
 *   hookgateActionsOptions({
 *     path: '/segment',
 *     secret,
 *     trackingPlan,
 *     on: { track: { 'Order Completed': (event, ctx) => console.log(event.properties.total, ctx.violations) } },
 *   }),
 * );
 */
export function hookgateActionsOptions<TPlan>(
  options: Omit<ActionsReceiverOptions<FastifyExtra, undefined, TPlan>, 'destination'> & {
    destination?: 'actions';
    path?: string | readonly string[];
  },
): HookgateActionsPluginOptions {
  return options as unknown as HookgateActionsPluginOptions;
}
