// The receiver's wiring: options settled once (`receiverSetup`), then every request through one entry
// flow (entry-flow.ts) and the same named steps (steps/): precheck → read → verify → parse (and big
// numbers) → check → claim → hand off → answer. `handle`, `fetch` and `serve` are that flow over an adapter.
import type { AnyReceiverOptions, ReceiverDestination, ReceiverOptionsFor } from './actions-options.js';
import type { StandardSchemaV1 } from '../actions/standard-schema.js';
import type { FrameworkAdapter } from './adapter-contract.js';
import { observe, passSteps, serveThrough } from './entry-flow.js';
import { observeAnswer, observeRefusal, reportedOnSettle } from './observe.js';
import { fetchAdapter } from './fetch-adapter.js';
import type { ReceiverInput } from './options.js';
import type { AcceptResult, Receiver } from './receiver.js';
import { ownAnswer, type ReceiverResponse } from './responses.js';
import { receiverSetup } from './setup.js';
import { answer } from './steps/answer.js';
import { planHandler } from './steps/check-plan.js';
import { runHandler } from './steps/hand-off.js';
import { runBatch } from './steps/run-batch.js';
import { precheck } from './steps/precheck.js';
import { isRefusal } from './steps/request.js';

/** `handle`'s input as an adapter: its body already read, its answer returned as it is. */
function givenInput<TExtra>(): FrameworkAdapter<ReceiverInput<TExtra>, ReceiverResponse, TExtra> {
  return {
    request: ({ method, headers }) => ({ method, headers }),
    readBody: ({ rawBody, parsedBody, parse, receivedAt }) => ({ rawBody, parsedBody, parse, receivedAt }),
    context: (input) => input.context as TExtra,
    // The caller may change the answer it gets: a fixed answer is handed out as a copy.
    writeAnswer: (_input, response) => ownAnswer(response),
  };
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
  const serve = <Call, Result>(adapter: FrameworkAdapter<Call, Result, TExtra>, passThrough = false) =>
    serveThrough(setup, adapter, passThrough);
  const handle = serve(givenInput<TExtra>());
  const fetch = serve(fetchAdapter<TExtra>());

  async function accept(input: ReceiverInput<TExtra>): Promise<AcceptResult<TExtra>> {
    const observation = observe(setup, input.receivedAt ?? Date.now(), input.method);
    const refused = precheck(setup, input.method, input.headers);
    const passed = refused ? observeRefusal(observation, refused) : await passSteps(setup, input, observation);
    if (isRefusal(passed)) return { kind: 'response', response: ownAnswer(answer(passed)) };
    return reportedOnSettle(setup, passed.accepted);
  }

  return {
    handle,
    accept,
    precheck(method, headers) {
      const refused = precheck(setup, method, headers);
      return refused && answer(refused);
    },
    run: async (accepted, handler) =>
      ownAnswer(
        observeAnswer(
          setup,
          accepted,
          accepted.kind === 'batch'
            ? await runBatch(setup, accepted, (index) => planHandler(setup, accepted.elements[index]!, handler))
            : await runHandler(setup, accepted, planHandler(setup, accepted, handler)),
        ),
      ),
    serve,
    fetch: (request, context) => fetch({ request, context }),
    drain: () => setup.drain(),
    maxBodyBytes,
    deadlineMs,
    mode: setup.mode,
  };
}
