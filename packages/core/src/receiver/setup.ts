import type { ActionsReceiverOptions, AnyReceiverOptions } from './actions-options.js';
import { actionsRules } from './actions-rules.js';
import type { StandardSchemaV1 } from '../actions/standard-schema.js';
import type { SignatureForm } from '../signatures/body-forms.js';
import { nodeCrypto } from '../signatures/node-crypto.js';
import { importHmacKey, type Secret } from '../signatures/sign.js';
import { fixedAnswers, type FixedAnswers } from './fixed-answers.js';
import type { MaybePromise } from './maybe-promise.js';
import {
  RAW_MISMATCH_MESSAGE,
  verifyDetailed,
  verifyDetailedAsync,
  type DetailedVerifyResult,
  type VerifyInput,
} from '../signatures/verify.js';
import { checkOptionValues, checkReceiverOptions } from './check-options.js';
import { classicRules, type DestinationRules } from './destination-rules.js';
import type { EnqueueHandoff } from './handoff.js';
import { checkTelemetry } from '../telemetry/check-telemetry.js';
import type { Telemetry } from '../telemetry/telemetry.js';
import { MemoryIdempotencyStore, type IdempotencyStore } from './idempotency-store.js';
import { settleTrackingPlan, type PlanSetup } from './plan-setup.js';
import {
  DEFAULT_DEDUPE_TTL_MS,
  DEFAULT_IN_FLIGHT_TTL_MS,
  type ReceiverErrorInfo,
  type ReceiverLogger,
  type ReceiverOptions,
} from './options.js';

/**
 * Everything the receiver's steps read, settled once from the options (internal): the secrets, the
 * destination's rules, the limits, the dedupe store, the mode and where failures go.
 *
 * @example
 * const setup = receiverSetup(options);
 * const refusal = precheck(setup, 'GET', headers); // 405
 */
export interface ReceiverSetup<TExtra> {
  /** `null`: verification is off (`insecureSkipVerification`). */
  secrets: readonly Secret[] | null;
  /**
   * Checks a signature with the crypto picked once: `node:crypto` where the runtime has it (unless
   * `crypto: 'web'`; at once, with keys imported when the receiver was made), else Web Crypto (a
   * promise; the secrets imported once, on first use).
   */
  verifySignature(input: VerifyInput): MaybePromise<DetailedVerifyResult>;
  /** The answers whose bytes never change, made once for this receiver. */
  answers: FixedAnswers;
  signatureForms: readonly SignatureForm[] | undefined;
  allowReserialized: boolean;
  /** The destination's rules, picked once: methods, what a valid body is, which handler runs it. */
  rules: DestinationRules<TExtra>;
  /** The tracking plan (`trackingPlan`) and what the plan step reads; `undefined` without one. */
  plan: PlanSetup | undefined;
  /** Which Actions batches are accepted: none, signed ones, or also unsigned ones. */
  batches: false | 'signed' | 'including-unsigned';
  /** Whether handlers (`on`, `onMessage`, `onPayload`) were given: batches need them. */
  hasHandlers: boolean;
  destination: 'classic' | 'actions';
  deadlineMs: number;
  maxBodyBytes: number;
  mode: 'handle' | 'acknowledge' | 'enqueue';
  enqueue: EnqueueHandoff | undefined;
  store: IdempotencyStore | null;
  ttlMs: number;
  inFlightTtlMs: number;
  /** `string`: numbers JSON parsing changed reach handlers as their exact text (`bigNumbers`). */
  bigNumbers: 'number' | 'string';
  /** Explain signature mismatches in the log. */
  debug: boolean;
  logger: ReceiverLogger;
  /** Where each answered delivery is reported (`telemetry`); `undefined` without it. */
  telemetry: Telemetry | undefined;
  onError: (error: unknown, info: ReceiverErrorInfo) => void;
  /** Keeps a handler running after the answer until it settles (for `drain`). */
  track(work: Promise<unknown>): void;
  /** Resolves once every tracked handler has settled. */
  drain(): Promise<void>;
}

/**
 * `node:crypto` verification with this receiver's keys: each secret imported once, now
 * (`createSecretKey`), so no HMAC keys itself from the secret's text again. A secret `node:crypto`
 * refuses stays as it is (verification reports it as no match).
 */
