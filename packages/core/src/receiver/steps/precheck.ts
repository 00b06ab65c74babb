import { getHeader, type HeadersLike } from '../headers.js';
import type { ReceiverInput } from '../options.js';
import type { ReceiverSetup } from '../setup.js';
import { utf8ByteLength } from '../utf8-length.js';
import { refuse, type Refusal } from './request.js';

const JSON_CONTENT_TYPE = /^application\/(?:[\w.+-]*\+)?json\s*(?:;|$)/i;

/**
 * The checks that need no body: method (405), content type (415), declared length (413). An adapter
 * runs them before reading the body, so that it reads no body it refuses.
 *
 * @example
 * const refusal = precheck(setup, req.method, req.headers);
 * if (refusal) return answer(refusal);
 */
export function precheck<TExtra>(
  setup: ReceiverSetup<TExtra>,
  method: string,
  headers: HeadersLike,
): Refusal | undefined {
  const { rules, maxBodyBytes } = setup;
  if (!rules.methods.includes(method.toUpperCase())) {
    return { code: 'method_not_allowed', message: rules.methodMessage(method), headers: { allow: rules.allow } };
  }
  const contentType = getHeader(headers, 'content-type');
  if (typeof contentType !== 'string' || !JSON_CONTENT_TYPE.test(contentType)) {
    return refuse(
      'unsupported_media_type',
      `Content-Type must be application/json; got ${typeof contentType === 'string' ? JSON.stringify(contentType) : 'none'}.`,
    );
  }
  const declared = Number(getHeader(headers, 'content-length'));
  if (Number.isFinite(declared) && declared > maxBodyBytes) {
    return refuse('payload_too_large', `The body is larger than the limit of ${maxBodyBytes} bytes.`);
  }
  return undefined;
}

/**
 * The checks of the body as read, before anything else is done with it: it arrived within the
 * deadline (503), it is within the limit (413), there is one (400).
 *
 * @example
 * const refusal = precheck(setup, input.method, input.headers) ?? checkArrival(setup, input);
 */
export function checkArrival<TExtra>(setup: ReceiverSetup<TExtra>, input: ReceiverInput<TExtra>): Refusal | undefined {
  const { deadlineMs, maxBodyBytes } = setup;
  // The budget counts from arrival: a body that took it all to arrive is not handled any more.
  if (input.receivedAt !== undefined && Date.now() - input.receivedAt >= deadlineMs) {
    return refuse('deadline_exceeded', `The request took more than ${deadlineMs} ms to arrive; the sender will retry.`);
  }
  const raw = input.rawBody;
  const size = raw === undefined ? 0 : typeof raw === 'string' ? utf8ByteLength(raw) : raw.byteLength;
  if (size > maxBodyBytes) {
    return refuse('payload_too_large', `The body is larger than the limit of ${maxBodyBytes} bytes.`);
  }
  if (raw === undefined && input.parsedBody === undefined) return refuse('invalid_json', 'The request has no body.');
  return undefined;
}
