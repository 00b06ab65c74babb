import type { LossyNumber } from '../../json/lossy-numbers.js';
import type { WebhookMessage } from '../../messages/types.js';
import type { PlanCheckResult } from '../../tracking-plan/compile-plan.js';
import type { MessageHandler, ReceiverInput, Verification } from '../options.js';
import type { ReceiverCode } from '../responses.js';

/**
 * One request on its way through the receiver's steps (internal). Each step reads what the steps
 * before it found and adds its own: `verify` the verification and the signed body, `parseBody` the
 * value and the numbers parsing changed, `bigNumbersAsText` puts those back as text (`bigNumbers:
 * 'string'`), `checkMessage` the message and its handler, `checkPlan` the tracking plan's outcome, `claim`
 * the dedupe key.
 *
 * @example
 * const request = newRequest(input);
 * const refusal = (await verify(setup, request)) ?? parseBody(setup, request);
 */
export interface ReceiverRequest<TExtra> {
  readonly input: ReceiverInput<TExtra>;
  /** When the request arrived: the deadline counts from it. */
  readonly receivedAt: Date;
  verification: Verification;
  /** The exact text or bytes the signature matched; `undefined` when verification is off. */
  signedBody: string | Uint8Array | undefined;
  /** The parsed body. */
  value: unknown;
  /**
   * The numbers of the raw body that parsing changed (`ctx.lossyNumbers`), found on the first call;
   * empty when none, or without raw bytes.
   */
  lossy: () => readonly LossyNumber[];
  /** The checked message (a schema's output, for an Actions payload). */
  message: WebhookMessage;
  /** The value whose `messageId` keys the dedupe (the body's, even when a schema changed the message). */
  keyedBy: unknown;
  /** The destination's handler for the message; `undefined` when none is given for it. */
  handler: MessageHandler<WebhookMessage, TExtra> | undefined;
  /** The tracking plan's outcome for the message; `undefined` when it was not checked. */
  planCheck: PlanCheckResult | undefined;
  dedupeKey: string | undefined;
}

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

const NONE: readonly LossyNumber[] = Object.freeze([]);
const NO_LOSSY_NUMBERS = (): readonly LossyNumber[] => NONE;

/**
 * A request at the start of the steps.
 *
 * @example
 * const request = newRequest({ method: 'POST', headers, rawBody });
 */
export function newRequest<TExtra>(input: ReceiverInput<TExtra>): ReceiverRequest<TExtra> {
  return {
    input,
    receivedAt: new Date(input.receivedAt ?? Date.now()),
    verification: { form: 'unsigned', secretIndex: -1 },
    signedBody: undefined,
    value: undefined,
    lossy: NO_LOSSY_NUMBERS,
    message: undefined as unknown as WebhookMessage,
    keyedBy: undefined,
    handler: undefined,
    planCheck: undefined,
    dedupeKey: undefined,
  };
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
