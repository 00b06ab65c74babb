import type { LossyNumber } from '../../json/lossy-numbers.js';
import type { WebhookMessage } from '../../messages/types.js';
import type { PlanCheckResult } from '../../tracking-plan/compile-plan.js';
import type { MessageHandler, ReceiverInput, Verification } from '../options.js';
import type { ReceiverCode } from '../responses.js';

/**
 * A request as it reached the steps (internal): what the adapter read, and when. Each step takes the
 * request as the steps before it left it and adds what it found (`Object.assign`: one object per
 * request, not a copy per step, which measured ≈ 2 µs a request), so a step's types say what it needs
 * and what it fills in: `verify` adds `Verified`, `parseBody` `Parsed`,
 * `checkMessage` `Checked`, `claim` `Claimed` (then `checkPlan` completes `Checked` with its outcome).
 *
 * @example
 * const verified = await verify(setup, newRequest(input));
 * if (isRefusal(verified)) return verified;
 */
export interface ArrivedRequest<TExtra> {
  readonly input: ReceiverInput<TExtra>;
  /** When the request arrived: the deadline counts from it. */
  readonly receivedAt: Date;
}

/** What `verify` adds: which form and secret matched, and the exact text or bytes they matched. */
export interface Verified {
  readonly verification: Verification;
  /** The exact text or bytes the signature matched; `undefined` when verification is off. */
  readonly signedBody: string | Uint8Array | undefined;
}

/** What `parseBody` adds: the parsed body, and how to find the numbers parsing changed. */
export interface Parsed {
  readonly value: unknown;
  /**
   * The numbers of the raw body that parsing changed (`ctx.lossyNumbers`), found on the first call;
   * empty when none, or without raw bytes.
   */
  readonly lossy: () => readonly LossyNumber[];
}

/** What `checkMessage` adds (and `checkPlan` completes): the checked message and its handler. */
export interface Checked<TExtra> {
  /** The checked message (a schema's output, for an Actions payload). */
  readonly message: WebhookMessage;
  /** The value whose `messageId` keys the dedupe (the body's, even when a schema changed the message). */
  readonly keyedBy: unknown;
  /** The destination's handler for the message (`onViolation`'s, after `checkPlan`); `undefined` when none. */
  readonly handler: MessageHandler<WebhookMessage, TExtra> | undefined;
  /** The tracking plan's outcome for the message; `undefined` when it was not checked. */
  readonly planCheck?: PlanCheckResult | undefined;
}

/** What `claim` adds: the dedupe key claimed; `undefined` when dedupe is off. */
export interface Claimed {
  readonly dedupeKey: string | undefined;
}

/** A request that went through every step before the hand-off. */
export type ClaimedRequest<TExtra> = ArrivedRequest<TExtra> & Verified & Parsed & Checked<TExtra> & Claimed;

/**
 * A step's refusal: the answer's code, message and extra fields (turned into the answer by `answer`).
 *
 * @example
 * const refusal: Refusal = { code: 'invalid_message', message: 'The body is not a valid webhook message.' };
 */
export interface Refusal {
  code: ReceiverCode;
  message: string;
  extra?: Record<string, unknown>;
  /** Headers the answer adds (the `Allow` of a 405). */
  headers?: Record<string, string>;
}

/**
 * Whether a step refused (a request never has a `code`).
 *
 * @example
 * const parsed = parseBody(setup, verified);
 * if (isRefusal(parsed)) return parsed;
 */
export function isRefusal(outcome: Refusal | object): outcome is Refusal {
  return 'code' in outcome;
}

/**
 * A request at the start of the steps.
 *
 * @example
 * const request = newRequest({ method: 'POST', headers, rawBody });
 */
export function newRequest<TExtra>(input: ReceiverInput<TExtra>): ArrivedRequest<TExtra> {
  return { input, receivedAt: new Date(input.receivedAt ?? Date.now()) };
}

/**
 * A refusal.
 *
 * @example
 * return refuse('missing_signature', 'The X-Signature header is missing; the request is not signed.');
 */
export function refuse(code: ReceiverCode, message: string, extra?: Record<string, unknown>): Refusal {
  return { code, message, extra };
}
