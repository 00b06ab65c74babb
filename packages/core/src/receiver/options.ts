import type { MessageType } from '../messages/schemas.js';
import type { MessageOf, WebhookMessage } from '../messages/types.js';
import type { SignatureForm } from '../signatures/body-forms.js';
import type { Secret } from '../signatures/sign.js';
import type { HeadersLike } from './headers.js';
import type { IdempotencyStore } from './idempotency-store.js';
import type { EnqueueHandoff } from './handoff.js';
import type { Verification } from './verification.js';
import type { Telemetry } from '../telemetry/telemetry.js';
import type { PlanViolation } from '../tracking-plan/compiled-plan.js';
import type { PlanHandlers, ViolationHandler } from '../tracking-plan/plan-types.js';

export type { Verification } from './verification.js';

/**
 * What every handler receives beside the message. `TExtra` is what an adapter adds (e.g. `req`).
 *
 * @example
 * async function onTrack(msg: TrackMessage, ctx: HandlerContext) {
 *   await fetch('https://api.example.com/events', { method: 'POST', body: JSON.stringify(msg), signal: ctx.signal });
 * }
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- `{}`: no extras (the identity of `&`)
export type HandlerContext<TExtra = {}> = {
  /** Fires at the deadline (mode `handle`): stop work the sender will no longer wait for. */
  signal: AbortSignal;
  /** The dedupe key (`messageId`, else a hash of the body), or `undefined` when dedupe is off. */
  dedupeKey: string | undefined;
  /** Which body form and which secret verified the signature. */
  verification: Verification;
  /** When the request reached the receiver. */
  receivedAt: Date;
  /** Reads a request header (case-insensitive). */
  header(name: string): string | undefined;
  /** How the message breaks the tracking plan (`trackingPlan`); empty when it does not, or without a plan. */
  violations: readonly PlanViolation[];
  /** Whether the tracking plan has a rule for the message (false without a plan). */
  planned: boolean;
  /**
   * Where the body held a number JSON parsing changed (`properties.orderId`, `properties.items[0].id`,
   * `properties["order.id"]`): an integer beyond 2^53 − 1 such as `12345678901234567890` (read as
   * 12345678901234567000), or any number whose value, written back, is not the number sent (`1e400`,
   * `0.1000000000000000055511151231257827`). Found in the raw body, so empty when a framework parsed
   * it before hookgate; empty when none. With `bigNumbers: 'string'` these places hold the exact text.
   */
  lossyNumbers: readonly string[];
} & TExtra;

/**
 * A handler for one message type. Throwing answers 500 (the sender retries).
 *
 * @example
 * const onTrack: MessageHandler<TrackMessage> = (msg, ctx) => console.log(msg.event, ctx.dedupeKey);
 * createReceiver({ secret, on: { track: onTrack } });
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- `{}`: no extras (the identity of `&`)
export type MessageHandler<M, TExtra = {}> = (message: M, context: HandlerContext<TExtra>) => unknown;

/**
 * Handlers per message type; each receives its message already narrowed.
 *
 * @example
 * const on: MessageHandlers = {
 *   track: (msg) => console.log(msg.event),
 *   delete: (msg) => console.log('erase', msg.userId),
 * };
 * createReceiver({ secret, on });
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- `{}`: no extras (the identity of `&`)
export type MessageHandlers<TExtra = {}> = {
  [T in MessageType]?: MessageHandler<MessageOf<T>, TExtra>;
};

/**
 * Where the receiver's warnings and debug lines go. Never receives a secret or a whole signature.
 *
 * @example
 * const logger: ReceiverLogger = { warn: (line) => process.stderr.write(`${line}\n`) };
 * createReceiver({ secret, logger, debug: true });
 */
export interface ReceiverLogger {
  warn(line: string): void;
  debug?(line: string): void;
}

/**
 * Details passed to `onError` with a handler's failure.
 *
 * @example
 * const onError = (error: unknown, info: ReceiverErrorInfo) =>
 *   console.error(`${info.phase} failure`, info.message?.type, info.dedupeKey, error);
 * createReceiver({ secret, onError });
 */
export interface ReceiverErrorInfo {
  message?: WebhookMessage;
  dedupeKey?: string | undefined;
  /** `handler` (mode handle), `background` (acknowledged first, or finished after the deadline), `store`. */
  /** `enqueue`: the `enqueue` option threw or was still running at the deadline (answered 503). */
  phase: 'handler' | 'background' | 'store' | 'enqueue';
}

