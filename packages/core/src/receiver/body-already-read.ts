import { receiverResponse, type ReceiverResponse } from './responses.js';

/**
 * Whether a Fetch `Request`'s body was read (or a reader taken) before the receiver got it: then the
 * bytes the signature covers are gone, and reading them again would throw a `TypeError`.
 *
 * @example
 * if (fetchBodyAlreadyRead(request)) return bodyAlreadyReadResponse();
 */
export function fetchBodyAlreadyRead(request: Request): boolean {
  return request.bodyUsed || request.body?.locked === true;
}

/**
 * The answer to a body read before the receiver (a route that called `request.json()` before
 * `receiver.fetch`, a Node body parser before `toNodeListener`): the status table's 500
 * `body_already_read`, naming what to change. A 500 because the sender retries it: the message is
 * not lost while the route is fixed.
 *
 * @example
 * return toResponse(bodyAlreadyReadResponse());
 */
export function bodyAlreadyReadResponse(): ReceiverResponse {
  return receiverResponse(
    'body_already_read',
    'The request body was read before the receiver (request.json(), request.text() or a body parser), ' +
      'so the signed bytes are gone. Pass the request to the receiver unread, or read the bytes yourself ' +
      '(await request.arrayBuffer()) and call receiver.handle({ method, headers, rawBody }); the sender will retry.',
  );
}
