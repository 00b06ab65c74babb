import { MESSAGE_TYPES, type MessageType } from '../messages/schemas.js';
import type { MessageOf, WebhookMessage } from '../messages/types.js';
import type { SignatureForm } from '../signatures/body-forms.js';
import type { Secret } from '../signatures/sign.js';
import type { HeadersLike } from './headers.js';
import type { IdempotencyStore } from './idempotency-store.js';
import type { EnqueueHandoff } from './handoff.js';
import type { Verification } from './verification.js';
import { optionNames, rejectUnknownNames } from '../options/nearest-name.js';
import { SPEC_EVENT_TYPES } from '../actions/spec-events.js';
import { isStandardSchema } from '../actions/standard-schema.js';
import type { PlanViolation } from '../tracking-plan/json-schema-validator.js';
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
} & TExtra;

/**
 * A handler for one message type. Throwing answers 500 (the sender retries).
 *
 * @example
 * const onTrack: MessageHandler<TrackMessage> = (msg, ctx) => console.log(msg.event, ctx.dedupeKey);
 * createReceiver({ secret, on: { track: onTrack } });
 */
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
  /** Segment tracking plan (its JSON, or `trackingPlan` from `hookgate types`): handlers get `ctx.violations` and `ctx.planned`. */
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
  /** Where warnings and debug lines go. Default: `console.warn` / `console.debug`. */
  logger?: ReceiverLogger;
  /** `auto` (default): sync `node:crypto` where present, else Web Crypto. `web` forces Web Crypto. */
  crypto?: 'auto' | 'web';
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
  destination: true,
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

const DEDUPE_OPTIONS = { store: true, ttlMs: true, inFlightTtlMs: true } as const satisfies Record<
  keyof DedupeOptions,
  true
>;
const DEDUPE_OPTION_NAMES = Object.keys(DEDUPE_OPTIONS);

/** The names only `destination: 'actions'` takes (see `ActionsReceiverOptions`). */
const ACTIONS_OPTION_NAMES = ['onPayload', 'schema', 'insecureAcceptBatches'] as const;

function checkActionsOnly(options: Record<string, unknown>, caller: string): void {
  if (options.onPayload !== undefined && typeof options.onPayload !== 'function') {
    throw new TypeError(
      `${caller}: onPayload must be a function (payload, ctx) => …; got ${describe(options.onPayload)}.`,
    );
  }
  if (options.schema !== undefined && !isStandardSchema(options.schema)) {
    throw new TypeError(
      `${caller}: schema must be a Standard Schema (a Zod, Valibot, ArkType or TypeBox schema, …: an object with "~standard"); got ${describe(options.schema)}.`,
    );
  }
  if (options.schema !== undefined && options.onPayload === undefined) {
    throw new TypeError(
      `${caller}: schema checks the payloads onPayload gets; give onPayload too (whole events in on are checked against the Segment Spec).`,
    );
  }
  const batches = options.insecureAcceptBatches;
  if (batches !== undefined && typeof batches !== 'boolean' && batches !== 'including-unsigned') {
    throw new TypeError(
      `${caller}: insecureAcceptBatches must be true, false or 'including-unsigned'; got ${describe(batches)}.`,
    );
  }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A plain copy without the names whose value is `null` or `undefined`: `null` means "not given". */
function withoutNulls(value: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of optionNames(value)) if (value[key] != null) out[key] = value[key];
  return out;
}

function describe(value: unknown): string {
  if (typeof value === 'function') return 'a function';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return JSON.stringify(value.length > 20 ? `${value.slice(0, 3)}…` : value);
  return value === null ? 'null' : typeof value === 'object' ? 'an object' : String(value);
}

/**
 * Checks the shape of a receiver's options before anything else: an options object is given, every
 * name is an option (adapters add theirs in `adapterOptions`), every key of `on` is a message type
 * and every handler a function, the booleans are booleans. Throws an error naming the option, the
 * nearest valid name and the fix. Returns a copy in which `null` is the same as leaving an optional
 * field out (at the top level, in `on` and in `dedupe`). Values (ranges, secrets) are checked by
 * `createReceiver` itself.
 *
 * @example
 * const options = checkReceiverOptions(given, { caller: 'hookgate()', adapterOptions: ['path'] });
 * const receiver = createReceiver(options);
 */