/**
 * Options of `createReceiver`.
 *
 * @example
 * const options: ReceiverOptions = {
 *   secret: [process.env.WEBHOOK_SECRET!, process.env.OLD_WEBHOOK_SECRET!],
 *   onMessage: (msg) => console.log(msg.type),
 * };
 * const receiver = createReceiver(options);
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- `{}`: no extras (the identity of `&`)
export interface ReceiverOptions<TExtra = {}, TPlan = unknown> {
  /** Which destination sends: `classic` (default, the Webhooks destination) or `actions` (see `ActionsReceiverOptions`). */
  destination?: 'classic';
  /** The shared secret, or several during a rotation (the first is current). Required unless `insecureSkipVerification`. */
  secret?: Secret | readonly Secret[];
  /**
   * Accept unsigned requests without checking anything. Off by default: a receiver without a secret
   * refuses to start. Only for local experiments; a warning is logged at creation.
   */
  insecureSkipVerification?: boolean;
  /** Handlers per message type, each narrowed (`on: { track(msg) { msg.event } }`); with `trackingPlan`, `on.track` may be keyed by event name. */
  on?: PlanHandlers<NoInfer<TPlan>, MessageHandlers<TExtra>, HandlerContext<TExtra>>;
  /** Segment tracking plan, compiled: `compileTrackingPlan(plan)` from `@hookgate/plans`. Handlers get `ctx.violations` and `ctx.planned`. */
  trackingPlan?: TPlan;
  /** Runs instead of the handler for a message that breaks `trackingPlan`. */
  onViolation?: ViolationHandler<HandlerContext<TExtra>>;
  /** Catch-all: runs for a type without its own handler in `on`. */
  onMessage?: MessageHandler<WebhookMessage, TExtra>;
  /**
   * `handle` (default): run the handler, then answer (200, or 500 if it threw, or 503 at the deadline).
   * `acknowledge`: answer 200 right after verification and run the handler in the background,
   * reporting failures to `onError` (the sender will not retry those).
   */
  mode?: 'handle' | 'acknowledge';
  /**
   * Durable handoff: instead of running handlers, store each verified message with this function
   * (e.g. `enqueueTo(queue)` from `@hookgate/bullmq`) and answer 200 only once it resolved; 503 if it
   * throws or is still running at the deadline. Handlers then run in your workers, not here. The
   * queue is then the dedupe (keyed by the dedupe key): no in-memory store unless `dedupe` gives one.
   */
  enqueue?: EnqueueHandoff;
  /** Milliseconds before the receiver answers 503 for a still-running handler. Default 4000; 1 to 4999. */
  deadlineMs?: number;
  /** Largest accepted body in bytes (413 above). Default 1 MiB, well above the 32 KB call limit. */
  maxBodyBytes?: number;
  /** Dedupe of retried deliveries; `false` turns it off. Default: in memory, 5 h. */
  dedupe?: false | DedupeOptions;
  /** Body forms tried by verification, in order. Default raw, stringify, sorted. */
  signatureForms?: readonly SignatureForm[];
  /**
   * Also try re-serialized forms when the raw bytes are there. Default false: only the raw bytes can
   * match them, so bytes changed after signing are refused and a forgery costs one HMAC per secret.
   */
  allowReserializedWithRawBody?: boolean;
  /** Require the sender's exact UTC-with-milliseconds timestamps. Default false. */
  strictTimestamps?: boolean;
  /** Called with every handler failure (also in the background). Default: logs the error. */
  onError?: (error: unknown, info: ReceiverErrorInfo) => void;
  /** Explain signature mismatches in the log. Default: on when `DEBUG` names `hookgate`. */
  debug?: boolean;
  /**
   * Where warnings and debug lines go (among them one warning a minute per cause of signature
   * failures). Default: `console.warn` / `console.debug`; `false`: nothing is logged.
   */
  logger?: ReceiverLogger | false;
  /** `auto` (default): sync `node:crypto` where present, else Web Crypto. `web` forces Web Crypto. */
  crypto?: 'auto' | 'web';
  /**
   * Numbers JSON parsing would change (`12345678901234567890` becomes 12345678901234567000; see
   * `ctx.lossyNumbers`). `number` (default): keep them as `JSON.parse` gives them; handlers still get
   * their paths in `ctx.lossyNumbers`. `string`: hand them to handlers, schemas and `enqueue` as their
   * exact text, a string. Other numbers stay numbers. The signature is checked over the raw bytes
   * either way.
   *
   * @example
   * createReceiver({
   *   secret,
   *   bigNumbers: 'string',
   *   on: { track: (msg, ctx) => console.log(msg.properties.orderId, ctx.lossyNumbers) }, // '12345678901234567890' ['properties.orderId']
   * });
   */
  bigNumbers?: 'number' | 'string';
  /**
   * Reports every answered delivery (a span and metrics with `openTelemetry()` from
   * `@hookgate/otel`): its answer code, status, message type and id, dedupe outcome, plan violations,
   * the handler's and the queue's time. Never the body, a secret or the signature. Default: none.
   *
   * @example
   * import { openTelemetry } from '@hookgate/otel';
   * createReceiver({ secret, telemetry: openTelemetry(), on: { track: (msg) => save(msg) } });
   */
  telemetry?: Telemetry;
}

