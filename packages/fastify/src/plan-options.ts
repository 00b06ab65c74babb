// Fastify's `register` takes a plugin's options type from the plugin value, which cannot be generic, so
// `app.register(hookgate, { trackingPlan, on })` checks keyed track handlers at run time only. This
// identity function, generic in the plan, gives them the plan's types at compile time.
import type { ReceiverOptions } from '@hookgate/core';
import type { FastifyExtra, HookgatePluginOptions } from './options.js';

/**
 * The `hookgate` plugin's options, with `on.track` keyed by event name and typed by a tracking plan
 * (the `trackingPlan` export of the module `hookgate types` writes): `msg.properties` has the event's
 * types, and a misspelt event or property is a compile error. Returns the options unchanged.
 *
 * @example
 * import { hookgate, hookgateOptions } from '@hookgate/fastify';
 * import { trackingPlan } from './tracking-plan.js';
 *
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