export function checkReceiverOptions<T extends object = ReceiverOptions>(
  given: unknown,
  { caller = 'createReceiver()', adapterOptions = [] }: { caller?: string; adapterOptions?: readonly string[] } = {},
): T {
  if (!isPlainObject(given)) {
    throw new TypeError(
      `${caller} needs an options object with your shared secret, e.g. ${caller.replace(/\(\)$/, '')}({ secret: process.env.WEBHOOK_SECRET, on: { track: (msg) => console.log(msg.event) } }); ` +
        `to accept unsigned requests instead (local experiments only), pass { insecureSkipVerification: true }. Got ${describe(given)}.`,
    );
  }
  const actions = given.destination === 'actions';
  if (given.destination != null && given.destination !== 'classic' && !actions) {
    throw new TypeError(
      `${caller}: destination must be 'classic' (the default, the Webhooks destination) or 'actions' (Webhooks (Actions)); got ${describe(given.destination)}.`,
    );
  }
  if (actions) {
    for (const name of ['onMessage', 'strictTimestamps'] as const) {
      if (given[name] != null) {
        throw new TypeError(
          `${caller}: ${name} is an option of the classic destination; with destination: 'actions' ` +
            (name === 'onMessage'
              ? 'use onPayload (any payload) or on (whole Segment events).'
              : 'remove it (Segment events carry their own timestamps).'),
        );
      }
    }
  }
  const names = actions
    ? [...RECEIVER_OPTION_NAMES.filter((n) => n !== 'onMessage' && n !== 'strictTimestamps'), ...ACTIONS_OPTION_NAMES]
    : RECEIVER_OPTION_NAMES;
  rejectUnknownNames(given, [...names, ...adapterOptions], { caller });
  const options = withoutNulls(given);

  if (options.on !== undefined) {
    if (!isPlainObject(options.on)) {
      throw new TypeError(
        `${caller}: on must be an object of handlers per message type, e.g. { track: (msg) => … }; got ${describe(options.on)}.`,
      );
    }
    if (actions) rejectUnknownNames(options.on, SPEC_EVENT_TYPES, { caller, path: 'on', kind: 'Segment event type' });
    else rejectUnknownNames(options.on, MESSAGE_TYPES, { caller, path: 'on', kind: 'message type' });
    const on = withoutNulls(options.on);
    for (const [type, handler] of Object.entries(on)) {
      if (typeof handler !== 'function' && !(type === 'track' && isPlainObject(handler))) {
        throw new TypeError(`${caller}: on.${type} must be a function (msg, ctx) => …; got ${describe(handler)}.`);
      }
    }
    options.on = on;
  }
  if (actions) checkActionsOnly(options, caller);
  for (const name of ['onMessage', 'onError', 'enqueue', 'onViolation'] as const) {
    if (options[name] !== undefined && typeof options[name] !== 'function') {
      throw new TypeError(`${caller}: ${name} must be a function; got ${describe(options[name])}.`);
    }
  }
  for (const name of [
    'insecureSkipVerification',
    'allowReserializedWithRawBody',
    'strictTimestamps',
    'debug',
  ] as const) {
    if (options[name] !== undefined && typeof options[name] !== 'boolean') {
      throw new TypeError(`${caller}: ${name} must be true or false; got ${describe(options[name])}.`);
    }
  }
  const logger = options.logger as Record<string, unknown> | undefined;
  if (
    logger !== undefined &&
    (typeof logger !== 'object' ||
      typeof logger.warn !== 'function' ||
      (logger.debug != null && typeof logger.debug !== 'function'))
  ) {
    throw new TypeError(
      `${caller}: logger must be an object with a warn(line) method (debug(line) optional), e.g. logger: console; got ${describe(logger)}.`,
    );
  }
  if (isPlainObject(options.dedupe)) {
    rejectUnknownNames(options.dedupe, DEDUPE_OPTION_NAMES, { caller, path: 'dedupe' });
    options.dedupe = withoutNulls(options.dedupe);
  } else if (options.dedupe !== undefined && options.dedupe !== false) {
    throw new TypeError(
      `${caller}: dedupe must be false (off) or an object { store?, ttlMs?, inFlightTtlMs? }; got ${describe(options.dedupe)}.`,
    );
  }
  return options as T;
}
