import type {
  ActionsReceiverOptions,
  AnyReceiverOptions,
  ReceiverDestination,
  ReceiverOptionsFor,
} from '../actions/actions-options.js';
import { actionsRules } from '../actions/actions-rules.js';
import type { StandardSchemaV1 } from '../actions/standard-schema.js';
import type { WebhookMessage } from '../messages/types.js';
import { explainMismatch } from '../signatures/explain-mismatch.js';
import { reserializedMatch } from '../signatures/reserialized-match.js';
import { nodeCrypto } from '../signatures/node-crypto.js';
import type { Secret } from '../signatures/sign.js';
import {
  verifyDetailed,
  verifyDetailedAsync,
  type DetailedVerifyResult,
  type VerifyResult,
} from '../signatures/verify.js';
import { SIGNATURE_FORMS, type SignatureForm } from '../signatures/body-forms.js';
import { beforeDeadline, DEADLINE_PASSED } from './before-deadline.js';
import { applyTrackingPlan } from './check-tracking-plan.js';
import { dedupeKey, messageIdKey } from './dedupe-key.js';
import { classicRules, type DestinationRules, type ReceiverParts } from './destination-rules.js';
import { RequestContext } from './handler-context.js';
import { getHeader } from './headers.js';
import { MemoryIdempotencyStore, type IdempotencyStore } from './idempotency-store.js';
import { HANDLED, NODE_ENTRY, STORED, type NodeEntry } from './node-entry.js';
import {
  DEFAULT_DEADLINE_MS,
  DEFAULT_DEDUPE_TTL_MS,
  DEFAULT_IN_FLIGHT_TTL_MS,
  DEFAULT_MAX_BODY_BYTES,
  SENDER_TIMEOUT_MS,
  checkReceiverOptions,
  type HandlerContext,
  type MessageHandler,
  type ReceiverInput,
  type ReceiverErrorInfo,
  type ReceiverLogger,
  type ReceiverOptions,
  type Verification,
} from './options.js';
import type { EnqueueHandoff } from './handoff.js';
import { RequestHandoff } from './request-handoff.js';
import { BodyDeadlineError, BodyTooLargeError, readBody } from './read-body.js';
import { bodyDeadlineResponse, fixedResponse, receiverResponse, type ReceiverResponse } from './responses.js';
import { utf8ByteLength } from './utf8-length.js';

/**
 * The outcome of `accept`: an answer to send now, or a verified message to hand to a handler.
 *
 * @example
 * const result: AcceptResult = await receiver.accept({ method: 'POST', headers, rawBody });
 * if (result.kind === 'response') return result.response;
 * return receiver.run(result, (msg) => console.log(msg.type));
 */
export type AcceptResult<TExtra = {}> =
  | { kind: 'response'; response: ReceiverResponse }
  | {
      kind: 'message';
      message: WebhookMessage;
      /**
       * The exact text or bytes the signature matched (the raw body, or the re-serialized form that
       * matched); `undefined` when verification is off. Hand these on, never other bytes of the request.
       */
      signedBody: string | Uint8Array | undefined;
      context: HandlerContext<TExtra>;
      /** Records the handler's outcome in the dedupe store: `handled` remembers it, `failed` frees it for the retry. */
      settle(outcome: 'handled' | 'failed'): Promise<void>;
      /** Fires the handler's `AbortSignal`. */
      abort(reason?: unknown): void;
    };

/**
 * A verified message that `accept` handed over, to run with `run` (or settle by hand).
 *
 * @example
 * async function enqueue(accepted: AcceptedMessage) {
 *   try { await queue.push(accepted.message); await accepted.settle('handled'); }
 *   catch (error) { await accepted.settle('failed'); throw error; }
 * }
 */
export type AcceptedMessage<TExtra = {}> = Extract<AcceptResult<TExtra>, { kind: 'message' }>;

/**
 * A runtime-neutral webhook receiver: verifies, validates, dedupes, runs handlers, answers.
 *
 * @example
 * const receiver: Receiver = createReceiver({ secret, onMessage: (msg) => console.log(msg.type) });
 * Bun.serve({ port: 3000, fetch: (request) => receiver.fetch(request) });
 * process.on('SIGTERM', () => void receiver.drain().then(() => process.exit(0)));
 */