/**
 * Dedupe settings.
 *
 * @example
 * const dedupe: DedupeOptions = { store: new MemoryIdempotencyStore(), ttlMs: 6 * 60 * 60 * 1000 };
 * createReceiver({ secret, dedupe });
 */
export interface DedupeOptions {
  /** The store; default a `MemoryIdempotencyStore`. Use a shared store on several instances. */
  store?: IdempotencyStore;
  /** How long a handled key is remembered. Default 5 h (the sender retries for at most 4 h). */
  ttlMs?: number;
  /** How long a claim of a message being handled lasts if its instance dies. Default 60 s. */
  inFlightTtlMs?: number;
}

/**
 * What an adapter passes to `handle` / `accept`.
 *
 * @example
 * const input: ReceiverInput = { method: 'POST', headers: req.headers, rawBody: await readBody(req, receiver.maxBodyBytes) };
 * writeNodeResponse(res, await receiver.handle(input));
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- `{}`: no extras (the identity of `&`)
export interface ReceiverInput<TExtra = {}> {
  method: string;
  headers: HeadersLike;
  /** The body bytes as received: give them whenever the framework still has them. */
  rawBody?: Uint8Array | string;
  /** The body a JSON parser already produced (e.g. after `express.json()`). */
  parsedBody?: unknown;
  /**
   * How to parse `rawBody` once the signature is verified, when no `parsedBody` is given; it throws
   * on bad JSON (answered 400 `invalid_json` with its message). Default `JSON.parse`. Adapters give
   * their framework's parser here to keep its protections (Fastify: prototype poisoning).
   */
  parse?: (text: string) => unknown;
  /** What the adapter adds to each handler's context (e.g. `{ req, res }`). */
  context?: TExtra;
  /** When the request arrived (`Date.now()` before its body was read): the deadline counts from it. Default: now. */
  receivedAt?: number;
}

/**
 * Default deadline: well inside the sender's 5 s budget.
 *
 * @example
 * // Give downstream calls less time than the receiver's deadline, so they fail before its 503.
 * const signal = AbortSignal.timeout(DEFAULT_DEADLINE_MS - 500);
 */
export const DEFAULT_DEADLINE_MS = 4000;
/**
 * The sender's budget: no deadline may reach it.
 *
 * @example
 * createReceiver({ secret, deadlineMs: SENDER_TIMEOUT_MS - 500 }); // deadlineMs must stay below it
 */
export const SENDER_TIMEOUT_MS = 5000;
/**
 * Default body limit (1 MiB).
 *
 * @example
 * const raw = await readBody(request.body, DEFAULT_MAX_BODY_BYTES);
 */
export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;
/**
 * Default dedupe memory: 5 h, beyond the sender's 4 h retry window.
 *
 * @example
 * createReceiver({ secret, dedupe: { store, ttlMs: 2 * DEFAULT_DEDUPE_TTL_MS } });
 */
export const DEFAULT_DEDUPE_TTL_MS = 5 * 60 * 60 * 1000;
/**
 * Default lifetime of an in-flight claim.
 *
 * @example
 * const state = await store.claim('id:m1', DEFAULT_IN_FLIGHT_TTL_MS);
 */
export const DEFAULT_IN_FLIGHT_TTL_MS = 60_000;

/** Every option of `createReceiver`; the type makes the list complete. */
const RECEIVER_OPTIONS = {
  secret: true,
  insecureSkipVerification: true,
  on: true,
  trackingPlan: true,
  onViolation: true,
  onMessage: true,
  mode: true,
  enqueue: true,
  deadlineMs: true,
  maxBodyBytes: true,
  dedupe: true,
  signatureForms: true,
  allowReserializedWithRawBody: true,
  strictTimestamps: true,
  onError: true,
  debug: true,
  logger: true,
  crypto: true,
  bigNumbers: true,
  destination: true,
  telemetry: true,
} as const satisfies Record<keyof ReceiverOptions, true>;

/**
 * The names `createReceiver` accepts, in the order the docs list them.
 *
 * @example
 * const adapterOptions = [...RECEIVER_OPTION_NAMES, 'path'];
 */
export const RECEIVER_OPTION_NAMES: readonly (keyof ReceiverOptions)[] = Object.keys(
  RECEIVER_OPTIONS,
) as (keyof ReceiverOptions)[];
