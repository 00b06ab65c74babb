import type { ReceiverOptions } from './options.js';

/**
 * Whether an adapter passes the verified message on to the framework's route (no `on` / `onMessage`
 * / `enqueue` given) instead of answering itself. Throws a `TypeError` for `mode: 'acknowledge'` without handlers:
 * the route answers then, so there would be nothing to run in the background. `fix` ends the message
 * with what to do instead, in the adapter's terms.
 *
 * @example
 * const receiver = createReceiver(options); // validates the options first
 * const passThrough = isPassThrough(options); // true: set req.webhook, then hand over to the route
 */
export function isPassThrough(
  options: Pick<ReceiverOptions<never>, 'mode' | 'enqueue'> & {
    on?: unknown;
    onMessage?: unknown;
    onPayload?: unknown;
  },
  fix = 'Give handlers, or leave mode at its default.',
): boolean {
  // With `enqueue` the receiver answers by itself once the queue holds the message.
  const passThrough =
    options.on == null && options.onMessage == null && options.onPayload == null && options.enqueue == null;
  if (passThrough && options.mode === 'acknowledge') {
    throw new TypeError(
      "mode: 'acknowledge' needs handlers in `on` or `onMessage`: without them the route after hookgate answers, " +
        `so there is nothing to run in the background. ${fix}`,
    );
  }
  return passThrough;
}
