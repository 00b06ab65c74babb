import { messageIssues } from '../messages/parse-message.js';
import type { WebhookMessage } from '../messages/types.js';
import type { IdempotencyStore } from './idempotency-store.js';
import type { MessageHandler, ReceiverErrorInfo, ReceiverInput, ReceiverOptions } from './options.js';
import type { Secret } from '../signatures/sign.js';
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
   * Checks a verified, parsed body: the value to hand to a handler, or a refusal. Synchronous
   * unless a schema validates asynchronously. `keyedBy`: the value whose `messageId` keys the dedupe
   * when it is not `message` (a schema's output may drop or change the body's `messageId`).
   */
  check(value: unknown): RulesChecked | Promise<RulesChecked>;
  /** The handler for an accepted message, or `undefined` (acknowledged unhandled). */
  handlerFor(message: unknown): MessageHandler<WebhookMessage, TExtra> | undefined;
  /** How logs and answers name a message (`track message`, `payload`). */
  describe(message: unknown): string;
  /** Bodies holding several messages (Webhooks (Actions) batches); absent where there are none (classic). */
  batches?: BatchRules<TExtra>;
}

/**
 * A destination's rules for a body of several messages (internal).
 *
 * @example
 * if (rules.batches?.isBatch(raw, parsed)) return rules.batches.accept(input, receivedAt, parts);
 */
export interface BatchRules<TExtra> {
  /** Whether a body is a batch, before anything else is read of it. */
  isBatch(raw: string | Uint8Array | undefined, parsed: unknown): boolean;
  /** Verifies, checks and claims a batch under the destination's rules: a refusal, or an accepted message. */
  accept(input: ReceiverInput<TExtra>, receivedAt: Date, parts: ReceiverParts): unknown;
}

/**
 * What a receiver lends its destination's batch rules (internal): its secrets, crypto choice, dedupe
 * store and settings, error reporting, and whether it runs handlers itself.
 *
 * @example
 * const parts: ReceiverParts = { secrets, useSync: true, store, inFlightTtlMs, ttlMs, onError, deadlineMs: 4000, canRunElements: true, enqueues: false, debug: undefined };
 */
export interface ReceiverParts {
  secrets: readonly Secret[] | null;
  useSync: boolean;
  store: IdempotencyStore | null;
  inFlightTtlMs: number;
  ttlMs: number;
  onError: (error: unknown, info: ReceiverErrorInfo) => void;
  /** The receiver's deadline (ms from arrival): checks still running then are answered 503. */
  deadlineMs: number;
  /** Whether the receiver runs handlers itself (not pass-through, not enqueue). */
  canRunElements: boolean;
  /** Whether the receiver hands messages to a queue (`enqueue`): batches are then refused with their own message. */
  enqueues: boolean;
  debug: ((line: string) => void) | undefined;
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
