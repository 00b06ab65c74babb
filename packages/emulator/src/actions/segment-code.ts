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

interface ActionsCoreModule {
  validateSchema(value: object, schema: object, options: { schemaKey: string }): boolean;
}

// The CommonJS builds: @segment/actions-core's ES module build uses extensionless imports that Node's
// ES module loader refuses, so both packages are loaded through `require` in the ESM and CJS builds alike.
const requireCjs = createRequire(import.meta.url);
let subscriptions: SubscriptionsModule | undefined;
let mappingKit: MappingKitModule | undefined;
let actionsCore: ActionsCoreModule | undefined;

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

/** The Webhook destination's `url` field as Segment's code declares it. */
const URL_FIELD_SCHEMA = { type: 'object', properties: { url: { type: 'string', format: 'uri' } } };

/**
 * Why Segment's code refuses `url` as the Webhook destination's URL, or `undefined` when it takes it:
 * its own schema check (`validateSchema` of `@segment/actions-core`, format `uri`), which refuses a
 * space or a character outside ASCII that `new URL` would quietly percent-encode. Segment answers
 * "URL must be a valid URI string but it was not." and sends nothing.
 *
 * @example
 * segmentUriIssue('https://example.com/a b'); // 'URL must be a valid URI string but it was not.'
 * segmentUriIssue('https://example.com/a%20b'); // undefined
 */
export function segmentUriIssue(url: string): string | undefined {
  actionsCore ??= requireCjs('@segment/actions-core') as ActionsCoreModule;
  try {
    actionsCore.validateSchema({ url }, URL_FIELD_SCHEMA, { schemaKey: 'hookgate:actions-webhook-url' });
    return undefined;
  } catch (error) {
    return (error as Error).message.replace(/^The value at \/url/, 'URL');
  }
}
