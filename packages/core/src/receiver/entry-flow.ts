// One way in for every request, whatever brought it: core's node listener, `fetch`, `handle`, and
// the Express, Fastify and Hono adapters all run `serveThrough` over their adapter.
import type { WebhookMessage } from '../messages/types.js';
import type { AcceptedMessage } from './accepted-message.js';
import type { FrameworkAdapter } from './adapter-contract.js';
import type { MessageHandler, ReceiverInput } from './options.js';
import type { ReceiverSetup } from './setup.js';
import { acceptBatch, type PassedBatch } from './steps/accept-batch.js';
import { runBatch } from './steps/run-batch.js';
import { acceptedMessage } from './steps/accepted.js';
import { answer } from './steps/answer.js';
import { bigNumbersAsText } from './steps/big-numbers.js';
import { checkMessage, parseBody } from './steps/check.js';
import { checkPlan, planHandler } from './steps/check-plan.js';
import { claim } from './steps/claim.js';
import { handOff, runHandler } from './steps/hand-off.js';
import { checkArrival, precheck } from './steps/precheck.js';
import { isRefusal, newRequest, type Refusal } from './steps/request.js';
import { verify } from './steps/verify.js';
import type { ReceiveObservation } from '../telemetry/telemetry.js';
import { CLIENT_CLOSED, observeAnswer, observeEarly, observeRefusal, observeVerified } from './observe.js';
import { isPending, andThen, type MaybePromise } from './maybe-promise.js';

/**
 * A request that passed every step: its message as `accept` hands it over and the handler it picked;
 * or a batch, with each new element's handler.
 */
export type Passed<TExtra> =
  | { accepted: AcceptedMessage<TExtra>; handler: MessageHandler<WebhookMessage, TExtra> | undefined }
  | PassedBatch<TExtra>;

/**
 * Every step after the precheck, up to the hand-off: a refusal, or the accepted message. At once when
 * no step waits (`node:crypto`, the classic rules, no store or an in-memory one); a promise otherwise.
 *
 * @example
 * const passed = precheck(setup, input.method, input.headers) ?? (await passSteps(setup, input));
 */
export function passSteps<TExtra>(
  setup: ReceiverSetup<TExtra>,
  input: ReceiverInput<TExtra>,
  observation?: ReceiveObservation,
): MaybePromise<Refusal | Passed<TExtra>> {
  const refused = checkArrival(setup, input);
  if (refused) return observeRefusal(observation, refused);
  const request = newRequest(input);
  // A body of several messages (a Webhooks (Actions) batch): the same steps, per element.
  if (setup.rules.isBatch?.(input.rawBody, input.parsedBody)) {
    return andThen(acceptBatch(setup, request), (batch) => {
      // A batch is verified by its first element, inside `acceptBatch`.
      if (!isRefusal(batch)) observeVerified(observation, { input, verification: batch.accepted.context.verification });
      return carryObservation(observation, batch);
    });
  }
  // The steps in order, each returns a refusal or the request with what it found, at once or (when
  // it waits) as a promise: `andThen` goes on at once with a value. The check stage is `parseBody`,
  // `bigNumbersAsText` (numbers parsing changed, as text with `bigNumbers: 'string'`), `checkMessage`;
  // then `claim`, then `checkPlan` (never refuses). With `telemetry`, each refusal is reported to
  // `observation` (a claim's with the checked message).
  return andThen(verify(setup, request), (verified) => {
    if (isRefusal(verified)) return observeRefusal(observation, verified);
    observeVerified(observation, verified);
    const parsed = parseBody(setup, verified);
    if (isRefusal(parsed)) return observeRefusal(observation, parsed);
    return andThen(checkMessage(setup, bigNumbersAsText(setup, parsed)), (checked) => {
      if (isRefusal(checked)) return observeRefusal(observation, checked);
      // Claimed before the plan is checked: a resend of a message handled before is answered `duplicate`
      // without paying for its check again. The plan may then pick `onViolation` as the handler.
      return andThen(claim(setup, checked), (claimed) => {
        if (isRefusal(claimed)) return observeRefusal(observation, claimed, checked);
        const planned = checkPlan(setup, claimed);
        return carryObservation(observation, { accepted: acceptedMessage(setup, planned), handler: planned.handler });
      });
    });
  });
}

