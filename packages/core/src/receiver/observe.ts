// Where a receiver's answers meet its `telemetry` (internal): what is reported of each answer, built
// from what the steps found. Only the facts `ReceiveAnswer` names leave: never the body, a secret or
// the signature.
import type { WebhookMessage } from '../messages/types.js';
import type { ReceiveAnswer, ReceiveObservation } from '../telemetry/telemetry.js';
import { messageFacts } from '../telemetry/message-facts.js';
import type { PlanViolation } from '../tracking-plan/compiled-plan.js';
import type { AcceptedBatch, AcceptedMessage } from './accepted-message.js';
import type { HeadersLike } from './headers.js';
import { RECEIVER_CODES, type ReceiverCode, type ReceiverResponse } from './responses.js';
import type { ReceiverSetup } from './setup.js';
import type { Checked, Refusal } from './steps/request.js';

/** What the dedupe store said, by the answer's code and whether the message holds a claim. */
function dedupeOutcome(code: ReceiverCode, claimed: boolean): ReceiveAnswer['dedupe'] {
  if (code === 'duplicate') return 'duplicate';
  if (code === 'in_flight') return 'in_flight';
  return claimed ? 'new' : undefined;
}

function answerFacts(
  code: ReceiverCode,
  message: WebhookMessage | undefined,
  claimed: boolean,
  planCheck: { violations: readonly PlanViolation[]; planned: boolean } | undefined,
): ReceiveAnswer {
  return {
    code,
    status: RECEIVER_CODES[code],
    message: message === undefined ? undefined : messageFacts(message),
    dedupe: dedupeOutcome(code, claimed),
    violations: planCheck?.violations.map(({ rule, keyword }) => ({ rule, keyword })),
    planned: planCheck?.planned,
  };
}

/**
 * Reports a refusal to the request's observation (with the checked message, when the refusal came
 * after the check: a duplicate, in flight, the store away) and returns the refusal.
 *
 * @example
 * if (isRefusal(claimed)) return observeRefusal(observation, claimed, planned);
 */
export function observeRefusal<TExtra>(
  observation: ReceiveObservation | undefined,
  refusal: Refusal,
  checked?: Checked<TExtra>,
): Refusal {
  observation?.answered(answerFacts(refusal.code, checked?.message, false, checked?.planCheck));
  return refusal;
}

/**
 * An observation that reports only its first answer: `accept()`'s caller may end it by `settle()`
 * (the documented way to hand a message off), then call `run()` too.
 *
 * @example
 * accepted.observation = answeredOnce(observation);
 */
export function answeredOnce(observation: ReceiveObservation): ReceiveObservation {
  let answered = false;
  return {
    handler: (run) => observation.handler(run),
    enqueue: (run) => observation.enqueue(run),
    verified: (headers) => observation.verified?.(headers),
    answered(answer) {
      if (answered) return;
      answered = true;
      observation.answered(answer);
    },
  };
}

/**
 * What `accept` hands over: with an observation, its settling reports the answer unless `run` did
 * first (a message handed off by hand: `settle('handled')` is `ok`, `failed` is `handler_error`; a
 * batch once its last element is settled, `ok` when each was handled).
 *
 * @example
 * return reportedOnSettle(setup, passed.accepted);
 */
export function reportedOnSettle<TExtra, A extends AcceptedMessage<TExtra> | AcceptedBatch<TExtra>>(
  setup: ReceiverSetup<TExtra>,
  accepted: A,
): A {
  if (accepted.observation === undefined) return accepted;
  accepted.observation = answeredOnce(accepted.observation);
  const report = (handled: boolean) => observeOutcome(setup, accepted, handled ? 'ok' : 'handler_error');
  if (accepted.kind === 'message') {
    const settleClaim = accepted.settle.bind(accepted);
    accepted.settle = async (outcome) => {
      await settleClaim(outcome);
      report(outcome === 'handled');
    };
    return accepted;
  }
  let left = accepted.elements.length;
  let allHandled = true;
  for (const element of accepted.elements) {
    const settleClaim = element.settle.bind(element);
    let settled = false;
    element.settle = async (outcome) => {
      await settleClaim(outcome);
      if (settled) return;
      settled = true;
      allHandled &&= outcome === 'handled';
      if (--left === 0) report(allHandled);
    };
  }
  return accepted;
}

/**
 * The answer reported when the client went away before its body ended: nothing can be answered
 * (`client_closed`, with nginx's 499 for the status), and nothing was handled.
 */
export const CLIENT_CLOSED: ReceiveAnswer = Object.freeze({ code: 'client_closed', status: 499 });

/**
 * Hands a request's headers to its observation once its signature matched (not for an unsigned
 * request: with verification off, anyone could have sent it), so its trace context may be followed.
 *
 * @example
 * observeVerified(observation, verified);
 */
export function observeVerified(
  observation: ReceiveObservation | undefined,
  request: { input: { headers: HeadersLike }; verification: { form: string } },
): void {
  if (request.verification.form !== 'unsigned') observation?.verified?.(request.input.headers);
}

/**
 * Reports an answer made before the steps (the precheck's, or while reading the body) and returns it.
 *
 * @example
 * if ('status' in body) return adapter.writeAnswer(call, observeEarly(observation, body), true);
 */
export function observeEarly(
  observation: ReceiveObservation | undefined,
  response: ReceiverResponse,
): ReceiverResponse {
  observation?.answered({ code: response.code, status: response.status });
  return response;
}

/**
 * Reports the answer to an accepted message (handled, stored, unhandled, failed, past the deadline)
 * to its observation, if it has one, and returns the answer. Its plan violations are reported only
 * when the receiver has a tracking plan.
 *
 * @example
 * return observeAnswer(setup, accepted, await handOff(setup, accepted, handler));
 */
export function observeAnswer<TExtra>(
  setup: ReceiverSetup<TExtra>,
  accepted: AcceptedMessage<TExtra> | AcceptedBatch<TExtra>,
  response: ReceiverResponse,
): ReceiverResponse {
  observeOutcome(setup, accepted, response.code);
  return response;
}

/**
 * Reports an accepted message's answer code to its observation, if it has one (`observeAnswer`
 * without a response: `settle()` after `accept()`).
 *
 * @example
 * observeOutcome(setup, accepted, 'ok');
 */
export function observeOutcome<TExtra>(
  setup: ReceiverSetup<TExtra>,
  accepted: AcceptedMessage<TExtra> | AcceptedBatch<TExtra>,
  code: ReceiverCode,
): void {
  const { observation, context } = accepted;
  if (observation === undefined) return;
  // A batch is reported without message facts.
  const single = accepted.kind === 'message' ? accepted.message : undefined;
  const claimed = context.dedupeKey !== undefined;
  const planCheck = setup.plan === undefined ? undefined : context;
  observation.answered(answerFacts(code, single, claimed, planCheck));
}
