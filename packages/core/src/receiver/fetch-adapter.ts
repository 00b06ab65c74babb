import type { FrameworkAdapter } from './adapter-contract.js';
import { bodyAlreadyReadResponse, fetchBodyAlreadyRead } from './body-already-read.js';
import { BodyDeadlineError, BodyTooLargeError, readBody } from './read-body.js';
import { answerHeaders, bodyDeadlineResponse, receiverResponse, type ReceiverResponse } from './responses.js';

/** One Fetch call: the request and what the runtime passes beside it (Workers' `env`, Bun's server). */
export interface FetchCall<TExtra> {
  request: Request;
  context: TExtra | undefined;
}

/**
 * `receiver.fetch` as an adapter (Bun, Deno, Workers, Hono's `fetch`): the body read off the
 * request's stream under the limit and deadline, the answer a `Response`.
 *
 * @example
 * const fetch = receiver.serve(fetchAdapter<{}>());
 * Bun.serve({ fetch: (request) => fetch({ request, context: undefined }) });
 */
export function fetchAdapter<TExtra>(): FrameworkAdapter<FetchCall<TExtra>, Response, TExtra> {
  return {
    request: ({ request }) => ({ method: request.method, headers: request.headers }),
    async readBody({ request }, { maxBodyBytes, deadlineMs, receivedAt }) {
      // Read before (`await request.json()` in the route): reading again would throw a TypeError.
      if (fetchBodyAlreadyRead(request)) return bodyAlreadyReadResponse();
      try {
        // The deadline counts from arrival: a body still arriving then is answered 503 (the sender retries).
        return { rawBody: await readBody(request.body, maxBodyBytes, receivedAt + deadlineMs) };
      } catch (error) {
        if (error instanceof BodyTooLargeError) return receiverResponse('payload_too_large', error.message);
        if (error instanceof BodyDeadlineError) return bodyDeadlineResponse(deadlineMs);
        throw error;
      }
    },
    context: ({ context }) => context as TExtra,
    // With its length: on @hono/node-server such a Response is written as it is (its headers not changed).
    writeAnswer: (_call, answer: ReceiverResponse) =>
      new Response(answer.body, { status: answer.status, headers: answerHeaders(answer) }),
  };
}