function nodeVerifier(
  crypto: NonNullable<ReturnType<typeof nodeCrypto>>,
  secrets: readonly Secret[] | null,
): (input: VerifyInput) => DetailedVerifyResult {
  const keys = (secrets ?? []).map((secret) => {
    try {
      return typeof secret === 'string' ? crypto.createSecretKey(secret, 'utf8') : crypto.createSecretKey(secret);
    } catch {
      return secret;
    }
  });
  return (input) => verifyDetailed(input, input.secret === secrets ? keys : undefined);
}

/** Web Crypto verification with this receiver's keys: each secret imported once, when first tried. */
function webVerifier(): (input: VerifyInput) => Promise<DetailedVerifyResult> {
  const keys: Promise<CryptoKey>[] = [];
  const keyOf = (secret: Secret, index: number) => (keys[index] ??= importHmacKey(secret));
  return (input) => verifyDetailedAsync(input, keyOf);
}

function envDebug(): boolean {
  const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env;
  return /(^|,)\s*hookgate/.test(env?.DEBUG ?? '');
}

/**
 * Checks a receiver's options and settles them into what its steps read (internal).
 *
 * @example
 * const setup = receiverSetup({ secret, on: { track: (msg) => console.log(msg.event) } });
 */
export function receiverSetup<TExtra>(given: AnyReceiverOptions<TExtra>): ReceiverSetup<TExtra> {
  // With a tracking plan, `on.track` keyed by event name is one handler from here on.
  const { options: checked, plan } = settleTrackingPlan(checkReceiverOptions<AnyReceiverOptions<TExtra>>(given));
  // The classic options' view: the receiver's shared settings read the same in both destinations.
  const options = checked as ReceiverOptions<TExtra>;
  const { secrets, deadlineMs, maxBodyBytes } = checkOptionValues(options);
  const actions =
    checked.destination === 'actions'
      ? (checked as ActionsReceiverOptions<TExtra, StandardSchemaV1 | undefined>)
      : undefined;
  const rules = actions ? actionsRules(actions) : classicRules(options);
  const enqueue = options.enqueue;
  const logger: ReceiverLogger =
    options.logger === false
      ? { warn: () => {}, debug: () => {} }
      : (options.logger ?? {
          warn: (line) => console.warn(line),
          debug: (line) => console.debug(line),
        });
  const onError =
    options.onError ??
    ((error: unknown, info: ReceiverErrorInfo) => {
      const what = info.message ? rules.describe(info.message) : 'message';
      logger.warn(
        `[hookgate] ${info.phase} failure for a ${what}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
      );
    });
  // In enqueue mode the queue is the dedupe by default (the handoff is keyed by the dedupe key, shared by
  // every instance); a store given in `dedupe` still answers retries before they reach the queue.
  const dedupe = options.dedupe === false ? null : (options.dedupe ?? (enqueue !== undefined ? null : {}));
  const background = new Set<Promise<unknown>>();
  if (secrets === null) {
    logger.warn('[hookgate] insecureSkipVerification is on: this receiver accepts unsigned, unverified requests.');
  }
  const batches = actions?.insecureAcceptBatches;
  const node = nodeCrypto();
  return {
    secrets,
    verifySignature: options.crypto !== 'web' && node !== null ? nodeVerifier(node, secrets) : webVerifier(),
    answers: fixedAnswers(deadlineMs, RAW_MISMATCH_MESSAGE),
    signatureForms: options.signatureForms,
    allowReserialized: options.allowReserializedWithRawBody === true,
    rules,
    plan,
    batches: batches === true ? 'signed' : batches === 'including-unsigned' ? 'including-unsigned' : false,
    hasHandlers: actions ? actions.on !== undefined || actions.onPayload !== undefined : false,
    destination: actions ? 'actions' : 'classic',
    deadlineMs,
    maxBodyBytes,
    mode: enqueue !== undefined ? 'enqueue' : (options.mode ?? 'handle'),
    enqueue,
    store: dedupe ? (dedupe.store ?? new MemoryIdempotencyStore()) : null,
    ttlMs: dedupe?.ttlMs ?? DEFAULT_DEDUPE_TTL_MS,
    inFlightTtlMs: dedupe?.inFlightTtlMs ?? DEFAULT_IN_FLIGHT_TTL_MS,
    bigNumbers: options.bigNumbers ?? 'number',
    debug: options.debug ?? envDebug(),
    logger,
    telemetry: checkTelemetry(options.telemetry, 'createReceiver'),
    onError,
    track(work) {
      background.add(work);
      void work.finally(() => background.delete(work));
    },
    async drain() {
      while (background.size > 0) await Promise.allSettled([...background]);
    },
  };
}
