// Segment's own open-source code, loaded on first use: a source without Webhooks (Actions) never pays for it.
import { createRequire } from 'node:module';
import type { transform as TransformFn } from '@segment/actions-core/mapping-kit';

/** A parsed FQL condition, as `@segment/destination-subscriptions` returns it. */
export type ParsedSubscribe = { error?: Error } & Record<string, unknown>;

interface SubscriptionsModule {
  parseFql(fql: string): ParsedSubscribe;
  validate(condition: ParsedSubscribe, event: unknown): boolean;
}

interface MappingKitModule {
  transform: typeof TransformFn;
}

// The CommonJS builds: @segment/actions-core's ES module build uses extensionless imports that Node's
// ES module loader refuses, so both packages are loaded through `require` in the ESM and CJS builds alike.
const requireCjs = createRequire(import.meta.url);
let subscriptions: SubscriptionsModule | undefined;
let mappingKit: MappingKitModule | undefined;

/**
 * Segment's FQL parser and matcher (`@segment/destination-subscriptions`), the code Segment runs to
 * decide whether an event matches a subscription's `subscribe` condition.
 *
 * @example
 * const { parseFql, validate } = segmentSubscriptions();
 * validate(parseFql('type = "track" and event = "Order Completed"'), { type: 'track', event: 'Order Completed' }); // true
 */
export function segmentSubscriptions(): SubscriptionsModule {
  return (subscriptions ??= requireCjs('@segment/destination-subscriptions') as SubscriptionsModule);
}

/**
 * Segment's mapping-kit `transform` (`@segment/actions-core`): resolves `@path`, `@template`, `@if`
 * and the other directives of a mapping against an event, as Segment's destination runtime does.
 *
 * @example
 * segmentTransform()({ data: { '@path': '$.event' } }, { event: 'Signed Up' }); // { data: 'Signed Up' }
 */
export function segmentTransform(): typeof TransformFn {
  return (mappingKit ??= requireCjs('@segment/actions-core/mapping-kit') as MappingKitModule).transform;
}
