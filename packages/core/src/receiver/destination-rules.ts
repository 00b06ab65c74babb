import { messageIssues } from '../messages/parse-message.js';
import type { WebhookMessage } from '../messages/types.js';
import type { MaybePromise } from './maybe-promise.js';
import type { MessageHandler, ReceiverOptions } from './options.js';
import type { ReceiverCode } from './responses.js';

/**
 * A refusal a destination's rules give for a body: the answer's code, message and extra fields.
 *
 * @example
 * const refusal: RulesRefusal = { code: 'invalid_message', message: 'The body is not a valid webhook message.' };
 */
export interface RulesRefusal {
  code: ReceiverCode;
  message: string;
  extra?: Record<string, unknown>;
}

/**
 * What a destination's `check` gives (internal): the message to run (and, when it differs, the value
 * whose `messageId` keys the dedupe), or a refusal.
 *
 * @example
 * const checked: RulesChecked = { message: schemaOutput, keyedBy: parsedBody };
 */
export type RulesChecked = { message: unknown; keyedBy?: unknown } | { refusal: RulesRefusal };

/**
 * What differs between destinations, picked once when a receiver is created (internal): allowed
 * methods, what a valid body is, which handler runs it. Signatures, statuses, deadline and dedupe
 * stay the receiver's, the same for every destination.
 *
 * @example
 * const rules = options.destination === 'actions' ? actionsRules(options) : classicRules(options);
 * if (!rules.methods.includes(method.toUpperCase())) return receiverResponse('method_not_allowed', rules.methodMessage(method));
 */
export interface DestinationRules<TExtra> {
  /** Upper-case methods the sender uses; others are answered 405. */
  readonly methods: readonly string[];
  /** The `Allow` header of a 405. */
  readonly allow: string;
  /** The 405's message for `method`. */
  methodMessage(method: string): string;
  /**
   * Checks a verified, parsed body: the value to hand to a handler, or a refusal. `keyedBy`: the value whose `messageId` keys the dedupe
   * when it is not `message` (a schema's output may drop or change the body's `messageId`).
   */
  check(value: unknown): MaybePromise<RulesChecked>;
  /** Whether `check` may wait on user code (a schema validating asynchronously): only then is it raced against the deadline. */
  readonly checkMayWait: boolean;
  /** The handler for an accepted message, or `undefined` (acknowledged unhandled). */
  handlerFor(message: unknown): MessageHandler<WebhookMessage, TExtra> | undefined;
  /** How logs and answers name a message (`track message`, `payload`). */
  describe(message: unknown): string;
  /** Whether a body holds several messages (a Webhooks (Actions) batch); absent where there are none (classic). */
  isBatch?(raw: string | Uint8Array | undefined, parsed: unknown): boolean;
}

/**
 * The classic Webhooks destination's rules: POST only, a valid webhook message, `on[type]` else `onMessage`.
 *
 * @example
 * const rules = classicRules(options);
 * rules.check({ type: 'track' }); // { refusal: { code: 'invalid_message', … } }
 */
export function classicRules<TExtra>(options: ReceiverOptions<TExtra>): DestinationRules<TExtra> {
  return {
    methods: ['POST'],
    allow: 'POST',
    methodMessage: (method) => `The sender only POSTs; ${method} is not allowed.`,
    checkMayWait: false,
    check(value) {
      const issues = messageIssues(value, { strictTimestamps: options.strictTimestamps });
      if (issues.length === 0) return { message: value };
      return {
        refusal: {
          code: 'invalid_message',
          message: `The body is not a valid webhook message: ${issues.map((i) => `${i.path} ${i.message}`).join('; ')}`,
          extra: { issues },
        },
      };
    },
    handlerFor: (message) =>
      (options.on?.[(message as WebhookMessage).type] as MessageHandler<WebhookMessage, TExtra> | undefined) ??
      options.onMessage,
    describe: (message) => `${(message as WebhookMessage).type} message`,
  };
}
