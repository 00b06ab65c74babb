// The receiver's wiring: options settled once (`receiverSetup`), then every request through the same
// named steps (steps/): precheck → verify → parse (and big numbers) → check → claim → hand off → answer.
import type { AnyReceiverOptions, ReceiverDestination, ReceiverOptionsFor } from './actions-options.js';
import type { StandardSchemaV1 } from '../actions/standard-schema.js';
import type { WebhookMessage } from '../messages/types.js';
import type { MessageHandler, ReceiverInput } from './options.js';
import { bodyAlreadyReadResponse, fetchBodyAlreadyRead } from './body-already-read.js';
import { BodyDeadlineError, BodyTooLargeError, readBody } from './read-body.js';
import { observeRefusal, observeAnswer } from './observe.js';
import type { AcceptResult, AcceptedMessage, Receiver } from './receiver.js';
import { bodyDeadlineResponse, receiverResponse, type ReceiverResponse } from './responses.js';
import { receiverSetup, type ReceiverSetup } from './setup.js';
import { acceptBatch } from './steps/accept-batch.js';
import { acceptedMessage } from './steps/accepted.js';
import { answer } from './steps/answer.js';
import { bigNumbersAsText } from './steps/big-numbers.js';
import { checkMessage, parseBody } from './steps/check.js';
import { checkPlan, planHandler } from './steps/check-plan.js';
import { claim } from './steps/claim.js';
import { handOff, runHandler } from './steps/hand-off.js';
import { checkArrival, precheck } from './steps/precheck.js';
import { newRequest, type ReceiverRequest, type Refusal } from './steps/request.js';
import { verify } from './steps/verify.js';
import type { ReceiveObservation } from '../telemetry/telemetry.js';

/** A request that passed every step: its message as `accept` hands it over, and the handler it picked. */
interface Passed<TExtra> {
  accepted: AcceptedMessage<TExtra>;
  handler: MessageHandler<WebhookMessage, TExtra> | undefined;
}

/**
 * Every step up to the hand-off: a refusal, or the accepted message. With `telemetry`, a refusal is
 * reported to `observation` here, and an accepted message carries it on to its answer.
 */
async function passSteps<TExtra>(
  setup: ReceiverSetup<TExtra>,
  input: ReceiverInput<TExtra>,
  observation: ReceiveObservation | undefined,
): Promise<Refusal | Passed<TExtra>> {
  const refused = precheck(setup, input.method, input.headers) ?? checkArrival(setup, input);
  if (refused) return observeRefusal(observation, refused);
  const request = newRequest(input);
  // A body of several messages (a Webhooks (Actions) batch): the same steps, per element.
  if (setup.rules.isBatch?.(input.rawBody, input.parsedBody)) {
    return observed(observation, await acceptBatch(setup, request), request);
  }
  // The steps in order, each may refuse; those with nothing to wait for are plain calls. The check stage
  // is `parseBody`, `bigNumbersAsText` (numbers parsing changed, as text with `bigNumbers: 'string'`),
  // `checkMessage`, then `checkPlan` (annotates the context, never refuses).
  const refusal =
    (await verify(setup, request)) ??
    parseBody(setup, request) ??
    bigNumbersAsText(setup, request) ??
    (await checkMessage(setup, request)) ??
    checkPlan(setup, request) ??
    (await claim(setup, request));
  if (refusal) return observeRefusal(observation, refusal, request);
  return observed(observation, { accepted: acceptedMessage(setup, request), handler: request.handler }, request);
}

/** The steps' outcome with the observation reported (a refusal) or carried on (an accepted message). */
function observed<TExtra>(
  observation: ReceiveObservation | undefined,
  passed: Refusal | Passed<TExtra>,
  request: ReceiverRequest<TExtra>,
): Refusal | Passed<TExtra> {
  if ('code' in passed) return observeRefusal(observation, passed, request);
  if (observation !== undefined) passed.accepted.observation = observation;
  return passed;
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
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- `{}`: no extras (the identity of `&`)
  TExtra = {},
  S extends StandardSchemaV1 | undefined = undefined,
  D extends ReceiverDestination = 'classic',
  TPlan = unknown,
>(options: ReceiverOptionsFor<D, TExtra, S, TPlan>): Receiver<TExtra>;
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- `{}`: no extras (the identity of `&`)
export function createReceiver<TExtra = {}>(given: AnyReceiverOptions<TExtra>): Receiver<TExtra> {
  const setup = receiverSetup(given);
  const { maxBodyBytes, deadlineMs } = setup;

  // With `telemetry`: one observation per request, from its arrival to its answer.
  const observe = (receivedAt: number | undefined) =>
    setup.telemetry?.receive({ receivedAt: receivedAt ?? Date.now(), destination: setup.destination });

  async function handle(input: ReceiverInput<TExtra>): Promise<ReceiverResponse> {
    const passed = await passSteps(setup, input, observe(input.receivedAt));
    if ('code' in passed) return answer(passed);
    return observeAnswer(setup, passed.accepted, await handOff(setup, passed.accepted, passed.handler));
  }

  async function accept(input: ReceiverInput<TExtra>): Promise<AcceptResult<TExtra>> {
    const passed = await passSteps(setup, input, observe(input.receivedAt));
    if ('code' in passed) return { kind: 'response', response: answer(passed) };
    return passed.accepted;
  }

  async function fetchHandler(request: Request, context?: TExtra): Promise<Response> {
    const receivedAt = Date.now();
    const toResponse = (r: ReceiverResponse) => new Response(r.body, { status: r.status, headers: r.headers });
    const refused = prechecked(request.method, request.headers, receivedAt);
    if (refused) return toResponse(refused);
    // Read before (`await request.json()` in the route): reading again would throw a TypeError.
    if (fetchBodyAlreadyRead(request)) return toResponse(reportAnswer(bodyAlreadyReadResponse(), receivedAt));
    let rawBody: Uint8Array;
    try {
      // The deadline counts from arrival: a body still arriving then is answered 503 (the sender retries).
      rawBody = await readBody(request.body, maxBodyBytes, receivedAt + deadlineMs);
    } catch (error) {
      if (error instanceof BodyTooLargeError)
        return toResponse(reportAnswer(receiverResponse('payload_too_large', error.message), receivedAt));
      if (error instanceof BodyDeadlineError)
        return toResponse(reportAnswer(bodyDeadlineResponse(deadlineMs), receivedAt));
      throw error;
    }
    return toResponse(await handle({ method: request.method, headers: request.headers, rawBody, context, receivedAt }));
  }

  /** An answer made before `handle` (no body needed), reported to `telemetry` as it is made. */
  function prechecked(method: string, headers: ReceiverInput['headers'], receivedAt?: number) {
    const refused = precheck(setup, method, headers);
    return refused && answer(observeRefusal(observe(receivedAt), refused));
  }

  /** An answer made outside the steps (while reading the body), reported to `telemetry`. */
  function reportAnswer(response: ReceiverResponse, receivedAt?: number): ReceiverResponse {
    observe(receivedAt)?.answered({ code: response.code, status: response.status });
    return response;
  }

  return {
    handle,
    accept,
    precheck: (method, headers) => prechecked(method, headers),
    reportAnswer,
    run: async (accepted, handler) =>
      observeAnswer(setup, accepted, await runHandler(setup, accepted, planHandler(setup, accepted, handler))),
    fetch: fetchHandler,
    drain: () => setup.drain(),
    maxBodyBytes,
    deadlineMs,
    mode: setup.mode,
  };
}
