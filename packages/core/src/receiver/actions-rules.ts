import type { WebhookMessage } from '../messages/types.js';
import type { DestinationRules, RulesChecked } from './destination-rules.js';
import { isBatchBody } from '../actions/batch-rules.js';
import type { MessageHandler } from './options.js';
import type { ActionsReceiverOptions } from './actions-options.js';
import { isSpecEventType, specEventIssues } from '../actions/spec-event-check.js';
import { validateStandard, type StandardSchemaV1 } from '../actions/standard-schema.js';

type Checked = RulesChecked;

function typeOf(v: unknown): string {
  return v === null ? 'null' : Array.isArray(v) ? 'an array' : typeof v === 'object' ? 'an object' : typeof v;
}

/**
 * The Webhooks (Actions) destination's rules (internal): POST, PUT and PATCH; any JSON object; a
 * body whose `type` has a handler in `on` must be a whole Segment event and runs that handler;
 * every other payload runs `onPayload`, checked by `schema` when given.
 *
 * @example
 * const rules = actionsRules(options);
 * await rules.check({ type: 'track', event: 'Signed Up' }); // refusal: not a whole event (with on.track given)
 */
export function actionsRules<TExtra>(
  options: ActionsReceiverOptions<TExtra, StandardSchemaV1 | undefined>,
): DestinationRules<TExtra> {
  const on = options.on as Record<string, MessageHandler<WebhookMessage, TExtra> | undefined> | undefined;
  const onPayload = options.onPayload as MessageHandler<WebhookMessage, TExtra> | undefined;
  const schema = options.schema;
  /** The handler each accepted payload was checked for (a schema's output may not say). */
  const routes = new WeakMap<object, MessageHandler<WebhookMessage, TExtra> | undefined>();

  const eventHandler = (value: Record<string, unknown>) => (isSpecEventType(value.type) ? on?.[value.type] : undefined);

  async function check(value: unknown): Promise<Checked> {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      return {
        refusal: {
          code: 'invalid_payload',
          message: `The body must be a JSON object (the mapping's data, or the whole Segment event); got ${typeOf(value)}.`,
        },
      };
    }
    const record = value as Record<string, unknown>;
    const handler = eventHandler(record);
    if (handler) {
      const issues = specEventIssues(record);
      if (issues.length > 0) {
        return {
          refusal: {
            code: 'invalid_message',
            message:
              `The body is not a whole Segment ${String(record.type)} event (on.${String(record.type)} gets the whole event, the mapping's default data): ` +
              `${issues.map((i) => `${i.path} ${i.message}`).join('; ')}. For a mapped payload, use onPayload.`,
            extra: { issues },
          },
        };
      }
      routes.set(record, handler);
      return { message: record };
    }
    if (schema === undefined || onPayload === undefined) return { message: record };
    const result = await validateStandard(schema, record);
    if ('issues' in result) {
      return {
        refusal: {
          code: 'invalid_payload',
          message: `The payload does not match the schema: ${result.issues.map((i) => `${i.path} ${i.message}`).join('; ')}`,
          extra: { issues: result.issues },
        },
      };
    }
    if (typeof result.value === 'object' && result.value !== null) routes.set(result.value, onPayload);
    // Dedupe by the body's own messageId: the schema's output may have dropped or changed it.
    return { message: result.value, keyedBy: record };
  }

  const rules: DestinationRules<TExtra> = {
    methods: ['POST', 'PUT', 'PATCH'],
    allow: 'POST, PUT, PATCH',
    methodMessage: (method) => `Webhooks (Actions) sends POST, PUT or PATCH; ${method} is not allowed.`,
    check,
    checkMayWait: schema !== undefined && onPayload !== undefined,
    handlerFor(message) {
      if (typeof message === 'object' && message !== null) {
        if (routes.has(message)) return routes.get(message);
        return eventHandler(message as Record<string, unknown>) ?? onPayload;
      }
      return onPayload;
    },
    describe: (message) => {
      if (Array.isArray(message)) return 'batch';
      const type = (message as { type?: unknown } | null)?.type;
      return isSpecEventType(type) ? `${type} event` : 'payload';
    },
    isBatch: isBatchBody,
  };
  return rules;
}