export interface Receiver<TExtra = {}> {
  /** Runs the whole status table over one request and returns the answer. */
  handle(input: ReceiverInput<TExtra>): Promise<ReceiverResponse>;
  /** Verification, validation and dedupe only; for adapters that hand the message to their own chain. */
  accept(input: ReceiverInput<TExtra>): Promise<AcceptResult<TExtra>>;
  /**
   * The checks that need no body (method, content type, declared length): the answer to send at
   * once, or `undefined` to go on and read the body. Lets an adapter skip reading bodies it refuses.
   */
  precheck(method: string, headers: ReceiverInput['headers']): ReceiverResponse | undefined;
  /**
   * Runs `handler` for a message from `accept` exactly as `handle` runs the configured handlers:
   * under the mode and the deadline, settling the dedupe claim, reporting failures to `onError`.
   * Returns the answer (200, 500, or 503 at the deadline). For adapters whose "handler" is the rest
   * of the framework's chain (Express `next()`, Hono `await next()`, a Fastify route after a hook).
   */
  run(accepted: AcceptedMessage<TExtra>, handler: MessageHandler<WebhookMessage, TExtra>): Promise<ReceiverResponse>;
  /** A Fetch handler: `Bun.serve({ fetch: receiver.fetch })`, `Deno.serve(receiver.fetch)`, Workers. */
  fetch(request: Request, context?: TExtra): Promise<Response>;
  /** Resolves when every handler still running in the background has finished (for shutdown). */
  drain(): Promise<void>;
  readonly maxBodyBytes: number;
  readonly deadlineMs: number;
  /** `enqueue` when the `enqueue` option is given (a durable handoff instead of handlers). */
  readonly mode: 'handle' | 'acknowledge' | 'enqueue';
}

const JSON_CONTENT_TYPE = /^application\/(?:[\w.+-]*\+)?json\s*(?:;|$)/i;
const DEADLINE = Symbol('deadline');
/** One fatal UTF-8 decoder for every request: `decode` without `stream` keeps no state between calls. */
const utf8 = new TextDecoder('utf-8', { fatal: true });
const SETTLED: Promise<void> = Promise.resolve();
const ACKNOWLEDGED = { acknowledged: true } as const;
/** The "Stored in the queue." answer in an object of its own (its text is `STORED`'s, defined once). */
const storedCopy = (): ReceiverResponse => ({ ...STORED, headers: { ...STORED.headers } });

/** A refusal from `accept`; module level, not a closure per request. */
function refuse(code: Parameters<typeof receiverResponse>[0], message: string, extra?: Record<string, unknown>) {
  return { kind: 'response', response: receiverResponse(code, message, extra) } as const;
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    value !== null &&
    (typeof value === 'object' || typeof value === 'function') &&
    typeof (value as PromiseLike<unknown>).then === 'function'
  );
}

/**
 * Thrown into a handler's `AbortSignal` at the deadline.
 *
 * @example
 * const onTrack: MessageHandler<TrackMessage> = async (msg, { signal }) => {
 *   signal.addEventListener('abort', () => {
 *     if (signal.reason instanceof DeadlineExceededError) console.warn(`${msg.event}: stopped after ${signal.reason.deadlineMs} ms`);
 *   });
 * };
 */
export class DeadlineExceededError extends Error {
  override readonly name = 'DeadlineExceededError';
  constructor(readonly deadlineMs: number) {
    super(`The handler did not finish within ${deadlineMs} ms; the sender was answered 503 and will retry.`);
  }
}

/**
 * Shortens a signature for logs: never log a signature or a secret in full.
 *
 * @example
 * redact('3b5d5c3712955042212b173f8a3b2f4b1e4f8c3a'); // '3b5d5c…(40 chars)'
 */
export function redact(value: string): string {
  return value.length <= 8 ? '…' : `${value.slice(0, 6)}…(${value.length} chars)`;
}

function envDebug(): boolean {
  const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env;
  return /(^|,)\s*hookgate/.test(env?.DEBUG ?? '');
}

function checkOptions<T>(options: ReceiverOptions<T>): {
  secrets: readonly Secret[] | null;
  deadlineMs: number;
  maxBodyBytes: number;
} {
  const deadlineMs = options.deadlineMs ?? DEFAULT_DEADLINE_MS;
  if (!Number.isInteger(deadlineMs) || deadlineMs < 1 || deadlineMs >= SENDER_TIMEOUT_MS) {
    throw new RangeError(
      `deadlineMs must be a whole number of milliseconds from 1 to ${SENDER_TIMEOUT_MS - 1} (the sender gives up at ${SENDER_TIMEOUT_MS} ms); got ${options.deadlineMs}.`,
    );
  }
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  if (!Number.isInteger(maxBodyBytes) || maxBodyBytes < 1) {
    throw new RangeError(`maxBodyBytes must be a whole number of bytes above 0; got ${options.maxBodyBytes}.`);
  }
  if (options.mode !== undefined && options.mode !== 'handle' && options.mode !== 'acknowledge') {
    throw new TypeError(`mode must be 'handle' or 'acknowledge'; got ${JSON.stringify(options.mode)}.`);
  }
  if (options.crypto !== undefined && options.crypto !== 'auto' && options.crypto !== 'web') {
    throw new TypeError(`crypto must be 'auto' or 'web'; got ${JSON.stringify(options.crypto)}.`);
  }
  checkSignatureForms(options.signatureForms);
  checkDedupe(options.dedupe);
  checkEnqueue(options);
  if (options.insecureSkipVerification === true) return { secrets: null, deadlineMs, maxBodyBytes };
  const list = options.secret === undefined ? [] : Array.isArray(options.secret) ? options.secret : [options.secret];
  if (list.length === 0) {
    throw new TypeError(
      "secret is required: pass the Webhooks destination's sharedSecret (or several, during a rotation). " +
        'To accept unsigned requests anyway, set insecureSkipVerification: true.',
    );
  }
  list.forEach((s: unknown, i: number) => {
    if (!(typeof s === 'string' || s instanceof Uint8Array) || s.length === 0) {
      throw new TypeError(
        `secret${list.length > 1 ? `[${i}]` : ''} must be a non-empty string; check the environment variable that holds it.`,
      );
    }
  });
  return { secrets: list as readonly Secret[], deadlineMs, maxBodyBytes };
}