/** The steps' outcome with the observation reported (a refusal) or carried on by the accepted message. */
function carryObservation<TExtra>(
  observation: ReceiveObservation | undefined,
  passed: Refusal | Passed<TExtra>,
): Refusal | Passed<TExtra> {
  if (isRefusal(passed)) return observeRefusal(observation, passed);
  if (observation !== undefined) passed.accepted.observation = observation;
  return passed;
}

/**
 * With `telemetry`, the observation of one request from its arrival (`Date.now()` then); `undefined` without.
 *
 * @example
 * const observation = observe(setup, Date.now(), 'POST');
 */
export function observe<TExtra>(
  setup: ReceiverSetup<TExtra>,
  receivedAt: number,
  method: string,
): ReceiveObservation | undefined {
  return setup.telemetry?.receive({ receivedAt, destination: setup.destination, method });
}

/**
 * Runs the receiver over a framework through its adapter: the precheck (once, before any body is
 * read), the body read under the limit and deadline (counted from here), the steps, then the
 * hand-off and its answer; with `passThrough`, the framework's next handler is the handler.
 *
 * @example
 * const serve = serveThrough(setup, nodeAdapter, false);
 * http.createServer((req, res) => void serve({ req, res }));
 */
export function serveThrough<Call, Result, TExtra>(
  setup: ReceiverSetup<TExtra>,
  adapter: FrameworkAdapter<Call, Result, TExtra>,
  passThrough: boolean,
): (call: Call) => Promise<Result> {
  const { maxBodyBytes, deadlineMs } = setup;
  const next = adapter.next?.bind(adapter);
  if (passThrough && next === undefined) {
    throw new TypeError('A pass-through adapter needs next(): it hands the verified message to the next handler.');
  }
  return async (call) => {
    // The deadline counts from here: reading the body is inside it.
    const arrived = Date.now();
    const { method, headers } = adapter.request(call);
    const refused = precheck(setup, method, headers);
    const observation = observe(setup, arrived, method);
    if (refused) return adapter.writeAnswer(call, answer(observeRefusal(observation, refused)), true);
    const read = adapter.readBody(call, { maxBodyBytes, deadlineMs, receivedAt: arrived });
    const body = isPending(read)
      ? await read.then(undefined, (error: unknown) => {
          // The client went away mid-body: the observation still ends.
          observation?.answered(CLIENT_CLOSED);
          throw error;
        })
      : read;
    if ('status' in body) return adapter.writeAnswer(call, observeEarly(observation, body), true);
    const input: ReceiverInput<TExtra> = {
      method,
      headers,
      rawBody: body.rawBody,
      parsedBody: body.parsedBody,
      parse: body.parse,
      receivedAt: body.receivedAt ?? arrived,
      context: adapter.context(call),
    };
    // Awaited only when a step waits (see `andThen`): a request no step waits on is answered at once.
    const steps = passSteps(setup, input, observation);
    const passed = isPending(steps) ? await steps : steps;
    if (isRefusal(passed)) return adapter.writeAnswer(call, answer(passed), false);
    if ('handlers' in passed) {
      const { accepted, handlers } = passed;
      const response = await runBatch(setup, accepted, (index) => handlers[index]);
      return adapter.writeAnswer(call, observeAnswer(setup, accepted, response), false);
    }
    const { accepted, handler } = passed;
    const handing =
      passThrough && next !== undefined
        ? runHandler(
            setup,
            accepted,
            planHandler(setup, accepted, () => next(call, accepted)),
          )
        : handOff(setup, accepted, handler);
    const handled = isPending(handing) ? await handing : handing;
    return adapter.writeAnswer(call, observeAnswer(setup, accepted, handled), false);
  };
}