/** `enqueue` replaces handlers: the message is handled by whoever reads the queue, never here. */
function checkEnqueue<T>(options: ReceiverOptions<T>): void {
  if (options.enqueue === undefined) return;
  const handlers = options as { on?: unknown; onMessage?: unknown; onPayload?: unknown };
  if (handlers.on !== undefined || handlers.onMessage !== undefined || handlers.onPayload !== undefined) {
    throw new TypeError(
      'enqueue hands each verified message to a queue, so `on` / `onMessage` / `onPayload` would never run here: ' +
        'remove them and give the handlers to your worker (e.g. createWorker(queueName, { connection, on }) from @hookgate/bullmq).',
    );
  }
  if (options.mode === 'acknowledge') {
    throw new TypeError(
      "enqueue answers 200 once the queue holds the message; remove mode: 'acknowledge' (it would answer before that).",
    );
  }
  if ((options as { insecureAcceptBatches?: unknown }).insecureAcceptBatches) {
    throw new TypeError(
      'insecureAcceptBatches cannot be used with enqueue: each job holds one signed event, and a batch is signed over its first event only. ' +
        'Remove insecureAcceptBatches and turn batching off in the mapping ("Enable Batching" off).',
    );
  }
}

function checkSignatureForms(forms: unknown): void {
  if (forms === undefined) return;
  if (!Array.isArray(forms) || forms.length === 0) {
    throw new TypeError(
      `signatureForms must list at least one of ${SIGNATURE_FORMS.join(', ')}; got ${JSON.stringify(forms)}.`,
    );
  }
  forms.forEach((f: unknown, i) => {
    if (!SIGNATURE_FORMS.includes(f as SignatureForm)) {
      throw new TypeError(
        `signatureForms[${i}] must be one of ${SIGNATURE_FORMS.join(', ')}; got ${JSON.stringify(f)}.`,
      );
    }
  });
}

function checkDedupe(dedupe: unknown): void {
  if (dedupe === undefined || dedupe === false) return;
  if (typeof dedupe !== 'object' || dedupe === null) {
    throw new TypeError(
      `dedupe must be false or an object { store?, ttlMs?, inFlightTtlMs? }; got ${JSON.stringify(dedupe)}.`,
    );
  }
  const d = dedupe as Record<string, unknown>;
  for (const name of ['ttlMs', 'inFlightTtlMs'] as const) {
    const v = d[name];
    if (v !== undefined && !(Number.isInteger(v) && (v as number) > 0)) {
      throw new RangeError(`dedupe.${name} must be a whole number of milliseconds above 0; got ${String(v)}.`);
    }
  }
  const store = d.store as Record<string, unknown> | undefined;
  if (
    store !== undefined &&
    !(store && ['claim', 'complete', 'release'].every((m) => typeof store[m] === 'function'))
  ) {
    throw new TypeError(
      'dedupe.store must have claim, complete and release methods (see IdempotencyStore), or be left out for the in-memory store.',
    );
  }
}

/**
 * Creates a receiver for the Webhooks destination: one status table for every framework and runtime.
 * With `destination: 'actions'`, a receiver for Segment's Webhooks (Actions) destination: POST, PUT and
 * PATCH; whole Segment events to `on`, any mapped payload to `onPayload` (checked by `schema`); batches
 * refused unless `insecureAcceptBatches`. One signature typed by the `destination` given (see
 * `ReceiverOptionsFor`), so a classic receiver's type errors name the classic types.
 *
 * @example
 * import { createReceiver } from '@hookgate/core';
 * const receiver = createReceiver({
 *   secret: process.env.WEBHOOK_SECRET!,
 *   on: {
 *     track: (msg) => console.log(msg.event),
 *     alias: (msg) => console.log(msg['Previous ID'], '→', msg['User ID']),
 *   },
 * });
 * Bun.serve({ port: 3000, fetch: receiver.fetch });
 *
 * const actions = createReceiver({
 *   destination: 'actions',
 *   secret: process.env.WEBHOOK_SECRET!,
 *   on: { track: (event) => console.log(event.event, event.messageId) },
 *   onPayload: (payload) => console.log(payload),
 * });
 */
export function createReceiver<
  TExtra = {},
  S extends StandardSchemaV1 | undefined = undefined,
  D extends ReceiverDestination = 'classic',
  TPlan = unknown,
>(options: ReceiverOptionsFor<D, TExtra, S, TPlan>): Receiver<TExtra>;
export function createReceiver<TExtra = {}>(given: AnyReceiverOptions<TExtra>): Receiver<TExtra> {
  const checkedOptions = applyTrackingPlan(checkReceiverOptions<AnyReceiverOptions<TExtra>>(given));
  // The classic options' view: the receiver's shared settings read the same in both destinations.
  const options = checkedOptions as ReceiverOptions<TExtra>;
  const { secrets, deadlineMs, maxBodyBytes } = checkOptions(options);
  const actions = checkedOptions.destination === 'actions' ? checkedOptions : undefined;
  // The destination's rules, picked once: methods, what a valid body is, which handler runs it.
  const rules: DestinationRules<TExtra> = actions
    ? actionsRules(actions as ActionsReceiverOptions<TExtra, StandardSchemaV1 | undefined>)
    : classicRules(options);
  const enqueue = options.enqueue;
  const mode = enqueue !== undefined ? 'enqueue' : (options.mode ?? 'handle');
  const debug = options.debug ?? envDebug();
  const logger: ReceiverLogger = options.logger ?? {
    warn: (line) => console.warn(line),
    debug: (line) => console.debug(line),
  };
  const onError =
    options.onError ??
    ((error: unknown, info) => {
      const what = info.message ? rules.describe(info.message) : 'message';
      logger.warn(
        `[hookgate] ${info.phase} failure for a ${what}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
      );
    });
  // In enqueue mode the queue is the dedupe by default (the handoff is keyed by the dedupe key, shared by
  // every instance); a store given in `dedupe` still answers retries before they reach the queue.
  const dedupe = options.dedupe === false ? null : (options.dedupe ?? (enqueue !== undefined ? null : {}));
  const store: IdempotencyStore | null = dedupe ? (dedupe.store ?? new MemoryIdempotencyStore()) : null;
  const ttlMs = (dedupe && dedupe.ttlMs) ?? DEFAULT_DEDUPE_TTL_MS;
  const inFlightTtlMs = (dedupe && dedupe.inFlightTtlMs) ?? DEFAULT_IN_FLIGHT_TTL_MS;
  const useSync = options.crypto !== 'web' && nodeCrypto() !== null;
  const settledAlready = (_outcome: 'handled' | 'failed'): Promise<void> => SETTLED;
  const background = new Set<Promise<unknown>>();

  if (secrets === null) {
    logger.warn('[hookgate] insecureSkipVerification is on: this receiver accepts unsigned, unverified requests.');
  }

  const track = (p: Promise<unknown>) => {
    background.add(p);
    void p.finally(() => background.delete(p));
  };

  /** The handler of an accepted message: a batch's own loop over its elements, else the destination's pick. */
  const pickHandler = (
    message: WebhookMessage,
    accepted?: AcceptResult<TExtra>,
  ): MessageHandler<WebhookMessage, TExtra> | undefined =>
    (accepted as { runElements?: MessageHandler<WebhookMessage, TExtra> } | undefined)?.runElements ??
    rules.handlerFor(message);
  const batches = rules.batches;
  // What the destination's batch rules need of the receiver (Webhooks (Actions) only).
  const parts: ReceiverParts | undefined = batches && {
    secrets,
    useSync,
    store,
    inFlightTtlMs,
    ttlMs,
    onError: (error: unknown, info: ReceiverErrorInfo) => onError(error, info),
    deadlineMs,
    canRunElements: enqueue === undefined && (actions?.on !== undefined || actions?.onPayload !== undefined),
    enqueues: enqueue !== undefined,
    debug: debug ? (line: string) => logger.warn(line) : undefined,
  };

  const allowReserialized = options.allowReserializedWithRawBody === true;

  const explain = (signature: string, raw: string | Uint8Array | undefined, result: VerifyResult) => {
    if (!debug || result.ok) return;
    const head = `[hookgate] signature ${result.reason} (X-Signature ${redact(signature)}): ${result.message}`;
    if (result.reason !== 'mismatch') {
      logger.warn(head); // malformed: the header is the problem, not the body
      return;
    }
    if (raw === undefined) {
      logger.warn(
        `${head} The raw body was not available (a body parser ran first), so only re-serializations were tried; mount hookgate before body parsers to verify the exact bytes.`,
      );
      return;
    }
    const findings = explainMismatch(raw);
    const lines = findings.slice(0, 10).map((f) => `  ${f.path} [${f.cause}] ${f.message}`);
    // Debug only (it costs a parse and more HMACs): would a re-serialized form have matched?
    const other = allowReserialized || secrets === null ? undefined : reserializedMatch(signature, secrets, raw);
    if (other !== undefined) {
      logger.warn(
        `${head} The signature matches the ${other.form === 'stringify' ? 'JSON.stringify' : 'key-sorted'} form of this body, not its raw bytes: ` +
          `the raw bytes differ from the signed form (first difference at byte ${other.at}), so they were changed after signing and are refused. ` +
          'Only the raw bytes can match when they are available; allowReserializedWithRawBody accepts re-encoded bytes (its cost: the receiver docs, Options).' +
          (lines.length > 0 ? `\n${lines.join('\n')}` : ''),
      );
      return;
    }
    // A too-deep finding alone says where the explanation stopped, not that the body differs there.
    const stoppedAtOnce = findings.length === 1 && findings[0]?.cause === 'too-deep';
    logger.warn(
      findings.length === 0
        ? `${head} The body round-trips through JSON unchanged, so the secret is the likely difference (check for a rotated or mistyped secret).`
        : stoppedAtOnce
          ? `${head} The body nests too deeply to explain where it differs from its JSON.stringify form:\n${lines.join('\n')}`
          : `${head} Where the raw body and its JSON.stringify form differ:\n${lines.join('\n')}`,
    );
  };

  /** The checks that need no body: method, content type, declared length. */
  function precheck(method: string, headers: ReceiverInput['headers']): ReceiverResponse | undefined {
    if (method !== 'POST' && !rules.methods.includes(method.toUpperCase())) {
      const response = receiverResponse('method_not_allowed', rules.methodMessage(method));
      return { ...response, headers: { ...response.headers, allow: rules.allow } };
    }
    const contentType = getHeader(headers, 'content-type');
    if (typeof contentType !== 'string' || !JSON_CONTENT_TYPE.test(contentType)) {
      return receiverResponse(
        'unsupported_media_type',
        `Content-Type must be application/json; got ${typeof contentType === 'string' ? JSON.stringify(contentType) : 'none'}.`,
      );
    }
    const declared = Number(getHeader(headers, 'content-length'));
    if (Number.isFinite(declared) && declared > maxBodyBytes) {
      return receiverResponse('payload_too_large', `The body is larger than the limit of ${maxBodyBytes} bytes.`);
    }
    return undefined;
  }

  /**
   * `accept`'s work, synchronous wherever nothing has to be awaited (node:crypto verification and
   * no dedupe store): the common case then costs no promise and no microtask per step.
   */
  function acceptNow(input: ReceiverInput<TExtra>): AcceptResult<TExtra> | Promise<AcceptResult<TExtra>> {
    const refused = precheck(input.method, input.headers);
    if (refused) return { kind: 'response', response: refused };
    return acceptPrechecked(input);
  }

  /** `acceptNow` after `precheck` passed (the node listener runs `precheck` before reading the body). */
  function acceptPrechecked(input: ReceiverInput<TExtra>): AcceptResult<TExtra> | Promise<AcceptResult<TExtra>> {
    const respond = refuse;
    const receivedAt = new Date(input.receivedAt ?? Date.now());
    // The budget counts from arrival: a body that took it all to arrive is not handled any more.
    if (input.receivedAt !== undefined && Date.now() - input.receivedAt >= deadlineMs) {
      return respond(
        'deadline_exceeded',
        `The request took more than ${deadlineMs} ms to arrive; the sender will retry.`,
      );
    }
    const raw = input.rawBody;
    const rawSize = raw === undefined ? undefined : typeof raw === 'string' ? utf8ByteLength(raw) : raw.byteLength;
    if ((rawSize ?? 0) > maxBodyBytes) {
      return respond('payload_too_large', `The body is larger than the limit of ${maxBodyBytes} bytes.`);
    }
    const hasParsed = input.parsedBody !== undefined;
    if (raw === undefined && !hasParsed) {
      return respond('invalid_json', 'The request has no body.');
    }

    // A body of several messages (a Webhooks (Actions) batch): the destination's own signature and dedupe rules.
    if (batches && parts && batches.isBatch(raw, input.parsedBody))
      return batches.accept(input, receivedAt, parts) as AcceptResult<TExtra> | Promise<AcceptResult<TExtra>>;

    // 1. Signature, before the body is trusted in any way.
    if (secrets === null) return afterVerification(input, receivedAt, { form: 'unsigned', secretIndex: -1 }, undefined);
    const signature = getHeader(input.headers, 'x-signature');
    if (signature === undefined || signature === '') {
      return respond('missing_signature', 'The X-Signature header is missing; the request is not signed.');
    }
    const verifyInput = {
      signature,
      secret: secrets,
      rawBody: raw,
      parsedBody: input.parsedBody,
      forms: options.signatureForms,
      allowReserialized,
    };
    if (useSync) return verified(input, receivedAt, signature, verifyDetailed(verifyInput));
    return verifyDetailedAsync(verifyInput).then((detailed) => verified(input, receivedAt, signature, detailed));
  }

  function verified(
    input: ReceiverInput<TExtra>,
    receivedAt: Date,
    signature: string | readonly string[],
    { result, signed }: DetailedVerifyResult,
  ): AcceptResult<TExtra> | Promise<AcceptResult<TExtra>> {
    if (!result.ok) {
      explain(typeof signature === 'string' ? signature : String(signature), input.rawBody, result);
      // A mismatch's text is one of a few fixed messages: made once, so that a forgery costs little more
      // than its HMAC (a malformed header's message names its length: not cached).
      if (result.reason === 'mismatch')
        return { kind: 'response', response: fixedResponse('invalid_signature', result.message) };
      return refuse(result.reason === 'missing' ? 'missing_signature' : 'invalid_signature', result.message);
    }
    return afterVerification(input, receivedAt, { form: result.form, secretIndex: result.secretIndex }, signed);
  }

  function afterVerification(
    input: ReceiverInput<TExtra>,
    receivedAt: Date,
    verification: Verification,
    signed: string | Uint8Array | undefined,
  ): AcceptResult<TExtra> | Promise<AcceptResult<TExtra>> {
    const respond = refuse;
    const raw = input.rawBody;
    const hasParsed = input.parsedBody !== undefined;
    // 2. The body: JSON, then a valid message.
    let value: unknown = input.parsedBody;
    if (raw !== undefined && !hasParsed) {
      try {
        const text = typeof raw === 'string' ? raw : utf8.decode(raw);
        value = input.parse === undefined ? JSON.parse(text) : input.parse(text);
      } catch (e) {
        return respond('invalid_json', `The body is not valid JSON: ${e instanceof Error ? e.message : String(e)}`);
      }
    }
    const checked = rules.check(value);
    if (checked instanceof Promise) {
      // An async schema is part of the time the sender waits: past the deadline, 503 (the sender retries).
      return beforeDeadline(checked, receivedAt.getTime(), deadlineMs).then(
        (c) =>
          c === DEADLINE_PASSED
            ? refuse(
                'deadline_exceeded',
                `The schema did not finish checking the payload within ${deadlineMs} ms; the sender will retry.`,
              )
            : afterCheck(input, receivedAt, verification, signed, c),
        checkFailed,
      );
    }
    return afterCheck(input, receivedAt, verification, signed, checked);
  }

  /** A user's schema threw while checking the body: reported like a handler failure, answered 500 (the sender retries). */
  function checkFailed(error: unknown): AcceptResult<TExtra> {
    onError(error, { phase: 'handler' });
    return refuse(
      'handler_error',
      'The schema failed while checking the payload (see onError); the sender will retry.',
    );
  }

  function afterCheck(
    input: ReceiverInput<TExtra>,
    receivedAt: Date,
    verification: Verification,
    signed: string | Uint8Array | undefined,
    checked: Awaited<ReturnType<DestinationRules<TExtra>['check']>>,
  ): AcceptResult<TExtra> | Promise<AcceptResult<TExtra>> {
    if ('refusal' in checked) return refuse(checked.refusal.code, checked.refusal.message, checked.refusal.extra);
    const message = checked.message as WebhookMessage;
    if (!store) return acceptedMessage(input, receivedAt, verification, message, undefined, signed);
    return claimed(input, receivedAt, verification, message, store, signed, checked.keyedBy ?? message);
  }

  // 3. Dedupe: claim the message, or answer for the earlier delivery.
  async function claimed(
    input: ReceiverInput<TExtra>,
    receivedAt: Date,
    verification: Verification,
    message: WebhookMessage,
    store: IdempotencyStore,
    signed: string | Uint8Array | undefined,
    keyedBy: unknown,
  ): Promise<AcceptResult<TExtra>> {
    const respond = refuse;
    // Keyed by what was signed: the bytes or re-serialized text that matched, so every byte form of
    // one signed message (re-encoded, then parsed by a framework) gets the same key; the messageId is
    // the body's (`keyedBy`), not a schema output's.
    const key = await dedupeKey(keyedBy, signed ?? input.rawBody ?? JSON.stringify(message));
    let claim;
    try {
      claim = await store.claim(key, inFlightTtlMs);
    } catch (error) {
      onError(error, { message, dedupeKey: key, phase: 'store' });
      return respond('store_unavailable', 'The dedupe store is unavailable; the sender will retry.');
    }
    if (claim === 'done') return respond('duplicate', 'Already handled; not run again.', { duplicate: true });
    if (claim === 'in-flight')
      return respond('in_flight', 'The same message is being handled right now; the sender will retry.');
    return acceptedMessage(input, receivedAt, verification, message, key, signed);
  }

  function acceptedMessage(
    input: ReceiverInput<TExtra>,
    receivedAt: Date,
    verification: Verification,
    message: WebhookMessage,
    key: string | undefined,
    signed: string | Uint8Array | undefined,
  ): AcceptedMessage<TExtra> {
    const context = new RequestContext(input.context, input.headers, key, verification, receivedAt);
    const settle =
      !store || key === undefined
        ? settledAlready
        : async (outcome: 'handled' | 'failed') => {
            try {
              if (outcome === 'handled') await store.complete(key, ttlMs);
              else await store.release(key);
            } catch (error) {
              onError(error, { message, dedupeKey: key, phase: 'store' });
            }
          };
    const abort = (reason?: unknown) => RequestContext.abort(context, reason);
    return {
      kind: 'message',
      message,
      signedBody: signed,
      context: context as unknown as HandlerContext<TExtra>,
      settle,
      abort,
    };
  }

  async function accept(input: ReceiverInput<TExtra>): Promise<AcceptResult<TExtra>> {
    return acceptNow(input);
  }

  function handle(input: ReceiverInput<TExtra>): Promise<ReceiverResponse> {
    let accepted: AcceptResult<TExtra> | Promise<AcceptResult<TExtra>>;
    try {
      accepted = acceptNow(input);
    } catch (error) {
      return Promise.reject(error);
    }
    return accepted instanceof Promise ? accepted.then(handleAccepted) : handleAccepted(accepted);
  }

  async function handleUnhandled(accepted: AcceptedMessage<TExtra>): Promise<ReceiverResponse> {
    await accepted.settle('handled');
    return receiverResponse('unhandled', `No handler for ${rules.describe(accepted.message)}s; acknowledged.`, {
      handled: false,
    });
  }

  function handleAccepted(accepted: AcceptResult<TExtra>): Promise<ReceiverResponse> {
    if (accepted.kind === 'response') return Promise.resolve(accepted.response);
    if (enqueue !== undefined) return runEnqueue(accepted, enqueue);
    const handler = pickHandler(accepted.message, accepted);
    if (!handler) return handleUnhandled(accepted);
    return runAccepted(accepted, handler);
  }

  /** The answer to a handler that finished synchronously (mode `handle`). */
  async function settledOk(settle: AcceptedMessage<TExtra>['settle']): Promise<ReceiverResponse> {
    await settle('handled');
    return fixedResponse('ok', 'Handled.');
  }

  function runAccepted(
    accepted: AcceptedMessage<TExtra>,
    handler: MessageHandler<WebhookMessage, TExtra>,
  ): Promise<ReceiverResponse> {
    const answer = runAcceptedNow(accepted, handler);
    if (answer instanceof Promise) return answer;
    // The only answer not a promise is the shared `HANDLED`, for the node listener alone; callers of
    // `run` and `handle` get their own copy.
    return Promise.resolve(fixedResponse('ok', 'Handled.'));
  }

  /** `runAccepted`, answering `HANDLED` (shared, not a promise) when the handler finished synchronously with nothing to settle. */
  function runAcceptedNow(
    accepted: AcceptedMessage<TExtra>,
    handler: MessageHandler<WebhookMessage, TExtra>,
  ): ReceiverResponse | Promise<ReceiverResponse> {
    const { message, context, settle } = accepted;
    let returned: unknown;
    let threw = false;
    try {
      returned = handler(message, context);
    } catch (error) {
      threw = true;
      returned = error;
    }
    // A handler that returned no promise has finished: no deadline can fire before it did, so the
    // answer needs no timer (the same answer the race below would give, without its cost); with no
    // dedupe store there is nothing to settle either, and the answer is ready now.
    if (!threw && mode === 'handle' && !isThenable(returned)) {
      return settle === settledAlready ? HANDLED : settledOk(settle);
    }
    return runPending(accepted, threw ? Promise.reject(returned) : returned);
  }

  async function runPending(accepted: AcceptedMessage<TExtra>, returned: unknown): Promise<ReceiverResponse> {
    const { message, context, settle } = accepted;
    // The deadline counts from when the request reached the receiver, like `handle`'s.
    const started = context.receivedAt.getTime();
    const run = Promise.resolve(returned);
    const finishInBackground = () =>
      track(
        run.then(
          () => settle('handled'),
          async (error) => {
            await settle('failed');
            onError(error, { message, dedupeKey: context.dedupeKey, phase: 'background' });
          },
        ),
      );
    if (mode === 'acknowledge') {
      finishInBackground();
      return fixedResponse('ok', 'Verified; handling in the background.', ACKNOWLEDGED);
    }
    let timer: ReturnType<typeof setTimeout> | undefined;
    const deadline = new Promise<typeof DEADLINE>((resolve) => {
      timer = setTimeout(() => resolve(DEADLINE), Math.max(0, deadlineMs - (Date.now() - started)));
    });
    const outcome = await Promise.race([
      run.then(
        () => 'ok' as const,
        (error: unknown) => ({ error }),
      ),
      deadline,
    ]);
    clearTimeout(timer);
    if (outcome === 'ok') {
      await settle('handled');
      return fixedResponse('ok', 'Handled.');
    }
    if (outcome === DEADLINE) {
      accepted.abort(new DeadlineExceededError(deadlineMs));
      finishInBackground();
      return receiverResponse(
        'deadline_exceeded',
        `The handler did not finish within ${deadlineMs} ms; the sender will retry.`,
      );
    }
    await settle('failed');
    onError(outcome.error, { message, dedupeKey: context.dedupeKey, phase: 'handler' });
    return receiverResponse('handler_error', 'The handler failed; the sender will retry.');
  }

  /**
   * Mode `enqueue`: hands the message to `enqueue` and answers 200 only once it resolved. At the
   * deadline or on its failure: 503 and the dedupe claim released, so the sender's retry is taken
   * again (the handoff is keyed by the dedupe key: a store that lands late is not stored twice).
   */
  function runEnqueue(
    accepted: AcceptedMessage<TExtra>,
    enqueue: EnqueueHandoff,
    shared = false,
  ): Promise<ReceiverResponse> {
    const { message, context, signedBody } = accepted;
    // Without a store no key was made yet: the handoff always gets one (it is the queue's dedupe).
    const key = context.dedupeKey ?? messageIdKey(message);
    if (key !== undefined) return enqueueKeyed(accepted, enqueue, key, shared);
    let digest: Promise<string>;
    try {
      // JSON.stringify throws on what a parser or schema may put in an unsigned message (a BigInt, a cycle):
      // `handle` answers with a rejected promise then, never a synchronous throw.
      digest = dedupeKey(message, signedBody ?? JSON.stringify(message));
    } catch (error) {
      return Promise.reject(error);
    }
    return digest.then((d) => enqueueKeyed(accepted, enqueue, d, shared));
  }

  /** `shared`: the node listener's call, which may get the shared `STORED` answer. */
  function enqueueKeyed(
    accepted: AcceptedMessage<TExtra>,
    enqueue: EnqueueHandoff,
    key: string,
    shared: boolean,
  ): Promise<ReceiverResponse> {
    const { message, context, settle, signedBody } = accepted;
    let pending: unknown;
    try {
      pending = enqueue(
        new RequestHandoff(
          message,
          key,
          signedBody,
          context.verification,
          context.receivedAt,
          context,
          actions ? 'actions' : 'classic',
        ),
      );
    } catch (error) {
      pending = Promise.reject(error);
    }
    const report = (error: unknown) => onError(error, { message, dedupeKey: key, phase: 'enqueue' });
    // One timer and one promise per request, no race: whichever of the store and the deadline comes
    // first answers, and the other finds `answered` set.
    return new Promise<ReceiverResponse>((resolve) => {
      let answered = false;
      const timer = setTimeout(
        () => {
          answered = true;
          accepted.abort(new DeadlineExceededError(deadlineMs));
          report(new DeadlineExceededError(deadlineMs));
          // Whether it lands later or not, the sender retries and the dedupe key keeps it one job.
          resolve(
            settle('failed').then(() =>
              receiverResponse(
                'queue_unavailable',
                `The queue did not take the message within ${deadlineMs} ms; the sender will retry.`,
              ),
            ),
          );
        },
        Math.max(0, deadlineMs - (Date.now() - context.receivedAt.getTime())),
      );
      Promise.resolve(pending).then(
        () => {
          if (answered) return;
          clearTimeout(timer);
          // Nothing to settle: the answer now, without another promise (the shared one for the node listener).
          if (settle === settledAlready) resolve(shared ? STORED : storedCopy());
          else resolve(settle('handled').then(storedCopy));
        },
        (error: unknown) => {
          if (answered) {
            report(error);
            return;
          }
          clearTimeout(timer);
          report(error);
          resolve(
            settle('failed').then(() =>
              receiverResponse('queue_unavailable', 'The queue refused the message; the sender will retry.'),
            ),
          );
        },
      );
    });
  }

  async function fetchHandler(request: Request, context?: TExtra): Promise<Response> {
    const receivedAt = Date.now();
    const toResponse = (r: ReceiverResponse) => new Response(r.body, { status: r.status, headers: r.headers });
    const refused = precheck(request.method, request.headers);
    if (refused) return toResponse(refused);
    let rawBody: Uint8Array;
    try {
      // The deadline counts from arrival: a body still arriving then is answered 503 (the sender retries).
      rawBody = await readBody(request.body, maxBodyBytes, receivedAt + deadlineMs);
    } catch (error) {
      if (error instanceof BodyTooLargeError) return toResponse(receiverResponse('payload_too_large', error.message));
      if (error instanceof BodyDeadlineError) return toResponse(bodyDeadlineResponse(deadlineMs));
      throw error;
    }
    return toResponse(await handle({ method: request.method, headers: request.headers, rawBody, context, receivedAt }));
  }

  /**
   * The node listener's entry (`NODE_ENTRY`): `handle` after `precheck` passed and the body was read,
   * synchronous when nothing has to be awaited (node:crypto, no dedupe store, a synchronous handler).
   */
  function handleNodeBody(
    method: string,
    headers: ReceiverInput['headers'],
    rawBody: Uint8Array,
    receivedAt: number,
  ): ReceiverResponse | Promise<ReceiverResponse> {
    const accepted = acceptPrechecked({ method, headers, rawBody, receivedAt });
    if (accepted instanceof Promise) return accepted.then(handleAccepted);
    if (accepted.kind === 'response') return accepted.response;
    if (enqueue !== undefined) return runEnqueue(accepted, enqueue, true);
    const handler = pickHandler(accepted.message, accepted);
    if (!handler) return handleUnhandled(accepted);
    return runAcceptedNow(accepted, handler);
  }

  const receiver = {
    handle,
    accept,
    precheck,
    run: runAccepted,
    fetch: fetchHandler,
    drain: async () => {
      while (background.size > 0) await Promise.allSettled([...background]);
    },
    maxBodyBytes,
    deadlineMs,
    mode,
  } as Receiver<TExtra> & NodeEntry;
  // Not enumerable: a copy of the receiver with its own `handle` (`{ ...receiver, handle }`) has no
  // node entry, so the node listener goes through that `handle`.
  Object.defineProperty(receiver, NODE_ENTRY, { value: { handle, precheck, handleBody: handleNodeBody } });
  return receiver;
}
